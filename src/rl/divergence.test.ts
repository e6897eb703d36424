import { describe, expect, it } from 'vitest';
import { DivergenceGuard } from './divergence';
import { Trainer, TrainingFault } from './trainer';
import { CpuEngine } from './cpu-engine';
import { presetConfig } from '../lessons/presets';
import { mergeConfig } from '../config/config';

const obs = (updateNorm: number, weightNorm = 10, lrSum = 1e-3, count = 10_000) => ({
  updateNorm,
  weightNorm,
  lrSum,
  count,
});

describe('DivergenceGuard', () => {
  it('an update far above both an lr-sized step and the recent median fires update-norm', () => {
    const g = new DivergenceGuard();
    // lr-sized step: 1e-3 · √10⁴ = 0.1; the limit is 10× that
    expect(g.check(obs(0.99))).toBeNull();
    const v = g.check(obs(1.01));
    expect(v?.check).toBe('update-norm');
    expect(v?.detail).toMatch(
      /moved the weights by 1\.01 .*more than 10 × max\(recent median 0, lr-sized step 0\.100\)/,
    );
  });

  it('the limit follows the recent median when that is larger; rejected updates are not recorded', () => {
    const g = new DivergenceGuard({ updateSpike: 10, window: 3, maxWeightRms: 100 });
    for (const u of [0.5, 0.6, 0.7]) g.accept(obs(u));
    expect(g.check(obs(5.9))).toBeNull(); // 10 × median 0.6
    expect(g.check(obs(6.1))?.check).toBe('update-norm');
    g.accept(obs(0.01));
    g.accept(obs(0.01)); // the window slides: median of 0.7, 0.01, 0.01
    expect(g.recent).toEqual([0.7, 0.01, 0.01]);
    expect(g.check(obs(1.1))?.check).toBe('update-norm'); // max(0.01, 0.1) · 10 = 1
  });

  it('weights whose RMS passes the bound fire weight-norm; non-finite ones fire non-finite', () => {
    const g = new DivergenceGuard();
    expect(g.check(obs(0.01, 100 * 100 + 1))?.check).toBe('weight-norm'); // RMS = ‖θ‖/√10⁴
    expect(g.check(obs(0.01, 100 * 100 - 1))).toBeNull();
    expect(g.check(obs(NaN))?.check).toBe('non-finite');
    expect(g.check(obs(1, Infinity))?.check).toBe('non-finite');
  });
});

describe('the trainer with the divergence guard', () => {
  it('lr 1, beta2 0, eps 1e-12: the finite blow-up (3e11) is caught at step 2 and the weights from before it are kept', async () => {
    const cfg = mergeConfig(presetConfig('sort-easy'), { lr: 1, beta2: 0, adamEps: 1e-12, evalEvery: 0 });
    const t = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
    const first = await t.step();
    expect(first.scalars.update_norm).toBeGreaterThan(0);
    const before = await t.engine.readParams();
    const optBefore = await t.engine.readOptimizerState();
    const fault = await t.step().then(
      () => null,
      (e: unknown) => e,
    );
    expect(fault).toBeInstanceOf(TrainingFault);
    const f = fault as TrainingFault;
    expect(f.check).toBe('update-norm');
    expect(f.step).toBe(2);
    expect(f.message).toMatch(
      /^step 2: divergence \(update-norm\): the update moved the weights by .*the weights from before this step are kept/,
    );
    expect(f.tensors.length).toBeGreaterThan(0);
    expect(Array.from(await t.engine.readParams())).toEqual(Array.from(before));
    expect(Array.from((await t.engine.readOptimizerState()).v)).toEqual(Array.from(optBefore.v));
    expect(t.stepCount).toBe(1);
    // Without the guard the same run goes on with weights of 1e11 until sampling overflows.
    const off = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s), { guard: false });
    await off.step();
    const blown = await off.step();
    expect(blown.scalars.weight_norm).toBeGreaterThan(1e10);
  });

  it('the warm start is guarded too (sftLr named)', async () => {
    const cfg = mergeConfig(presetConfig('sort-easy'), {
      sftSteps: 5,
      sftLr: 1,
      beta2: 0,
      adamEps: 1e-12,
      evalEvery: 0,
    });
    const t = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
    const fault = await t.warmStart().then(
      () => null,
      (e: unknown) => e,
    );
    expect(fault).toBeInstanceOf(TrainingFault);
    expect((fault as TrainingFault).step).toBe(0);
    expect((fault as Error).message).toMatch(
      /^warm-start step \d: divergence \(.*\).*Lower the learning rate \(sftLr\)/,
    );
    expect(t.sftStepsDone).toBeLessThan(5);
  });
});
