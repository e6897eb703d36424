// The kernel benchmark's building blocks: its list of matmul shapes is the one the plans
// really dispatch, its model sizes are what docs/benchmarks.md says, and the no-cache sampling
// baseline samples what the KV-cache sampler samples.
import { describe, expect, it } from 'vitest';
import { gpuIt, maxAbsDiff } from '../gpu/testing';
import { quickBench } from './testOptions';
import { readF32, readI32 } from '../gpu/buffers';
import { matmulFlops } from '../gpu/autotune';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { buildTrainPlans } from '../model/gpu-loss';
import { GpuSampler } from '../model/gpu-sampler';
import type { ModelConfig } from '../model/model-config';
import { BENCH_MODELS, countParams, modelMatmuls } from './models';
import { NoCacheSampler } from './nocache-sampler';
import { formatTable } from './text-table';

describe('kernel benchmark', () => {
  it('model sizes are ≈30K, ≈200K and ≈1M parameters', () => {
    expect(BENCH_MODELS.map((m) => countParams(buildLayout(m.config)))).toEqual([28_544, 206_208, 1_003_904]);
  });

  it('matmul flops of a train step are 6·(weights)·R plus the tied head', () => {
    const cfg = BENCH_MODELS[1].config;
    const { nEmbd: C, nLayer: L, vocabSize: V } = cfg;
    const N = 4,
      T = 8,
      R = N * T;
    const shapes = modelMatmuls(cfg, N, T).filter((s) => s.phase !== 'decode');
    const flops = shapes.reduce((s, m) => s + m.calls * matmulFlops(m), 0);
    expect(flops).toBe(6 * R * (L * 12 * C * C + V * C));
  });

  it('formats tables with aligned columns', () => {
    const t = formatTable(
      ['name', 'ms'],
      [
        ['a', '1.25'],
        ['long name', '12.3'],
      ],
    ).split('\n');
    expect(t[0]).toBe('name         ms');
    expect(t[2]).toBe('a          1.25');
    expect(t[3]).toBe('long name  12.3');
  });

  const cfg: ModelConfig = { vocabSize: 9, nPositions: 8, nEmbd: 12, nLayer: 2, nHead: 3 };
  const layout = buildLayout(cfg);

  gpuIt('the listed train-step matmuls are the ones pgStep dispatches', ({ device }) => {
    const N = 2,
      T = 8;
    const model = new GpuParams(device, layout, initParams(layout, 1));
    const plans = buildTrainPlans(device, layout, model, N, T, { invTemp: 1, variant: 'naive' });
    const labels = plans.pgStep.steps.flatMap((s) => (s.kind === 'dispatch' ? [s.d.label] : []));
    // a linear_backward computes a linear layer's two backward matmuls (dx and dW) in one dispatch
    const dispatched =
      labels.filter((l) => l.startsWith('matmul')).length + 2 * labels.filter((l) => l === 'linear_backward').length;
    expect(labels.filter((l) => l === 'linear_backward')).toHaveLength(4 * cfg.nLayer);
    const listed = modelMatmuls(cfg, N, T)
      .filter((s) => s.phase !== 'decode')
      .reduce((s, m) => s + m.calls, 0);
    expect(dispatched).toBe(listed);
    model.destroy();
  });

  gpuIt('the no-cache baseline samples the same tokens as the KV-cache sampler', async ({ device }) => {
    const N = 3,
      T = 8;
    const model = new GpuParams(device, layout, initParams(layout, 3));
    const kv = new GpuSampler(device, layout, model, N, T, 'tuned');
    const plain = new NoCacheSampler(device, layout, model, N, T, 'tuned');
    const fixed = new Int32Array(N * T).fill(-1);
    for (let n = 0; n < N; n++) {
      fixed[n * T] = 1;
      fixed[n * T + 3] = 2; // an environment token mid-sequence
    }
    const params = { seed: 5, step: 2, invTemp: 1, topK: 0 };
    kv.setTemplate(fixed);
    plain.setTemplate(fixed);
    plain.setParams(params);
    const a = await kv.sample(params);
    const enc = device.createCommandEncoder();
    plain.encode(enc);
    device.queue.submit([enc.finish()]);
    const tokens = await readI32(device, plain.tokens, N * T);
    const logp = await readF32(device, plain.logp, N * T);
    expect(Array.from(tokens)).toEqual(Array.from(a.tokens));
    expect(maxAbsDiff(logp, a.logp)).toBeLessThan(1e-5);
    for (let n = 0; n < N; n++) expect(tokens[n * T + 3]).toBe(2);
    model.destroy();
  });
});

describe('learning benchmark', () => {
  gpuIt('reports pass@1 at the level reached and at the final level (a run stopped below it)', async (gpu) => {
    const { learningSuite } = await import('./learning');
    const { opts, lines, progress } = quickBench({
      preset: 'cot-discovery',
      seeds: '0',
      steps: '2',
      'final-prompts': '6',
      'check-every': '1',
      set: [
        'task.length=3',
        'model.nEmbd=8',
        'model.nLayer=1',
        'model.nHead=2',
        'batchPrompts=2',
        'groupSize=2',
        'evalPrompts=4',
      ],
    });
    const result = (await learningSuite.run(gpu, opts)) as {
      results: { level: number; finalLevel: number; passAt1: number; passAt1Final: number; steps: number }[];
    };
    const [r] = result.results;
    // Two steps cannot pass the curriculum window (10 steps): still at length 1 of 3.
    expect(r).toMatchObject({ level: 1, finalLevel: 3, steps: 2 });
    for (const p of [r.passAt1, r.passAt1Final]) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
    expect(progress.at(-1)).toMatch(
      /^seed 0 done: level 1\/3, held-out pass@1 [\d.]+ on 6 prompts \([\d.]+ at length 3\)/,
    );
    expect(lines.join('\n')).toMatch(/preset cot-discovery with task\.length=3, .*at final level/s);
    // The task's headline metric, named by its spec.
    expect(lines.join('\n')).toContain('CoT alignment');
  });
});

describe('soak benchmark', () => {
  gpuIt('records GPU buffers and memory every --every steps; a short run of a tiny model stays flat', async (gpu) => {
    const { soakSuite } = await import('./soak');
    const { opts, lines } = quickBench({
      steps: '6',
      every: '2',
      set: [
        'model.nEmbd=8',
        'model.nLayer=1',
        'model.nHead=2',
        'batchPrompts=2',
        'groupSize=2',
        'evalEvery=2',
        'evalPrompts=4',
      ],
    });
    const result = (await soakSuite.run(gpu, opts)) as {
      samples: { step: number; gpuBuffers: number; gpuCreated: number }[];
      growth: { gpuBuffers: number; gpuBytes: number; gpuCreated: number };
    };
    expect(result.samples.map((s) => s.step)).toEqual([0, 2, 4, 6]);
    expect(result.samples[1].gpuBuffers).toBeGreaterThan(result.samples[0].gpuBuffers);
    // Once the plans, samplers and eval buffers exist, a step allocates no GPU buffer.
    expect(result.growth).toMatchObject({ gpuBuffers: 0, gpuBytes: 0, gpuCreated: 0 });
    expect(lines.join('\n')).toMatch(/from step 2 to 6: GPU buffers \+0 \(0\.00 MiB; 0 created\)/);
  });
});
