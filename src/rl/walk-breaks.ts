// Maze walks on an engine; the reports themselves are the maze task's (src/tasks/maze/breaks.ts,
// src/tasks/maze/branching.ts). greedyWalkBreaks: one greedy decode, then the policy's
// probability of every move and of the end token at every position (five teacher-forced passes
// over those walks). greedyWalks: the greedy walks alone. sampledWalks: G walks sampled per
// maze, their numbers, distinct correct walks and raw tokens.

import type { PolicyEngine } from './engine';
import { buildTemplate, rolloutShape } from './rollout';
import { FIRST_MOVE, type MazeInstance } from '../tasks/maze';
import { walkBreakReport, type WalkBreakReport } from '../tasks/maze';
import {
  correctWalks,
  MATCHED_K,
  mazeBranching,
  summarizeBranching,
  type BranchingSummary,
  type CorrectWalk,
  type MazeBranching,
} from '../tasks/maze';
import { EOS } from '../tasks/types';

/** One greedy walk per maze: tokens [N,T] with the completion of maze n at n·T + Lp. */
async function greedyDecode(engine: PolicyEngine, instances: readonly MazeInstance[], seed: number) {
  const shape = rolloutShape(instances, 1);
  const greedy = await engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
    seed: seed >>> 0,
    step: 0,
    invTemp: 1,
    topK: 1,
  });
  return { shape, tokens: greedy.tokens };
}

/** Each maze's greedy walk as completion tokens (the whole completion region). */
export async function greedyWalks(
  engine: PolicyEngine,
  instances: readonly MazeInstance[],
  seed: number,
): Promise<number[][]> {
  const { shape, tokens } = await greedyDecode(engine, instances, seed);
  return instances.map((_, n) =>
    Array.from(tokens.subarray(n * shape.T + shape.Lp, n * shape.T + shape.Lp + shape.Lc)),
  );
}

export async function greedyWalkBreaks(
  engine: PolicyEngine,
  instances: readonly MazeInstance[],
  seed: number,
): Promise<WalkBreakReport> {
  const { shape, tokens } = await greedyDecode(engine, instances, seed);
  const { N, T, Lp } = shape;
  // logp[token] [N·T]: row r scores `token` as the token at r + 1.
  const logp = new Map<number, Float32Array>();
  for (const token of [FIRST_MOVE, FIRST_MOVE + 1, FIRST_MOVE + 2, FIRST_MOVE + 3, EOS]) {
    logp.set(token, await engine.logProbs(tokens, new Int32Array(N * T).fill(token), N, T));
  }
  const rightProb = (n: number, at: number, right: readonly number[]): number => {
    const row = n * T + Lp + at - 1;
    return right.reduce((p, token) => p + Math.exp(logp.get(token)![row]), 0);
  };
  return walkBreakReport(instances, tokens, T, Lp, rightProb);
}

/** The sampled walks of each maze: BODHI's numbers, and the distinct correct walks to draw. */
export interface SampledWalks {
  summary: BranchingSummary;
  /** Each maze's numbers (the summary's means are over these). */
  perMaze: MazeBranching[];
  /** walks[b]: maze b's distinct correct walks, the most taken first. */
  walks: CorrectWalk[][];
  /** raw[b][g]: walk g of maze b, its whole completion region, in sample order. */
  raw: number[][][];
}

/**
 * G walks sampled per maze at temperature 1 (the policy as it explores), summarised as BODHI's
 * branching numbers and pass@1…G (src/tasks/maze/branching.ts; k: the matched count), with each
 * maze's distinct correct walks and its raw walks.
 */
export async function sampledWalks(
  engine: PolicyEngine,
  instances: readonly MazeInstance[],
  G: number,
  seed: number,
  k = MATCHED_K,
): Promise<SampledWalks> {
  const shape = rolloutShape(instances, G);
  const { N, T, Lp, Lc } = shape;
  const s = await engine.sample(buildTemplate(instances, shape), N, T, {
    seed: seed >>> 0,
    step: 1,
    invTemp: 1,
    topK: 0,
  });
  const perMaze = instances.map((inst, b) => {
    const rows = Array.from({ length: G }, (_, g) => (b * G + g) * T + Lp);
    const walks = rows.map((r) => Array.from(s.tokens.subarray(r, r + Lc)));
    // The sampler's entropy at row r is that of the token it drew at r: completion position c is row Lp + c.
    return {
      numbers: mazeBranching(
        inst,
        walks,
        rows.map((r) => s.entropy.subarray(r, r + Lc)),
        k,
      ),
      walks: correctWalks(inst, walks),
      raw: walks,
    };
  });
  const numbers = perMaze.map((m) => m.numbers);
  return {
    summary: summarizeBranching(numbers, k),
    perMaze: numbers,
    walks: perMaze.map((m) => m.walks),
    raw: perMaze.map((m) => m.raw),
  };
}

/** sampledWalks' numbers alone. */
export async function sampledBranching(
  engine: PolicyEngine,
  instances: readonly MazeInstance[],
  G: number,
  seed: number,
  k = MATCHED_K,
): Promise<BranchingSummary> {
  return (await sampledWalks(engine, instances, G, seed, k)).summary;
}
