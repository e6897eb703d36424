// A run saved at step k and resumed gives the metrics the uninterrupted run gives: weights,
// AdamW's moments, the KL reference, step, level, α and the random-stream positions all carry over.
import { describe, expect, it } from 'vitest';
import { presetConfig } from '../lessons/presets';
import { mergeConfig, type RunConfig } from '../config/config';
import { Trainer } from './trainer';
import type { StepRecord } from './step-metrics';
import { CpuEngine } from './cpu-engine';
import type { MakeEngine } from './engine';
import { GpuEngine } from './gpu-engine';
import { readTrainerStateFile, writeTrainerStateFile } from './trainer-state';
import { CheckpointError } from '../model/safetensors-file';
import { gpuIt } from '../gpu/testing';

// Everything that carries state between steps: two minibatches × two epochs (the shuffle
// stream), a KL anchor, an adaptive α, a curriculum with held-out checks, periodic evals.
// Seed 12 advances the curriculum at step 2, re-syncing the anchor (refSync curriculum): seed 3
// did before the curriculum's check drew training instances (src/tasks/split.ts), now at step 4.
const tiny = mergeConfig(presetConfig('sort-easy'), {
  seed: 12,
  'model.nEmbd': 8,
  'model.nLayer': 1,
  'model.nHead': 2,
  batchPrompts: 2,
  groupSize: 4,
  epochs: 2,
  minibatches: 2,
  klBeta: 0.1,
  refSync: 'curriculum',
  entropyAlpha: 0.02,
  entropyTarget: 2,
  entropyAlphaStep: 0.01,
  curriculum: 'pass-rate',
  curriculumWindow: 1,
  curriculumTarget: 0.01,
  evalEvery: 2,
  evalPrompts: 16,
  steps: 5,
});

const comparable = (r: StepRecord) => ({
  ...r,
  scalars: Object.fromEntries(
    Object.entries(r.scalars).filter(([k]) => !k.startsWith('time/') && k !== 'tokens_per_s'),
  ),
});

async function steps(t: Trainer, n: number): Promise<StepRecord[]> {
  const out: StepRecord[] = [];
  for (let i = 0; i < n; i++) out.push(comparable(await t.step()));
  return out;
}

/** n steps straight, and k steps + save (through the state file's bytes) + a new trainer + n − k steps. */
async function straightAndResumed(config: RunConfig, make: MakeEngine, n: number, k: number, sft = false) {
  const a = await Trainer.create(config, make);
  if (sft) await a.warmStart();
  const straight = await steps(a, n);
  a.destroy();

  const b = await Trainer.create(config, make);
  if (sft) await b.warmStart();
  const first = await steps(b, k);
  const params = await b.engine.readParams();
  const file = writeTrainerStateFile(await b.resumePoint(), params);
  b.destroy();
  const point = readTrainerStateFile(file, params);
  const c = await Trainer.create(config, make, { initial: { layout: b.layout, params }, resume: point });
  expect(c.stepCount).toBe(k);
  const rest = await steps(c, n - k);
  c.destroy();
  return { straight, resumed: [...first, ...rest] };
}

describe('resuming a run', () => {
  it('k steps + resume + n − k steps = n steps (KL anchor, adaptive α, curriculum, two epochs × two minibatches, evals)', async () => {
    const { straight, resumed } = await straightAndResumed(tiny, (l, p, s) => new CpuEngine(l, p, s), 5, 3);
    expect(straight.findIndex((r) => r.scalars['curriculum/advanced'] === 1)).toBe(1);
    expect(straight.some((r) => r.eval)).toBe(true);
    expect(resumed).toEqual(straight);
  });

  it('the same with the MaPP estimator (its posterior) and after an SFT warm start', async () => {
    const cfg = mergeConfig(tiny, {
      estimator: 'mapp',
      mappPool: 8,
      sftSteps: 2,
      curriculum: 'off',
      refSync: 'none',
      evalEvery: 0,
    });
    const { straight, resumed } = await straightAndResumed(cfg, (l, p, s) => new CpuEngine(l, p, s), 3, 1, true);
    expect(resumed).toEqual(straight);
  });

  it('a warm start stopped part-way continues where it stopped', async () => {
    const cfg = mergeConfig(tiny, { sftSteps: 3, klBeta: 0, curriculum: 'off', refSync: 'none' });
    const a = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
    const all = await a.warmStart();
    expect(all).toHaveLength(3);
    const b = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
    let asked = 0;
    const part = await b.warmStart({ shouldStop: () => ++asked > 2 });
    expect(part).toHaveLength(2);
    expect(b.sftStepsDone).toBe(2);
    const params = await b.engine.readParams();
    const c = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s), {
      initial: { layout: b.layout, params },
      resume: await b.resumePoint(),
    });
    expect(c.sftStepsRemaining).toBe(1);
    const rest = await c.warmStart();
    expect([...part, ...rest]).toEqual(all);
    expect(Array.from(await c.engine.readParams())).toEqual(Array.from(await a.engine.readParams()));
  });

  it("a state file is tied to its checkpoint's weights, and a level outside the config is refused", async () => {
    const t = await Trainer.create(tiny, (l, p, s) => new CpuEngine(l, p, s));
    await t.step();
    const params = await t.engine.readParams();
    const point = await t.resumePoint();
    const file = writeTrainerStateFile(point, params);
    const other = params.slice();
    other[0] += 1;
    expect(() => readTrainerStateFile(file, other, 'ck.state.safetensors')).toThrowError(
      /^ck\.state\.safetensors: saved with other weights than the checkpoint beside it/,
    );
    const bad = { ...point, state: { ...point.state, level: 99 } };
    await expect(
      Trainer.create(tiny, (l, p, s) => new CpuEngine(l, p, s), { initial: { layout: t.layout, params }, resume: bad }),
    ).rejects.toThrowError(CheckpointError);
    await expect(
      Trainer.create(tiny, (l, p, s) => new CpuEngine(l, p, s), { initial: { layout: t.layout, params }, resume: bad }),
    ).rejects.toThrowError(/level 99 is outside this config's levels/);
  });

  it('a state file records the engine that wrote it (null when not told), and refuses an engine it does not know', async () => {
    const t = await Trainer.create(tiny, (l, p, s) => new CpuEngine(l, p, s));
    await t.step();
    const params = await t.engine.readParams();
    const point = await t.resumePoint();
    expect(readTrainerStateFile(writeTrainerStateFile(point, params, 'cpu'), params).engine).toBe('cpu');
    expect(readTrainerStateFile(writeTrainerStateFile(point, params, 'gpu'), params).engine).toBe('gpu');
    expect(readTrainerStateFile(writeTrainerStateFile(point, params), params).engine).toBeNull();
    expect(() =>
      readTrainerStateFile(writeTrainerStateFile(point, params, 'tpu' as 'cpu'), params, 'ck.state.safetensors'),
    ).toThrowError('ck.state.safetensors: __metadata__.engine must be "gpu" or "cpu", got "tpu"');
    t.destroy();
  });

  it('weights without trainer state start past the warm start; a position sets the step and level; a fresh run has the whole warm start', async () => {
    const cfg = mergeConfig(tiny, { sftSteps: 3 });
    const make: MakeEngine = (l, p, s) => new CpuEngine(l, p, s);
    const fresh = await Trainer.create(cfg, make);
    expect([fresh.stepCount, fresh.level, fresh.sftStepsRemaining]).toEqual([0, cfg.curriculumStart, 3]);
    const initial = { layout: fresh.layout, params: await fresh.readParams() };
    const weights = await Trainer.create(cfg, make, { initial });
    expect([weights.stepCount, weights.sftStepsRemaining]).toEqual([0, 0]);
    const placed = await Trainer.create(cfg, make, { initial, resume: { step: 40, level: 3 } });
    expect([placed.stepCount, placed.level, placed.sftStepsRemaining]).toEqual([40, 3, 0]);
    expect(await placed.warmStart()).toEqual([]);
    const r = await placed.step();
    expect([r.step, r.level]).toEqual([41, 3]);
    await expect(Trainer.create(cfg, make, { resume: await placed.resumePoint() })).rejects.toThrowError(
      /needs the weights it was saved with/,
    );
  });

  it("run() does the rest of the warm start, then steps to the config's steps, and stops when asked between steps", async () => {
    const cfg = mergeConfig(tiny, { sftSteps: 2, steps: 3, evalEvery: 0 });
    const t = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
    const events = [];
    for await (const e of t.run())
      events.push('warmStart' in e ? { warmStart: e.warmStart.done } : { step: e.record.step });
    expect(events).toEqual([{ warmStart: 2 }, { step: 1 }, { step: 2 }, { step: 3 }]);
    let seen = 0;
    for await (const e of t.run({ steps: 10, shouldStop: () => seen >= 2 })) if ('record' in e) seen++;
    expect(t.stepCount).toBe(5);
  });

  gpuIt('on the GPU engine too (AdamW moments and the reference read back from GPU buffers)', async ({ device }) => {
    const cfg = mergeConfig(tiny, { evalEvery: 0, curriculum: 'off', refSync: 'none' });
    const { straight, resumed } = await straightAndResumed(cfg, (l, p, s) => new GpuEngine(device, l, p, s), 3, 2);
    expect(resumed).toEqual(straight);
  });
});
