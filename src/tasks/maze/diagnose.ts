// The maze's diagnoses, asked of a model through a probe (src/rl/diagnose.ts gives an engine's):
// where greedy walks first go wrong (one greedy decode, then the policy's probability of every
// move and of the end token at every position: five teacher-forced passes over those walks), and
// how G sampled walks per maze branch (BODHI's numbers), with the file `--walks-out` keeps them in.

import {
  EOS,
  type BranchingRun,
  type PolicyProbe,
  type ProbeSample,
  type TaskBranching,
  type TaskBreaks,
} from '../types';
import { FIRST_MOVE, type MazeInstance } from './board';
import {
  branchingLines,
  correctWalks,
  MATCHED_K,
  mazeBranching,
  summarizeBranching,
  type BranchingSummary,
  type CorrectWalk,
  type MazeBranching,
} from './branching';
import { walkBreakLines, walkBreakReport, type WalkBreakReport } from './breaks';
import { handLines, handReport } from './hands';
import {
  mazesMismatch,
  parseRecordedWalks,
  rawWalk,
  recordedMaze,
  recordedModel,
  withRecordedModel,
  type RecordedWalks,
} from './recorded-walks';

/** The completion region of sequence n of [N·T] tokens. */
const completionRow = (tokens: Int32Array, n: number, T: number, Lp: number, Lc: number): number[] =>
  Array.from(tokens.subarray(n * T + Lp, n * T + Lp + Lc));

/** Each maze's greedy walk as completion tokens (the whole completion region). */
export async function greedyWalks(probe: PolicyProbe, instances: readonly MazeInstance[]): Promise<number[][]> {
  const { shape, tokens } = await probe.greedy(instances);
  return instances.map((_, n) => completionRow(tokens, n, shape.T, shape.Lp, shape.Lc));
}

/** Where each maze's greedy walk first goes wrong, with the policy's probability of a right move there. */
export async function greedyWalkBreaks(
  probe: PolicyProbe,
  instances: readonly MazeInstance[],
  greedy?: ProbeSample,
): Promise<WalkBreakReport> {
  const { shape, tokens } = greedy ?? (await probe.greedy(instances));
  const { N, T, Lp } = shape;
  // logp[token] [N·T]: row r scores `token` as the token at r + 1.
  const logp = new Map<number, Float32Array>();
  for (const token of [FIRST_MOVE, FIRST_MOVE + 1, FIRST_MOVE + 2, FIRST_MOVE + 3, EOS]) {
    logp.set(token, await probe.logProbs(tokens, new Int32Array(N * T).fill(token), N, T));
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
 * branching numbers and pass@1…G (branching.ts; k: the matched count), with each maze's distinct
 * correct walks and its raw walks.
 */
export async function sampledWalks(
  probe: PolicyProbe,
  instances: readonly MazeInstance[],
  G: number,
  k = MATCHED_K,
): Promise<SampledWalks> {
  const s = await probe.sample(instances, G);
  const { T, Lp, Lc } = s.shape;
  const perMaze = instances.map((inst, b) => {
    const rows = Array.from({ length: G }, (_, g) => (b * G + g) * T + Lp);
    const walks = rows.map((r) => Array.from(s.tokens.subarray(r, r + Lc)));
    // The sampler's entropy at row r is that of the token it drew at r: completion position c is row Lp + c.
    const entropies = rows.map((r) => s.entropy.subarray(r, r + Lc));
    return { numbers: mazeBranching(inst, walks, entropies, k), walks: correctWalks(inst, walks), raw: walks };
  });
  const numbers = perMaze.map((m) => m.numbers);
  return {
    summary: summarizeBranching(numbers, k),
    perMaze: numbers,
    walks: perMaze.map((m) => m.walks),
    raw: perMaze.map((m) => m.raw),
  };
}

/** The maze's Task.breaks: where greedy walks first go wrong, and which hand on the wall they keep (walkBreaks in --json, its hands). */
export const mazeBreaks: TaskBreaks<MazeInstance> = {
  what: 'walks',
  async report(probe, instances) {
    // One greedy decode for both reports.
    const greedy = await probe.greedy(instances);
    const report = await greedyWalkBreaks(probe, instances, greedy);
    const { shape, tokens } = greedy;
    const hands = handReport(
      instances,
      instances.map((_, n) => completionRow(tokens, n, shape.T, shape.Lp, shape.Lc)),
    );
    return {
      field: 'walkBreaks',
      value: { ...report, hands },
      lines: [...walkBreakLines(report), ...handLines(hands)],
    };
  },
};

/** The maze's Task.branching: BODHI's numbers (branching and perMaze in --json), kept in a walks file on request. */
export const mazeBranchingReport: TaskBranching<MazeInstance> = {
  what: 'walks',
  matchedK: MATCHED_K,
  async measure(probe, instances, G, k): Promise<BranchingRun> {
    const sampled = await sampledWalks(probe, instances, G, k);
    return {
      json: { branching: sampled.summary, perMaze: sampled.perMaze },
      lines: branchingLines(sampled.summary),
      measured: sampled,
    };
  },
  record: {
    parse: parseRecordedWalks,
    mismatch: (file, instances) => mazesMismatch(file as RecordedWalks, instances.map(recordedMaze)),
    async add(file, probe, instances, run, model) {
      const sampled = run.measured as SampledWalks;
      // The raw walks, so that the file's figures can be recomputed from it (docs/tasks.md).
      const greedy = await greedyWalks(probe, instances);
      const raw = {
        perMaze: sampled.perMaze,
        sampled: sampled.raw.map((ws) => ws.map((w) => rawWalk(w, EOS))),
        greedy: greedy.map((w) => rawWalk(w, EOS)),
      };
      const recorded = recordedModel(
        model.label,
        model.checkpoint,
        model.trainedSteps,
        sampled.summary,
        sampled.walks,
        raw,
      );
      const first = instances[0];
      const reading = {
        vocab: [...model.vocab],
        params: { ...first.params },
        completionLength: first.completionLength,
      };
      return withRecordedModel(
        file as RecordedWalks | null,
        model.command,
        instances.map(recordedMaze),
        recorded,
        reading,
      );
    },
  },
};
