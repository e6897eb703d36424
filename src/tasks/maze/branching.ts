// How a policy branches on a maze (BODHI's measurements), from G sampled walks per maze:
// the distinct correct walks (all, shortest, simple) and how evenly the samples spread over the
// shortest and the simple ones (Simpson), the same at a matched count of walks per maze, the
// share of the maze's shortest paths found, wall contact (at any point, and as the first
// failure), the entropy at branch points (cells where two or more moves stay on a shortest
// path) against elsewhere on a shortest path, and pass@k. docs/tasks.md says what each counts.

import { MOVE_DELTAS, MOVE_NAMES } from './gen';
import { boardOf, FIRST_MOVE, goalDistances, moveSlots, shortestMoves, type MazeInstance } from './board';
import { judge, pathText } from './judge';
import { walkBreak, type WalkBreakKind } from './breaks';

/** The default matched count: distinct walks among the first k of each maze (BODHI at matched samples). */
export const MATCHED_K = 4;

/** One sampled walk, read as the verifier reads it. */
export interface WalkFacts {
  /** The moves followed, as letters (U, D, L, R), up to where the walk stopped or broke. */
  moves: string;
  /** Ends on the goal, unbroken, within the move budget (the verifier's correct). */
  correct: boolean;
  /** Correct and as long as the maze's shortest path. */
  shortest: boolean;
  /** Correct and visits no cell twice, S included: no detour, no step past G and back (every shortest walk is simple). */
  simple: boolean;
  /** Wall or edge contact at any point: some move of the walk enters a wall or leaves the grid (the walk ends there), whatever went wrong before it. */
  wallContact: boolean;
  /** The first failure (breaks.ts); null for a shortest path. */
  firstFailure: WalkBreakKind | null;
}

/** What one walk (completion tokens) is: its moves, correct, shortest, simple, wall contact, first failure. */
export function walkFacts(instance: MazeInstance, completion: readonly number[]): WalkFacts {
  // As the verifier reads it (its correct, its signature, where it broke).
  const j = judge(instance, completion);
  const moves = pathText(j.walk);
  const size = instance.params.size;
  const seen = new Set<number>();
  let [r, c] = instance.start;
  seen.add(r * size + c);
  let repeats = false;
  for (const ch of moves) {
    const [dr, dc] = MOVE_DELTAS[(MOVE_NAMES as readonly string[]).indexOf(ch)];
    [r, c] = [r + dr, c + dc];
    if (seen.has(r * size + c)) repeats = true;
    seen.add(r * size + c);
  }
  const broken = j.walk.broken;
  return {
    moves,
    correct: j.correct,
    shortest: j.correct && moves.length === instance.shortest,
    simple: j.correct && !repeats,
    wallContact: broken === 'wall' || broken === 'offgrid',
    firstFailure: walkBreak(instance, completion).kind,
  };
}

/** Simpson diversity 1 − Σ p_i² of the walks' distribution (p_i: the share of walks that took path i); NaN for none. */
export function simpson(paths: readonly string[]): number {
  if (paths.length === 0) return NaN;
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(p, (counts.get(p) ?? 0) + 1);
  let sum = 0;
  for (const n of counts.values()) sum += (n / paths.length) ** 2;
  return 1 - sum;
}

/** Distinct paths and Simpson diversity among the first k walks of a kind; null when the maze has fewer than k. */
export interface MatchedDiversity {
  distinct: number;
  simpson: number;
}

export interface MazeBranching {
  /** Walks sampled (G). */
  walks: number;
  /** Walks that end on the goal (the verifier's correct). */
  correct: number;
  /** Distinct move strings among the correct walks. */
  distinctCorrect: number;
  /** Correct walks that are shortest paths, and the distinct ones among them. */
  shortestCorrect: number;
  distinctShortest: number;
  /** Correct walks that visit no cell twice, and the distinct ones among them. */
  simpleCorrect: number;
  distinctSimple: number;
  /** Simpson diversity over the shortest (simple) correct walks; NaN when there are none. */
  simpsonShortest: number;
  simpsonSimple: number;
  /** The matched count k, and the diversity among the first k correct / shortest / simple walks (sample order); null: fewer than k. */
  k: number;
  matchedCorrect: MatchedDiversity | null;
  matchedShortest: MatchedDiversity | null;
  matchedSimple: MatchedDiversity | null;
  /** Distinct shortest paths found ÷ the maze's shortest paths. */
  shortestFound: number;
  /** Walks with wall or edge contact at any point ÷ walks. */
  wallContact: number;
  /** Walks whose first failure (breaks.ts) is a wall or the edge ÷ walks: a wrong turn before the wall counts as a wrong turn. */
  firstFailureWall: number;
  /** Summed per-token entropy (nats) and count at branch points and at other cells, on a shortest path. */
  branchEntropy: number;
  branchTokens: number;
  otherEntropy: number;
  otherTokens: number;
}

const matched = (paths: readonly string[], k: number): MatchedDiversity | null =>
  paths.length < k ? null : { distinct: new Set(paths.slice(0, k)).size, simpson: simpson(paths.slice(0, k)) };

/**
 * One maze's numbers from its walks (completion tokens, in sample order) and each walk's
 * per-position entropy of the policy (nats; entropies[g][c] at completion position c); k: the
 * matched count. Total over any tokens.
 */
export function mazeBranching(
  instance: MazeInstance,
  walks: readonly (readonly number[])[],
  entropies: readonly ArrayLike<number>[],
  k = MATCHED_K,
): MazeBranching {
  const board = boardOf(instance);
  const toGoal = goalDistances(board);
  const correct: string[] = [];
  const shortest: string[] = [];
  const simple: string[] = [];
  let wallContact = 0;
  let firstFailureWall = 0;
  const entropy = { branchEntropy: 0, branchTokens: 0, otherEntropy: 0, otherTokens: 0 };
  walks.forEach((walk, g) => {
    const f = walkFacts(instance, walk);
    if (f.correct) correct.push(f.moves);
    if (f.shortest) shortest.push(f.moves);
    if (f.simple) simple.push(f.moves);
    if (f.wallContact) wallContact++;
    if (f.firstFailure === 'wall' || f.firstFailure === 'edge') firstFailureWall++;
    const b = walkBreak(instance, walk);
    const slots = moveSlots(instance, walk);
    const moves = slots.moves;
    // Positions the walk reaches on a shortest path, before the goal: the choice there is a branch or not.
    // Move slot i is at completion position at[i]; the slot after the last move holds the end token.
    const at = [...slots.at, slots.end];
    const onPath = b.kind === null ? moves.length : at.indexOf(b.at) + 1;
    let cell = board.start;
    for (let i = 0; i < Math.min(onPath, moves.length + 1) && cell !== board.goal; i++) {
      const h = Number(entropies[g]?.[at[i]]);
      if (Number.isFinite(h)) {
        if (shortestMoves(board, toGoal, cell).length >= 2) {
          entropy.branchEntropy += h;
          entropy.branchTokens++;
        } else {
          entropy.otherEntropy += h;
          entropy.otherTokens++;
        }
      }
      const m = moves[i] - FIRST_MOVE;
      if (!(m >= 0 && m < 4)) break;
      cell += MOVE_DELTAS[m][0] * board.size + MOVE_DELTAS[m][1];
    }
  });
  const n = Math.max(1, walks.length);
  return {
    walks: walks.length,
    correct: correct.length,
    distinctCorrect: new Set(correct).size,
    shortestCorrect: shortest.length,
    distinctShortest: new Set(shortest).size,
    simpleCorrect: simple.length,
    distinctSimple: new Set(simple).size,
    simpsonShortest: simpson(shortest),
    simpsonSimple: simpson(simple),
    k,
    matchedCorrect: matched(correct, k),
    matchedShortest: matched(shortest, k),
    matchedSimple: matched(simple, k),
    shortestFound: new Set(shortest).size / Math.max(1, instance.shortestPaths),
    wallContact: wallContact / n,
    firstFailureWall: firstFailureWall / n,
    ...entropy,
  };
}

/** One distinct correct walk of a maze and how many of the sampled walks took it. */
export interface CorrectWalk {
  /** The moves as letters (U, D, L, R), e.g. "RRDD". */
  moves: string;
  /** Sampled walks that took exactly these moves. */
  count: number;
  /** A shortest path (no detour, no step past G and back). */
  shortest: boolean;
  /** Visits no cell twice (every shortest path is simple; absent in files written before it was kept). */
  simple?: boolean;
}

/** The distinct correct walks among a maze's sampled walks, the most taken first (ties: by moves). */
export function correctWalks(instance: MazeInstance, walks: readonly (readonly number[])[]): CorrectWalk[] {
  const byMoves = new Map<string, CorrectWalk>();
  for (const walk of walks) {
    const f = walkFacts(instance, walk);
    if (!f.correct) continue;
    const seen = byMoves.get(f.moves);
    if (seen) seen.count++;
    else byMoves.set(f.moves, { moves: f.moves, count: 1, shortest: f.shortest, simple: f.simple });
  }
  return [...byMoves.values()].sort(
    (a, b) => b.count - a.count || (a.moves < b.moves ? -1 : a.moves > b.moves ? 1 : 0),
  );
}

/** Unbiased pass@k from c correct of n samples: 1 − C(n−c, k) / C(n, k) (Chen et al. 2021). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n || n === 0) return NaN;
  if (n - c < k) return 1;
  let miss = 1;
  for (let i = n - c + 1; i <= n; i++) miss *= 1 - k / i;
  return 1 - miss;
}

/** A matched-count mean: over the mazes with at least k walks of the kind; the others left out and counted. */
export interface MatchedMean {
  /** Mazes in the mean, and mazes left out (fewer than k walks of the kind). */
  mazes: number;
  excluded: number;
  /** Mean distinct paths and mean Simpson diversity among the first k (NaN: no maze had k). */
  distinct: number;
  simpson: number;
}

export interface BranchingSummary {
  mazes: number;
  walksPerMaze: number;
  /** passAtK[k − 1]: mean pass@k over the mazes, k = 1 … walksPerMaze. */
  passAtK: number[];
  /** Means over the mazes of the distinct correct, shortest and simple walks. */
  distinctCorrect: number;
  distinctShortest: number;
  distinctSimple: number;
  /** Mean Simpson diversity of the shortest (simple) walks over the mazes with at least one, and how many those are. */
  simpsonShortest: number;
  simpsonShortestMazes: number;
  simpsonSimple: number;
  simpsonSimpleMazes: number;
  /** The same at a matched count: among the first k correct / shortest / simple walks of each maze. */
  k: number;
  matchedCorrect: MatchedMean;
  matchedShortest: MatchedMean;
  matchedSimple: MatchedMean;
  shortestFound: number;
  /** Mean share of walks with wall or edge contact at any point. */
  wallContact: number;
  /** Mean share of walks whose first failure is a wall or the edge. */
  firstFailureWall: number;
  /** Mean entropy per token at branch points and elsewhere on a shortest path (NaN: none seen). */
  branchEntropy: number;
  otherEntropy: number;
}

/** Means over mazes (the entropies pooled over tokens). */
export function summarizeBranching(
  perMaze: readonly MazeBranching[],
  k = perMaze[0]?.k ?? MATCHED_K,
): BranchingSummary {
  const M = perMaze.length;
  const G = M > 0 ? Math.min(...perMaze.map((m) => m.walks)) : 0;
  const meanOf = (xs: readonly number[]): number => (xs.length > 0 ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
  const mean = (f: (m: MazeBranching) => number): number => (M > 0 ? meanOf(perMaze.map(f)) : 0);
  const pooled = (sum: (m: MazeBranching) => number, count: (m: MazeBranching) => number): number => {
    const n = perMaze.reduce((a, m) => a + count(m), 0);
    return n > 0 ? perMaze.reduce((a, m) => a + sum(m), 0) / n : NaN;
  };
  const defined = (f: (m: MazeBranching) => number): number[] => perMaze.map(f).filter((x) => !Number.isNaN(x));
  const matchedMean = (f: (m: MazeBranching) => MatchedDiversity | null): MatchedMean => {
    const kept = perMaze.map(f).filter((x): x is MatchedDiversity => x !== null);
    return {
      mazes: kept.length,
      excluded: M - kept.length,
      distinct: meanOf(kept.map((x) => x.distinct)),
      simpson: meanOf(kept.map((x) => x.simpson)),
    };
  };
  return {
    mazes: M,
    walksPerMaze: G,
    passAtK: Array.from({ length: G }, (_, i) => mean((m) => passAtK(m.walks, m.correct, i + 1))),
    distinctCorrect: mean((m) => m.distinctCorrect),
    distinctShortest: mean((m) => m.distinctShortest),
    distinctSimple: mean((m) => m.distinctSimple),
    simpsonShortest: meanOf(defined((m) => m.simpsonShortest)),
    simpsonShortestMazes: defined((m) => m.simpsonShortest).length,
    simpsonSimple: meanOf(defined((m) => m.simpsonSimple)),
    simpsonSimpleMazes: defined((m) => m.simpsonSimple).length,
    k,
    matchedCorrect: matchedMean((m) => m.matchedCorrect),
    matchedShortest: matchedMean((m) => m.matchedShortest),
    matchedSimple: matchedMean((m) => m.matchedSimple),
    shortestFound: mean((m) => m.shortestFound),
    wallContact: mean((m) => m.wallContact),
    firstFailureWall: mean((m) => m.firstFailureWall),
    branchEntropy: pooled(
      (m) => m.branchEntropy,
      (m) => m.branchTokens,
    ),
    otherEntropy: pooled(
      (m) => m.otherEntropy,
      (m) => m.otherTokens,
    ),
  };
}

/** Nats, or why there is no number (a maze one move long has no branch point). */
const nats = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(3)} nats` : 'none on these mazes');
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');
const matchedText = (name: string, m: MatchedMean, simpsonToo: boolean): string =>
  `${name} ${f2(m.distinct)}${simpsonToo ? `, Simpson ${f2(m.simpson)}` : ''} (${m.mazes} mazes${m.excluded > 0 ? `; ${m.excluded} with fewer left out` : ''})`;

/** The summary as lines of text. */
export function branchingLines(s: BranchingSummary): string[] {
  const ks = [1, 2, 4, 8, 16, 32, 64].filter((k) => k <= s.walksPerMaze);
  return [
    `branching over ${s.walksPerMaze} sampled walks per maze (${s.mazes} mazes):`,
    `  pass@k: ${ks.map((k) => `${k}: ${s.passAtK[k - 1].toFixed(3)}`).join('  ')}`,
    `  distinct correct walks per maze ${s.distinctCorrect.toFixed(2)}: shortest ${s.distinctShortest.toFixed(2)} (shortest paths found ${(100 * s.shortestFound).toFixed(1)}%), simple ${s.distinctSimple.toFixed(2)}`,
    `  Simpson diversity (1 − Σp²) per maze: shortest walks ${f2(s.simpsonShortest)} (${s.simpsonShortestMazes} mazes with one), simple walks ${f2(s.simpsonSimple)} (${s.simpsonSimpleMazes} mazes)`,
    `  at a matched count, the first ${s.k} of each maze: ${matchedText('distinct correct', s.matchedCorrect, false)}; ${matchedText('shortest', s.matchedShortest, true)}; ${matchedText('simple', s.matchedSimple, true)}`,
    `  wall or edge contact at any point ${(100 * s.wallContact).toFixed(1)}% of walks; as the first failure ${(100 * s.firstFailureWall).toFixed(1)}%`,
    `  entropy on a shortest path: at branch points ${nats(s.branchEntropy)}, elsewhere ${nats(s.otherEntropy)}`,
  ];
}
