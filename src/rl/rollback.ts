// A faulty update undone: after the engine trains a step (or a warm-start step), a non-finite
// gradient or loss, or a divergence the guard sees, restores the weights and optimiser state
// from before it (the engine's checkpointState) and throws a TrainingFault that names the
// tensors: those that went non-finite (found by replaying up to the faulty pass), or those that
// moved most.

import type { ParamLayout } from '../model/layout';
import type { PolicyEngine, TrainPass, TrainResult } from './engine';
import type { DivergenceGuard } from './divergence';
import { namedTensors, TrainingFault } from './trainer-types';

export interface RollbackContext {
  engine: PolicyEngine;
  guard: DivergenceGuard | null;
  layout: ParamLayout;
  /** Weights in the model (no padding): the scale of the divergence checks. */
  weightCount: number;
  /** Called once the state is restored: the optimiser's step count goes back with it. */
  undoOptimizerSteps(count: number): void;
}

/** Where the update ran: the step (0 in the warm start), its words, and the knob to lower. */
export interface UpdateSite {
  step: number;
  where: string;
  lrKnob: 'lr' | 'lrDropTo' | 'sftLr';
}

/** Checks a trained update; rolls it back and throws a TrainingFault when it is faulty. */
export async function rollBackFaulty(
  ctx: RollbackContext,
  at: UpdateSite,
  passes: TrainPass[],
  result: TrainResult,
  N: number,
  T: number,
): Promise<void> {
  const { engine, guard } = ctx;
  const bad = result.passes.findIndex((p) => p.nonFinite || !p.seqLoss.every(Number.isFinite));
  if (bad >= 0) {
    await engine.restoreState();
    await engine.train(passes.slice(0, bad + 1), N, T);
    const tensors = await engine.nonFiniteTensors();
    await engine.restoreState();
    ctx.undoOptimizerSteps(passes.length);
    const pass = passes.length > 1 || at.lrKnob !== 'sftLr' ? ` in pass ${bad + 1}` : '';
    throw new TrainingFault(
      at.step,
      tensors,
      `${at.where}: non-finite ${result.passes[bad].nonFinite ? 'gradient' : 'loss'}${pass}${namedTensors(tensors, 'tensors:')}` +
        `; the weights from before this step are kept. ${at.lrKnob === 'sftLr' ? 'Lower sftLr' : `Lower the learning rate (${at.lrKnob})`} and continue.`,
    );
  }
  if (!guard) return;
  const o = {
    updateNorm: result.updateNorm,
    weightNorm: result.weightNorm,
    lrSum: passes.reduce((a, p) => a + p.adam.lr, 0),
    count: ctx.weightCount,
  };
  const verdict = guard.check(o);
  if (!verdict) {
    guard.accept(o);
    return;
  }
  const after = await engine.readParams();
  await engine.restoreState();
  ctx.undoOptimizerSteps(passes.length);
  const before = await engine.readParams();
  const moved = mostMoved(ctx.layout, before, after);
  throw new TrainingFault(
    at.step,
    moved,
    `${at.where}: divergence (${verdict.check}): ${verdict.detail} (tensors that moved most: ${moved.join(', ')}); ` +
      `the weights from before this step are kept. Lower the learning rate (${at.lrKnob}) and continue from the last good checkpoint.`,
    verdict.check,
  );
}

/** The four tensors whose weights moved most between `before` and `after`. */
function mostMoved(layout: ParamLayout, before: Float32Array, after: Float32Array): string[] {
  return layout.slots
    .map((sl) => {
      let d = 0;
      for (let i = sl.offset; i < sl.offset + sl.size; i++) d += (after[i] - before[i]) ** 2;
      return { name: sl.name, d: Number.isFinite(d) ? d : Infinity };
    })
    .sort((a, b) => b.d - a.d)
    .slice(0, 4)
    .map((x) => x.name);
}
