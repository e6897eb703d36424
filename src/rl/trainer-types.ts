// What a trainer takes and gives: how it starts (TrainerOptions, RunPosition), what run() and a
// step's phases yield, the rollout snapshot the page inspects, and the fault that stops a run.

import type { ParamLayout } from '../model/layout';
import type { TaskInstance } from '../tasks/types';
import type { AdvantageResult } from './estimators';
import type { ConsensusReward } from './consensus';
import type { CodeLocation } from './custom/custom-code-errors';
import type { SandboxFactory } from './custom/sandbox';
import type { Phase, StepRecord } from './step-metrics';
import type { CompletionFacts, RolloutShape, VerifiedBatch } from './rollout';
import type { FaultCheck, GuardLimits } from './divergence';
import type { ResumePoint } from './trainer-state';

/**
 * A fault the run cannot continue through: the weights (and optimiser state) from before the
 * step are kept. `check` says which check fired (src/rl/divergence.ts); `step` is 0 during the
 * SFT warm start.
 */
export class TrainingFault extends Error {
  constructor(
    readonly step: number,
    readonly tensors: string[],
    message: string,
    readonly check: FaultCheck | 'custom-code' = 'non-finite',
    /** For a fault of the run's own code: which code, and the line to mark. */
    readonly code?: CodeLocation,
  ) {
    super(message);
    this.name = 'TrainingFault';
  }
}

/** Where a run stands when its checkpoint carries no trainer state: the page's checkpoints (weights and run config). */
export interface RunPosition {
  /** RL steps the weights have been trained for. */
  step: number;
  level: number;
}

/** How a trainer starts: fresh from the config's seed, or from given weights, continuing a run. */
export interface TrainerOptions {
  /** Weights to start from (a checkpoint) instead of the config's seeded init. */
  initial?: { layout: ParamLayout; params: Float32Array };
  /**
   * The run `initial` belongs to: a resume point (AdamW's moments, the KL reference, counters and
   * random streams: src/rl/trainer-state.ts), and the run goes on exactly as if it had not
   * stopped; or only its position, and the run goes on from that step and level with a fresh
   * optimiser. Weights given without a resume point, or with a position, are past the warm start.
   */
  resume?: ResumePoint | RunPosition;
  /** The divergence guard's limits; false turns it off (NaN/Inf faults are always caught). */
  guard?: Partial<GuardLimits> | false;
  /** Where the config's own code runs (src/rl/custom); needed only when it has some. */
  sandbox?: SandboxFactory;
}

/** What the warm start did (the line rlvr train writes to metrics.jsonl before step 1's). */
export interface WarmStartSummary {
  /** Steps run now. */
  steps: number;
  /** Steps done in all (a resumed warm start counts the earlier ones). */
  done: number;
  of: number;
  firstLoss: number | undefined;
  lastLoss: number | undefined;
}

/** What run() yields: the warm start once (when it ran), then every step's record. */
export type RunEvent = { warmStart: WarmStartSummary } | { record: StepRecord };

/** What run({ phases: true }) yields: the warm start, then every step's phases and record (the worker). */
export type PhasedRunEvent = RunEvent | StepPhase;

/** What the UI's rollout inspector shows of the latest step. */
export interface RolloutSnapshot {
  shape: RolloutShape;
  instances: TaskInstance[];
  /** [N,T] */
  tokens: Int32Array;
  /** [N·Lc] completion-space facts */
  facts: CompletionFacts;
  verified: VerifiedBatch;
  advantages?: AdvantageResult;
  /** With rewardSource = consensus: the label-free rewards the estimator saw, and each group's agreement. */
  consensus?: ConsensusReward;
  /** [N·Lc] importance ratio π_new/π_old of each trained token after the update (1 where untrained); with collectRatios */
  ratio?: Float32Array;
  vocab: string[];
}

export interface StepPhase {
  phase: Phase;
  /** The partial snapshot after this phase (for phase-stepping views). */
  snapshot: RolloutSnapshot;
}

/** " (label a, b, c, d, …)" naming up to four tensors, or nothing. */
export function namedTensors(tensors: string[], label: string): string {
  return tensors.length ? ` (${label} ${tensors.slice(0, 4).join(', ')}${tensors.length > 4 ? ', …' : ''})` : '';
}
