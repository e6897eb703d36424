// Grid maze generation and shortest-path counting for the maze task.
//
// A maze is an n×n grid of cells, each open or wall, stored row-major (cell = row·n + col).
// The grid edge is the outer wall. Perfect mazes are grown by randomised depth-first search over
// cells: a wall cell is carved only if exactly one of its neighbours is open, so the open cells
// always form a tree (exactly one path between any two). Braiding then opens wall cells that touch
// two or more open cells, each of which closes a loop.

import type { Rng } from '../../core/random';

/** [dRow, dCol] of U, D, L, R. */
export const MOVE_DELTAS: readonly (readonly [number, number])[] = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
];
export const MOVE_NAMES = ['U', 'D', 'L', 'R'] as const;

export function neighbours(size: number, cell: number): number[] {
  const r = Math.floor(cell / size);
  const c = cell % size;
  const out: number[] = [];
  for (const [dr, dc] of MOVE_DELTAS) {
    const rr = r + dr;
    const cc = c + dc;
    if (rr >= 0 && rr < size && cc >= 0 && cc < size) out.push(rr * size + cc);
  }
  return out;
}

function openNeighbourCount(open: readonly boolean[], size: number, cell: number): number {
  return neighbours(size, cell).filter((x) => open[x]).length;
}

/** Randomised depth-first growth from a random cell; the open cells form a tree. */
export function carvePerfectMaze(rng: Rng, size: number): boolean[] {
  const open = new Array<boolean>(size * size).fill(false);
  const first = rng.int(size * size);
  open[first] = true;
  const stack = [first];
  while (stack.length > 0) {
    const cell = stack[stack.length - 1];
    const options = neighbours(size, cell).filter((x) => !open[x] && openNeighbourCount(open, size, x) === 1);
    if (options.length === 0) {
      stack.pop();
      continue;
    }
    const next = options[rng.int(options.length)];
    open[next] = true;
    stack.push(next);
  }
  return open;
}

/** Opens up to `extra` wall cells that touch ≥ 2 open cells (each closes a loop); returns how many. */
export function braidMaze(rng: Rng, open: boolean[], size: number, extra: number): number {
  let opened = 0;
  for (; opened < extra; opened++) {
    const candidates: number[] = [];
    for (let cell = 0; cell < open.length; cell++) {
      if (!open[cell] && openNeighbourCount(open, size, cell) >= 2) candidates.push(cell);
    }
    if (candidates.length === 0) break;
    open[candidates[rng.int(candidates.length)]] = true;
  }
  return opened;
}

/** Breadth-first search from `source`: distance (-1 if unreachable) and number of shortest paths. */
export function shortestPaths(
  open: readonly boolean[],
  size: number,
  source: number,
): { dist: Int32Array; count: Float64Array } {
  const dist = new Int32Array(size * size).fill(-1);
  const count = new Float64Array(size * size);
  if (!open[source]) return { dist, count };
  dist[source] = 0;
  count[source] = 1;
  const queue = [source];
  for (let head = 0; head < queue.length; head++) {
    const cell = queue[head];
    for (const x of neighbours(size, cell)) {
      if (!open[x]) continue;
      if (dist[x] < 0) {
        dist[x] = dist[cell] + 1;
        queue.push(x);
      }
      if (dist[x] === dist[cell] + 1) count[x] += count[cell];
    }
  }
  return { dist, count };
}

export interface GeneratedMaze {
  open: boolean[];
  start: number;
  goal: number;
}

/** Mazes tried before giving up on a constraint; the tests show the limits are met well before. */
export const MAX_MAZE_ATTEMPTS = 400;

/**
 * A maze with start and goal at a shortest distance in [minDist, maxDist], drawn uniformly among
 * the qualifying (start, goal) pairs. maxDist is the easy end of a curriculum: below minDist the
 * distance is anything in [1, maxDist] (level 1: one move; level 2: one or two), so that a policy
 * learns to stop where the goal is, not after a count of moves. nearShare of the mazes (0–1) take
 * any distance in [1, maxDist] at every level: a level whose only distance is minDist (maxDist =
 * minDist) would otherwise teach a count of moves again. With braid > 0 only pairs joined by at
 * least two shortest paths qualify. Mazes are redrawn until a pair qualifies; after
 * MAX_MAZE_ATTEMPTS the best pair seen is used.
 */
export function generateMaze(
  rng: Rng,
  size: number,
  braidCount: number,
  minDist: number,
  maxDist = Infinity,
  nearShare = 0,
): GeneratedMaze {
  // No draw when nearShare is 0, so the mazes of a run without it stay what they were.
  const near = nearShare > 0 && rng.next() < nearShare;
  const lo = near || maxDist < minDist ? 1 : minDist;
  let fallback: (GeneratedMaze & { score: number }) | undefined;
  for (let attempt = 0; attempt < MAX_MAZE_ATTEMPTS; attempt++) {
    const open = carvePerfectMaze(rng, size);
    if (braidCount > 0) braidMaze(rng, open, size, braidCount);
    const pairs: [number, number][] = [];
    for (let s = 0; s < open.length; s++) {
      if (!open[s]) continue;
      const { dist, count } = shortestPaths(open, size, s);
      for (let g = 0; g < open.length; g++) {
        if (g === s || dist[g] < 1) continue;
        const ties = count[g] >= 2;
        const ok = dist[g] >= lo && dist[g] <= maxDist && (braidCount === 0 || ties);
        if (ok) pairs.push([s, g]);
        // Best fallback: the distance nearest the allowed range, ties preferred when braided.
        const off = dist[g] < lo ? lo - dist[g] : dist[g] > maxDist ? dist[g] - maxDist : 0;
        const score = -off * 2 + (braidCount > 0 && ties ? 1 : 0);
        if (!fallback || score > fallback.score) fallback = { open: [...open], start: s, goal: g, score };
      }
    }
    if (pairs.length > 0) {
      const [start, goal] = pairs[rng.int(pairs.length)];
      return { open, start, goal };
    }
  }
  const f = fallback as GeneratedMaze & { score: number };
  return { open: f.open, start: f.start, goal: f.goal };
}
