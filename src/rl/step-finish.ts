// The end of an RL step (trainer.ts, Trainer.stepPhases): phase 4, the update on the engine
// (rolled back when faulty), and the scalars of the step's record.

import type { GpuCallCounts } from '../core/call-counts';
import type { RunCode } from './custom/custom-code';
import type { MinibatchData, PolicyEngine, TrainResult } from './engine';
import type { RolloutBatch } from './estimators';
import { aggregateTaskMetrics, passMetrics, prefixKeys, stepMetrics, type StepMetrics } from './step-metrics';
import { rollBackFaulty, type RollbackContext } from './rollback';
import { gpuCallScalars, now, type StepTimes } from './step-times';
import { buildPasses, completionRatios, rlLearningRateKnob, type PassContext } from './step-update';
import type { RolloutSnapshot } from './trainer-types';

/** What the update needs of the trainer: the passes' context, the engine and the rollback. */
export interface UpdateContext extends PassContext {
  engine: PolicyEngine;
  rollback: RollbackContext;
}

/** What the update hands to the step's record: the engine's result and the rows it trained on. */
export interface StepUpdate {
  result: TrainResult;
  rows: MinibatchData;
  klOn: boolean;
}

/** Phase 4: the step's passes on the engine (its state saved first), a faulty update rolled back. */
export async function updatePolicy(
  ctx: UpdateContext,
  snapshot: RolloutSnapshot,
  trainAdv: Float32Array,
  times: StepTimes,
): Promise<StepUpdate> {
  const { config: c, step } = ctx;
  const { shape } = snapshot;
  const started = now();
  const { passes, rows, N, klOn } = buildPasses(ctx, snapshot, trainAdv);
  await ctx.engine.checkpointState();
  const result = await ctx.engine.train(passes, N, shape.T);
  times.ms.update += now() - started;
  await rollBackFaulty(
    ctx.rollback,
    { step, where: `step ${step}`, lrKnob: rlLearningRateKnob(c, step) },
    passes,
    result,
    N,
    shape.T,
  );
  return { result, rows, klOn };
}

/** What the step's record reads of the trainer beyond the batch and the update. */
export interface RecordContext {
  engine: PolicyEngine;
  code: RunCode;
  /** The entropy bonus α and the curriculum level the step trained with. */
  alpha: number;
  level: number;
  /** Score the batch again to get each token's importance ratio (snapshot.ratio). */
  collectRatios: boolean;
}

/**
 * The step's metrics and its record's scalars: the batch's, the update's, α, the level, the
 * timings, the gradient norms by tensor group, the task's own metrics, the verifier's reward
 * (under reward shaping) and what the step asked of the GPU since `countsBefore`.
 */
export async function stepScalars(
  ctx: RecordContext,
  batch: RolloutBatch,
  snapshot: RolloutSnapshot,
  { result, rows, klOn }: StepUpdate,
  times: StepTimes,
  countsBefore: GpuCallCounts | null,
): Promise<{ m: StepMetrics; scalars: Record<string, number> }> {
  const { shape } = snapshot;
  const m = stepMetrics(batch, snapshot.advantages!, snapshot.facts.truncated);
  const scalars: Record<string, number> = {
    ...m.scalars,
    ...passMetrics(result, klOn),
    entropy_alpha: ctx.alpha,
    level: ctx.level,
    ...times.scalars(),
    ...prefixKeys('grad_norm/', result.groupNorms),
  };
  if (ctx.collectRatios)
    snapshot.ratio = completionRatios(
      await ctx.engine.logProbs(rows.tokens, rows.targets, shape.N, shape.T),
      rows,
      shape,
    );
  Object.assign(scalars, prefixKeys('task/', aggregateTaskMetrics(snapshot.verified.groupMetrics)));
  // With your reward shaping, `reward` is what the estimator saw; this is what the verifier said.
  // With the consensus reward, likewise; and how much of each group agrees with its majority.
  if (ctx.code.reward || snapshot.consensus)
    scalars['reward/verifier'] = snapshot.verified.rewards.reduce((a, b) => a + b, 0) / shape.N;
  if (snapshot.consensus) scalars.consensus_rate = snapshot.consensus.rate;

  if (countsBefore) Object.assign(scalars, gpuCallScalars(countsBefore, ctx.engine.callCounts!()!));
  return { m, scalars };
}
