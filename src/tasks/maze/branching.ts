// How a policy branches on a maze (BODHI's measurements), from G sampled walks per maze:
// the distinct correct paths, the share of the maze's shortest paths found, the entropy at
// branch points (cells where two or more moves stay on a shortest path) against elsewhere on
// a shortest path, the share of walks that hit a wall or leave the grid, and pass@k.

import { MOVE_DELTAS, MOVE_NAMES } from './gen';
import { boardOf, FIRST_MOVE, goalDistances, moveSlots, shortestMoves, type MazeInstance } from './task';
import { walkBreak } from './breaks';

export interface MazeBranching {
  /** Walks sampled (G). */
  walks: number;
  /** Walks that end on the goal. */
  correct: number;
  /** Distinct move strings among the correct walks. */
  distinctCorrect: number;
  /** Distinct shortest paths found ÷ the maze's shortest paths. */
  shortestFound: number;
  /** Walks that entered a wall or left the grid ÷ walks. */
  wallOrEdge: number;
  /** Summed per-token entropy (nats) and count at branch points and at other cells, on a shortest path. */
  branchEntropy: number;
  branchTokens: number;
  otherEntropy: number;
  otherTokens: number;
}

/**
 * One maze's numbers from its walks (completion tokens) and each walk's per-position entropy of
 * the policy (nats; entropies[g][c] at completion position c). Total over any tokens.
 */
export function mazeBranching(instance: MazeInstance, walks: readonly (readonly number[])[], entropies: readonly (ArrayLike<number>)[]): MazeBranching {
  const board = boardOf(instance);
  const toGoal = goalDistances(board);
  const out: MazeBranching = { walks: walks.length, correct: 0, distinctCorrect: 0, shortestFound: 0, wallOrEdge: 0, branchEntropy: 0, branchTokens: 0, otherEntropy: 0, otherTokens: 0 };
  const correctPaths = new Set<string>();
  const shortestPaths = new Set<string>();
  walks.forEach((walk, g) => {
    const b = walkBreak(instance, walk);
    const slots = moveSlots(instance, walk);
    const moves = slots.moves;
    const path = moves.join(',');
    if (b.correct) {
      out.correct++;
      correctPaths.add(path);
      if (b.kind === null) shortestPaths.add(path);
    }
    if (b.kind === 'wall' || b.kind === 'edge') out.wallOrEdge++;
    // Positions the walk reaches on a shortest path, before the goal: the choice there is a branch or not.
    // Move slot i is at completion position at[i]; the slot after the last move holds the end token.
    const at = [...slots.at, slots.end];
    const onPath = b.kind === null ? moves.length : at.indexOf(b.at) + 1;
    let cell = board.start;
    for (let i = 0; i < Math.min(onPath, moves.length + 1) && cell !== board.goal; i++) {
      const h = Number(entropies[g]?.[at[i]]);
      if (Number.isFinite(h)) {
        if (shortestMoves(board, toGoal, cell).length >= 2) {
          out.branchEntropy += h;
          out.branchTokens++;
        } else {
          out.otherEntropy += h;
          out.otherTokens++;
        }
      }
      const m = moves[i] - FIRST_MOVE;
      if (!(m >= 0 && m < 4)) break;
      cell += MOVE_DELTAS[m][0] * board.size + MOVE_DELTAS[m][1];
    }
  });
  out.distinctCorrect = correctPaths.size;
  out.shortestFound = shortestPaths.size / Math.max(1, instance.shortestPaths);
  out.wallOrEdge /= Math.max(1, walks.length);
  return out;
}

/** One distinct correct walk of a maze and how many of the sampled walks took it. */
export interface CorrectWalk {
  /** The moves as letters (U, D, L, R), e.g. "RRDD". */
  moves: string;
  /** Sampled walks that took exactly these moves. */
  count: number;
  /** A shortest path (no detour, no step past G and back). */
  shortest: boolean;
}

/** The distinct correct walks among a maze's sampled walks, the most taken first (ties: by moves). */
export function correctWalks(instance: MazeInstance, walks: readonly (readonly number[])[]): CorrectWalk[] {
  const byMoves = new Map<string, CorrectWalk>();
  for (const walk of walks) {
    const b = walkBreak(instance, walk);
    if (!b.correct) continue;
    const moves = moveSlots(instance, walk).moves.map((t) => MOVE_NAMES[t - FIRST_MOVE]).join('');
    const seen = byMoves.get(moves);
    if (seen) seen.count++;
    else byMoves.set(moves, { moves, count: 1, shortest: b.kind === null });
  }
  return [...byMoves.values()].sort((a, b) => b.count - a.count || (a.moves < b.moves ? -1 : a.moves > b.moves ? 1 : 0));
}

/** Unbiased pass@k from c correct of n samples: 1 − C(n−c, k) / C(n, k) (Chen et al. 2021). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n || n === 0) return NaN;
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

export interface BranchingSummary {
  mazes: number;
  walksPerMaze: number;
  /** passAtK[k − 1]: mean pass@k over the mazes, k = 1 … walksPerMaze. */
  passAtK: number[];
  distinctCorrect: number;
  shortestFound: number;
  wallOrEdge: number;
  /** Mean entropy per token at branch points and elsewhere on a shortest path (NaN: none seen). */
  branchEntropy: number;
  otherEntropy: number;
}

/** Means over mazes (the entropies pooled over tokens). */
export function summarizeBranching(perMaze: readonly MazeBranching[]): BranchingSummary {
  const M = perMaze.length;
  const G = M > 0 ? Math.min(...perMaze.map((m) => m.walks)) : 0;
  const mean = (f: (m: MazeBranching) => number): number => perMaze.reduce((a, m) => a + f(m), 0) / Math.max(1, M);
  const pooled = (sum: (m: MazeBranching) => number, count: (m: MazeBranching) => number): number => {
    const n = perMaze.reduce((a, m) => a + count(m), 0);
    return n > 0 ? perMaze.reduce((a, m) => a + sum(m), 0) / n : NaN;
  };
  return {
    mazes: M,
    walksPerMaze: G,
    passAtK: Array.from({ length: G }, (_, i) => mean((m) => passAtK(m.walks, m.correct, i + 1))),
    distinctCorrect: mean((m) => m.distinctCorrect),
    shortestFound: mean((m) => m.shortestFound),
    wallOrEdge: mean((m) => m.wallOrEdge),
    branchEntropy: pooled((m) => m.branchEntropy, (m) => m.branchTokens),
    otherEntropy: pooled((m) => m.otherEntropy, (m) => m.otherTokens),
  };
}

/** Nats, or why there is no number (a maze one move long has no branch point). */
const nats = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(3)} nats` : 'none on these mazes');

/** The summary as lines of text. */
export function branchingLines(s: BranchingSummary): string[] {
  const ks = [1, 2, 4, 8, 16, 32, 64].filter((k) => k <= s.walksPerMaze);
  return [
    `branching over ${s.walksPerMaze} sampled walks per maze (${s.mazes} mazes):`,
    `  pass@k: ${ks.map((k) => `${k}: ${s.passAtK[k - 1].toFixed(3)}`).join('  ')}`,
    `  distinct correct paths per maze ${s.distinctCorrect.toFixed(2)}; shortest paths found ${(100 * s.shortestFound).toFixed(1)}%; walks into a wall or off the grid ${(100 * s.wallOrEdge).toFixed(1)}%`,
    `  entropy on a shortest path: at branch points ${nats(s.branchEntropy)}, elsewhere ${nats(s.otherEntropy)}`,
  ];
}
