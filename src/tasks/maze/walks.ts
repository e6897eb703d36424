// How each maze walk ended, in words and in cell geometry: where and why it failed, and the
// end markers the board draws (one ✓ at the goal, one ✗ per place walks failed).
//
// A failure is drawn where it happened, not where the walk began: a move into a wall or off the
// grid at the edge it tried to cross, a bad token or an early stop at the cell where the walk
// was. Geometry is in cell units: x = column + ½, y = row + ½ is a cell's centre.

import { EOS } from '../types';
import type { MazeInstance } from './board';
import { MOVE_DELTAS, shortestPaths } from './gen';
import { decodeInstancePath, moveOf } from './paths';
import type { Cell, DecodedPath, FailureKind, MazeFailure, MazeMarker, MazeOutcome, WalkEnd } from '../picture';

export type { FailureKind, MazeFailure, MazeMarker, MazeOutcome, WalkEnd };

const ARROWS: Record<string, string> = { U: '↑', D: '↓', L: '←', R: '→' };

/** Moves show as arrows; other tokens as their vocabulary text. */
export const moveArrow = (_token: number, raw: string): string => ARROWS[raw] ?? raw;

/** "row 2, column 4" (counted from 1, for people). */
export function cellWords([r, c]: Cell): string {
  return `row ${r + 1}, column ${c + 1}`;
}

/** Number of moves from `cell` to the goal along the maze (−1 if unreachable). */
function movesToGoal(inst: MazeInstance, cell: Cell): number {
  const size = inst.grid.length;
  const open = inst.grid.flatMap((row) => [...row].map((ch) => ch !== '#'));
  return shortestPaths(open, size, inst.goal[0] * size + inst.goal[1]).dist[cell[0] * size + cell[1]];
}

/** Why and where a walk that did not reach the goal failed. */
export function walkFailure(
  inst: MazeInstance,
  vocab: readonly string[],
  completion: readonly number[],
  path: DecodedPath,
): MazeFailure | null {
  const at = path.cells[path.cells.length - 1];
  // The token where the walk stopped: the failing move, or the end token.
  const c = path.stop;
  const token = completion[c];
  const text = token >= 0 && token < vocab.length ? vocab[token] : `<?${token}>`;
  if (path.broken === 'wall' || path.broken === 'offgrid') {
    const [dr, dc] = MOVE_DELTAS[moveOf(vocab, token)];
    const into: Cell = [at[0] + dr, at[1] + dc];
    const why =
      path.broken === 'wall'
        ? `walked into the wall at ${cellWords(into)}`
        : `walked off the grid from ${cellWords(at)} (move ${moveArrow(token, text)})`;
    return { kind: path.broken, at, into, c, why };
  }
  if (path.broken === 'overbudget') {
    const budget = inst.params.size * inst.params.size;
    return {
      kind: 'overbudget',
      at,
      into: null,
      c,
      why: `made move ${budget + 1}, past the ${budget}-move budget, at ${cellWords(at)}`,
    };
  }
  if (path.broken === 'badtoken')
    return { kind: 'badtoken', at, into: null, c, why: `wrote "${text}" where a move belongs, at ${cellWords(at)}` };
  if (at[0] === inst.goal[0] && at[1] === inst.goal[1]) return null;
  const left = movesToGoal(inst, at);
  const away = left > 0 ? `, ${left} move${left === 1 ? '' : 's'} from the goal` : '';
  const ended = c < completion.length && completion[c] === EOS;
  return {
    kind: 'stopped',
    at,
    into: null,
    c: ended ? c : null,
    why: ended ? `stopped at ${cellWords(at)}${away}` : `ran out of room at ${cellWords(at)}${away}`,
  };
}

/** Answer g's walk, decoded the way the verifier follows it, and how it ended. */
export function walkEnd(
  inst: MazeInstance,
  vocab: readonly string[],
  completion: readonly number[],
  g: number,
): WalkEnd {
  const path = decodeInstancePath(inst, vocab, completion);
  const failure = walkFailure(inst, vocab, completion, path);
  const steps = path.moves.length;
  const summary = failure
    ? failure.why
    : `reached the goal in ${steps} move${steps === 1 ? '' : 's'} (shortest ${inst.shortest})`;
  return { g, path, outcome: failure ? failure.kind : 'goal', failure, summary };
}

/** Where a failure's glyph goes: on the edge it tried to cross, or in the corner of the cell where it stopped. */
function failurePoint(f: MazeFailure): Pick<MazeMarker, 'x' | 'y' | 'stub'> {
  const cx = f.at[1] + 0.5;
  const cy = f.at[0] + 0.5;
  if (f.into) {
    const x = cx + 0.5 * (f.into[1] - f.at[1]);
    const y = cy + 0.5 * (f.into[0] - f.at[0]);
    return { x, y, stub: { x1: cx, y1: cy, x2: x, y2: y } };
  }
  // Off the centre, so that the S or G letter under it stays readable (a corner: spreadMarkers).
  return { x: cx + 0.27, y: cy + 0.27, stub: null };
}

function answersText(gs: readonly number[]): string {
  return `answer${gs.length === 1 ? '' : 's'} ${gs.map((g) => g + 1).join(', ')}`;
}

/** Groups the walks' ends into markers: one ✓ at the goal, one ✗ per failure point, each with its count. */
export function mazeMarkers(inst: MazeInstance, walks: readonly WalkEnd[]): MazeMarker[] {
  const markers = new Map<string, MazeMarker>();
  const reasons = new Map<string, string[]>();
  for (const w of walks) {
    const place = w.failure
      ? { kind: 'failure' as const, ...failurePoint(w.failure) }
      : { kind: 'goal' as const, x: inst.goal[1] + 0.78, y: inst.goal[0] + 0.22, stub: null };
    const key = `${place.kind}@${place.x.toFixed(2)},${place.y.toFixed(2)}`;
    const m = markers.get(key) ?? { ...place, kinds: [], count: 0, countAt: null, gs: [], title: '' };
    m.count++;
    m.gs.push(w.g);
    if (!m.kinds.includes(w.outcome)) m.kinds.push(w.outcome);
    markers.set(key, m);
    const why = reasons.get(key) ?? [];
    if (!why.includes(w.summary)) why.push(w.summary);
    reasons.set(key, why);
  }
  for (const [key, m] of markers) {
    const head = m.kind === 'goal' ? `${m.count} reached the goal` : `${m.count} failed here`;
    m.title = `${head} (${answersText(m.gs)}):\n${(reasons.get(key) ?? []).join('\n')}`;
  }
  const spread = spreadMarkers([...markers.values()]);
  const letters: [number, number][] = [
    [inst.start[1] + 0.5, inst.start[0] + 0.5],
    [inst.goal[1] + 0.5, inst.goal[0] + 0.5],
  ];
  return placeCounts(spread, letters);
}

/** How far a count's centre sits from its glyph's, in cells: the two side by side, not overlapping. */
const COUNT_GAP = 0.42;

/**
 * Where a marker's count may go. A mark on an edge (a wall, the grid's border) takes it along that
 * edge, so it reaches no further into the next cell than the mark does; a mark inside a cell (the
 * goal's ✓, a stop in a corner) takes it toward the cell's middle, so it stays inside the cell.
 */
function countCandidates(m: MazeMarker): [number, number][] {
  if (m.stub) {
    const across = m.stub.x2 !== m.stub.x1; // the walk moved left or right: the edge is vertical
    return across
      ? [
          [m.x, m.y + COUNT_GAP],
          [m.x, m.y - COUNT_GAP],
        ]
      : [
          [m.x + COUNT_GAP, m.y],
          [m.x - COUNT_GAP, m.y],
        ];
  }
  const inward = (v: number): number => (v - Math.floor(v) > 0.5 ? -COUNT_GAP : COUNT_GAP);
  return [
    [m.x + inward(m.x), m.y],
    [m.x, m.y + inward(m.y)],
  ];
}

/**
 * Places each count ("×3") on the candidate farthest from every glyph, the S and G letters and the
 * counts placed before it, so that counts neither leave their cell nor cover another mark.
 */
function placeCounts(markers: MazeMarker[], letters: readonly [number, number][]): MazeMarker[] {
  const taken: [number, number][] = [...letters, ...markers.map((m): [number, number] => [m.x, m.y])];
  for (const m of markers) {
    if (m.count < 2) continue;
    const [x, y] = farthestFrom(
      countCandidates(m),
      taken.filter(([tx, ty]) => tx !== m.x || ty !== m.y),
    );
    m.countAt = { x, y };
    taken.push([x, y]);
  }
  return markers;
}

/** Of `candidates`, the first of those farthest from their nearest point of `points` (any, if there are none). */
function farthestFrom(candidates: readonly [number, number][], points: readonly [number, number][]): [number, number] {
  let best = candidates[0];
  let bestGap = -Infinity;
  for (const c of candidates) {
    const gap = Math.min(Infinity, ...points.map(([x, y]) => Math.hypot(c[0] - x, c[1] - y)));
    if (gap > bestGap + 1e-9) {
      best = c;
      bestGap = gap;
    }
  }
  return best;
}

const CORNERS: [number, number][] = [
  [0.27, 0.27],
  [-0.27, 0.27],
  [0.27, -0.27],
  [-0.27, -0.27],
];

/**
 * A failure with no wall to point at (a stop, a bad token) sits in a corner of its cell: of the
 * four, the one farthest from the other marks, so that marks on one cell (often the start, where
 * many walks fail at once) do not pile up on each other.
 */
function spreadMarkers(markers: MazeMarker[]): MazeMarker[] {
  const placed = markers.filter((m) => m.stub !== null || m.kind === 'goal');
  const loose = markers.filter((m) => m.stub === null && m.kind !== 'goal');
  for (const m of loose) {
    const cx = Math.floor(m.x) + 0.5;
    const cy = Math.floor(m.y) + 0.5;
    const corners = CORNERS.map(([dx, dy]): [number, number] => [cx + dx, cy + dy]);
    [m.x, m.y] = farthestFrom(
      corners,
      placed.map((p): [number, number] => [p.x, p.y]),
    );
    placed.push(m);
  }
  return markers;
}
