// The profile: grouping and totals (pure), and on the GPU, that profiling one train step and
// one sampling run times every dispatch the plans encode, each once.
import { describe, expect, it } from 'vitest';
import { gpuIt } from '../gpu/testing';
import type { GpuContext } from '../gpu/device';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { buildTrainPlans } from '../model/gpu-loss';
import { GpuSampler } from '../model/gpu-sampler';
import type { ModelConfig } from '../model/model-config';
import { DispatchProfiler } from './dispatch-profiler';
import { groupProfile, matmulShapes, medianRuns, profileTable, totalUs, type DispatchSample } from './profile';

const d = (kernel: string, us: number, flops: number | null, bytes: number | null, shape = ''): DispatchSample => ({
  kernel,
  shape,
  flops,
  bytes,
  us,
});

describe('profile (grouping)', () => {
  const samples = [
    d('matmul.tuned', 30, 3e6, 4e5, '64×32×96 +b'),
    d('add', 5, null, 1e5),
    d('matmul.tuned', 10, 1e6, 1e5, '64×32×32 +b'),
    d('layernorm_forward', 5, null, 2e5),
    d('matmul.tuned', 50, 5e6, 1e6, '64×32×96 +b'),
  ];

  it('groups by kernel, slowest first; µs and shares add up to the total', () => {
    const rows = groupProfile(samples);
    expect(rows.map((r) => [r.name, r.calls, r.us])).toEqual([
      ['matmul.tuned', 3, 90],
      ['add', 1, 5],
      ['layernorm_forward', 1, 5],
    ]);
    expect(rows.reduce((s, r) => s + r.us, 0)).toBe(totalUs(samples));
    expect(rows.reduce((s, r) => s + r.share, 0)).toBeCloseTo(1, 12);
    expect(rows[0].share).toBeCloseTo(0.9, 12);
  });

  it('achieved GFLOP/s and GB/s are Σ work / Σ µs; a dash where there is no count', () => {
    const [mm, add] = groupProfile(samples);
    expect(mm.gflops).toBeCloseTo(9e6 / 90 / 1e3, 9); // 100 GFLOP/s
    expect(mm.gbps).toBeCloseTo(1.5e6 / 90 / 1e3, 9);
    expect(add.gflops).toBeNull();
    expect(add.gbps).toBeCloseTo(20, 9);
    const mixed = groupProfile([d('k', 1, 10, null), d('k', 1, null, 10)]);
    expect(mixed[0].gflops).toBeNull();
    expect(mixed[0].gbps).toBeNull();
  });

  it('splits the matmuls by shape, with shares of the whole profile', () => {
    const rows = matmulShapes(samples);
    expect(rows.map((r) => [r.name, r.calls, r.us])).toEqual([
      ['matmul.tuned 64×32×96 +b', 2, 80],
      ['matmul.tuned 64×32×32 +b', 1, 10],
    ]);
    expect(rows[0].share).toBeCloseTo(0.8, 12);
  });

  it('takes the median of each dispatch over runs, and refuses runs of different dispatches', () => {
    const runs = [
      [d('a', 1, null, null), d('b', 9, null, null)],
      [d('a', 3, null, null), d('b', 1, null, null)],
      [d('a', 2, null, null), d('b', 5, null, null)],
    ];
    expect(medianRuns(runs).map((s) => s.us)).toEqual([2, 5]);
    expect(() => medianRuns([[d('a', 1, null, null)], [d('b', 1, null, null)]])).toThrow(/same dispatches/);
  });

  it('prints a table with a total line and dashes', () => {
    const lines = profileTable(groupProfile(samples)).split('\n');
    expect(lines[0]).toMatch(/^kernel\s+calls\s+µs\s+share\s+GFLOP\/s\s+GB\/s$/);
    expect(lines[2]).toMatch(/^matmul\.tuned\s+3\s+90\.00\s+90\.0%\s+100\.0\s+16\.67$/);
    expect(lines[3]).toMatch(/^add\s+1\s+5\.00\s+5\.0%\s+–\s+20\.00$/);
    expect(lines.at(-1)).toMatch(/^total\s+5\s+100\.0\s+100\.0%\s+–\s+–$/);
  });
});

/** A GPU test with the adapter's dispatch profiler (destroyed after it), skipped where it has no timestamp queries. */
function profilerIt(name: string, fn: (gpu: GpuContext, profiler: DispatchProfiler) => Promise<void>): void {
  gpuIt(name, async (gpu, t) => {
    const profiler = DispatchProfiler.create(gpu);
    if (!profiler) {
      t.skip('the adapter has no timestamp-query');
      return;
    }
    try {
      await fn(gpu, profiler);
    } finally {
      profiler.destroy();
    }
  });
}

describe('profile (GPU)', () => {
  const cfg: ModelConfig = { vocabSize: 9, nPositions: 8, nEmbd: 12, nLayer: 2, nHead: 3 };
  const layout = buildLayout(cfg);

  profilerIt(
    'profiles one train step: every dispatch of pgStep once, in order; kernel times sum to the total',
    async ({ device }, profiler) => {
      const N = 2,
        T = 8;
      const model = new GpuParams(device, layout, initParams(layout, 1));
      const plans = buildTrainPlans(device, layout, model, N, T, { invTemp: 1, variant: 'tuned' });
      const run = await profiler.run((enc) => profiler.encodePlan(enc, plans.pgStep));
      const planned = plans.pgStep.steps.flatMap((s) => (s.kind === 'dispatch' ? [s.d] : []));
      expect(run.dispatches.length).toBe(plans.pgStep.dispatchCount);
      expect(run.dispatches).toEqual(planned); // the same objects, in the plan's order
      expect(new Set(run.dispatches).size).toBe(planned.length); // each once
      expect(run.samples.map((s) => s.kernel)).toEqual(planned.map((p) => p.label));
      // every op attaches its work; matmuls and attention count flops
      for (const s of run.samples) {
        expect(s.shape).not.toBe('');
        expect(s.bytes).toBeGreaterThan(0);
        if (/^(matmul|attention|linear_backward)/.test(s.kernel)) expect(s.flops).toBeGreaterThan(0);
        expect(s.us).toBeGreaterThanOrEqual(0);
      }
      expect(run.invalid).toBe(0);
      const rows = groupProfile(run.samples);
      const total = totalUs(run.samples);
      expect(total).toBeGreaterThan(0);
      expect(rows.reduce((s, r) => s + r.us, 0)).toBeCloseTo(total, 6);
      expect(rows.reduce((s, r) => s + r.calls, 0)).toBe(planned.length);
      expect(total).toBeLessThanOrEqual(run.spanUs + 1e-6);
      const kernels = new Set(rows.map((r) => r.name));
      for (const k of [
        'matmul.tuned',
        'linear_backward',
        'layernorm_backward',
        'attention_backward.grads',
        'adamw',
        'grad_norm.partial',
      ])
        expect(kernels).toContain(k);
      model.destroy();
    },
  );

  profilerIt('profiles sampling: every decoding dispatch of every position once', async ({ device }, profiler) => {
    const N = 2,
      T = 6;
    const model = new GpuParams(device, layout, initParams(layout, 2));
    const sampler = new GpuSampler(device, layout, model, N, T, 'tuned');
    const fixed = new Int32Array(N * T).fill(-1);
    for (let n = 0; n < N; n++) fixed[n * T] = 1;
    sampler.setTemplate(fixed);
    sampler.setParams({ seed: 1, step: 1, invTemp: 1, topK: 0 });
    const run = await profiler.run((enc) => sampler.encode(enc, 0, T - 1, (step, e) => profiler.encodePlan(e, step)));
    expect(run.samples.length).toBe(sampler.dispatchesPerToken * (T - 1));
    const rows = groupProfile(run.samples);
    expect(rows.find((r) => r.name === 'sample_token')?.calls).toBe(T - 1);
    expect(rows.reduce((s, r) => s + r.us, 0)).toBeCloseTo(totalUs(run.samples), 6);
    model.destroy();
  });
});

describe('profile (the table of docs/benchmarks.md)', () => {
  it('puts several profiles side by side, ordered by the last one', async () => {
    const { sharesMarkdown } = await import('./profile');
    const a = groupProfile([d('add', 1, null, 8), d('matmul.tuned', 3, 6, 8)]);
    const b = groupProfile([d('add', 2, null, 8), d('matmul.tuned', 6, 6, 8), d('adamw', 2, null, 8)]);
    const lines = sharesMarkdown([
      { name: '30K', rows: a },
      { name: '1M', rows: b },
    ]).split('\n');
    expect(lines[0]).toBe('| kernel | 30K: share (µs) | 1M: share (µs) |');
    expect(lines[2]).toBe('| matmul.tuned | 75.0% (3.00) | 60.0% (6.00) |');
    // equal µs: by name
    expect(lines[3]).toBe('| adamw | – | 20.0% (2.00) |');
    expect(lines[4]).toBe('| add | 25.0% (1.00) | 20.0% (2.00) |');
    expect(lines[5]).toBe('| total | 4.00 µs | 10.00 µs |');
  });
});
