// One step of the SFT warm start (trainer.ts, Trainer.warmStart): a supervised pass on the task's
// own correct completions, rolled back like an RL update when it goes wrong.

import type { RunConfig } from '../config/config';
import type { TaskParams } from '../tasks/types';
import type { PolicyEngine, TrainPass } from './engine';
import type { PromptPool } from './prompt-pool';
import { rollBackFaulty, type RollbackContext } from './rollback';
import { rolloutShape, sftArrays } from './rollout';
import type { AdamSchedule } from './step-update';

/** What a warm-start step needs of the trainer. */
export interface WarmStartContext {
  config: RunConfig;
  engine: PolicyEngine;
  prompts: PromptPool;
  optimizer: AdamSchedule;
  rollback: RollbackContext;
}

/**
 * Warm-start step `done + 1` at the task's parameters `params`: batchPrompts·groupSize correct
 * completions in one pass at sftLr. Returns the pass's loss (the sum of its sequence losses).
 */
export async function warmStartStep(ctx: WarmStartContext, params: TaskParams, done: number): Promise<number> {
  const c = ctx.config;
  const instances = ctx.prompts.warmStartInstances(c.batchPrompts * c.groupSize, params);
  const s = rolloutShape(instances, 1);
  const data = sftArrays(instances, s);
  const count = data.mask.reduce((a, b) => a + b, 0);
  const passes: TrainPass[] = [
    { data, loss: { kind: 'sft', scale: count > 0 ? 1 / count : 0 }, adam: ctx.optimizer.next(c.sftLr) },
  ];
  await ctx.engine.checkpointState();
  const result = await ctx.engine.train(passes, s.N, s.T);
  await rollBackFaulty(
    ctx.rollback,
    { step: 0, where: `warm-start step ${done + 1}`, lrKnob: 'sftLr' },
    passes,
    result,
    s.N,
    s.T,
  );
  return result.passes[0].seqLoss.reduce((a, b) => a + b, 0);
}
