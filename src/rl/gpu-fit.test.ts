import { describe, expect, it } from 'vitest';
import { checkGpuFit, gpuFitProblem, gpuFootprint, type GpuBudget } from './gpu-fit';
import { ConfigError, mergeConfig } from '../config/config';
import { presetConfig, PRESET_NAMES } from '../lessons/presets';
import { gpuIt } from '../gpu/testing';
import { watchBuffers } from '../gpu/buffer-census';
import { Trainer } from './trainer';
import { GpuEngine } from './gpu-engine';
import { thrown } from '../core/thrown';

// SwiftShader's limits here; the 4 GiB default budget.
const swiftshader: GpuBudget = {
  maxBufferSize: 2 ** 30,
  maxStorageBufferBindingSize: 2 ** 30,
  maxComputeWorkgroupsPerDimension: 65535,
  memoryBytes: 4 * 2 ** 30,
};
// WebGPU's guaranteed minimums: 256 MiB buffers, 128 MiB bindings.
const minimal: GpuBudget = {
  maxBufferSize: 2 ** 28,
  maxStorageBufferBindingSize: 2 ** 27,
  maxComputeWorkgroupsPerDimension: 65535,
  memoryBytes: 2 ** 30,
};

const error = (f: () => void): ConfigError => thrown(ConfigError, f);

describe('will a run fit the GPU', () => {
  it('every preset fits the WebGPU minimum limits', () => {
    for (const name of PRESET_NAMES) expect(gpuFitProblem(presetConfig(name), minimal), name).toBeNull();
  });

  it('a config in range whose batch does not fit is refused, naming the knob and the largest value that fits', () => {
    // The case: 256 prompts × 64 completions at width 512 (it crashed inside a dispatch).
    const big = mergeConfig(presetConfig('sort-easy'), { 'model.nEmbd': 512, batchPrompts: 256, groupSize: 64 });
    const e = error(() => checkGpuFit(big, swiftshader));
    expect(e.knob).toBe('batchPrompts');
    expect(e.message).toMatch(
      /^this run does not fit the GPU: the buffer ".*" \(.*\) needs \d+\.\d\d GB; this adapter binds at most 1\.07 GB \(maxStorageBufferBindingSize\)/,
    );
    const fit = Number(/batchPrompts ≤ (\d+)/.exec(e.message)![1]);
    expect(fit).toBeLessThan(256);
    // The value named fits, one more does not.
    expect(gpuFitProblem(mergeConfig(big, { batchPrompts: fit }), swiftshader)).toBeNull();
    expect(gpuFitProblem(mergeConfig(big, { batchPrompts: fit + 1 }), swiftshader)).not.toBeNull();
    expect(e.message).toMatch(/groupSize ≤ \d+/);
    expect(e.related).toContain('groupSize');
  });

  it('the memory budget is checked on the total, and a lower budget refuses what a higher one allows', () => {
    const cfg = mergeConfig(presetConfig('cot-discovery'), { batchPrompts: 128 });
    const need = gpuFootprint(cfg).totalBytes;
    expect(gpuFitProblem(cfg, { ...swiftshader, memoryBytes: need })).toBeNull();
    expect(gpuFitProblem(cfg, { ...swiftshader, memoryBytes: need - 1 })).toMatch(
      /the run needs .* of GPU buffers .*the memory budget is/,
    );
  });

  it('the held-out evaluation samples groupSize completions per prompt: its sampler is evalPrompts·groupSize sequences, apart from the others', () => {
    // Three samplers of three sizes: training (batchPrompts·groupSize = 8), greedy (evalPrompts = 3),
    // sampled evaluation (evalPrompts·groupSize = 12). Equal sizes would share one sampler and hide a miscount.
    const cfg = mergeConfig(presetConfig('sort-easy'), {
      batchPrompts: 2,
      groupSize: 4,
      evalEvery: 1,
      evalPrompts: 3,
      curriculum: 'off',
    });
    const fp = gpuFootprint(cfg);
    // The vocabulary: the training logits (N·T × V) over the training tokens (N·T).
    const vocab =
      fp.buffers.find((b) => b.label === 'logits')!.bytes / fp.buffers.find((b) => b.label === 'tokens')!.bytes;
    const samplers = fp.buffers
      .filter((b) => b.label === 'sample logits')
      .map((b) => b.bytes / 4 / vocab)
      .sort((a, b) => a - b);
    expect(samplers).toEqual([3, 8, 12]);
    const sampled = fp.buffers.find((b) => b.label === 'sample logits' && b.what.startsWith('held-out sampling'))!;
    expect(sampled.bytes).toBe(12 * vocab * 4);
    // cot-discovery as shipped: evalPrompts·groupSize decoders of its 6-step chains (the 182 MB of the issue, not 124).
    const cot = gpuFootprint(presetConfig('cot-discovery')).totalBytes;
    expect(cot / 1e6).toBeGreaterThan(150);
  });

  gpuIt('the estimate matches what the engine allocates (every buffer of 1 KB or more)', async ({ device }) => {
    const base = mergeConfig(presetConfig('sort-easy'), {
      'model.nEmbd': 16,
      'model.nLayer': 1,
      'model.nHead': 2,
      batchPrompts: 4,
      groupSize: 4,
      minibatches: 2,
      klBeta: 0.1,
      refSync: 'none',
      evalEvery: 1,
      evalPrompts: 4,
      curriculum: 'off',
    });
    // KL reference, two minibatches, evals; then a warm start with the uniform regulator.
    // A wider model on a larger batch: N·T past 512 rows splits the weight gradients' sums (split-K).
    const wide = mergeConfig(base, {
      'model.nEmbd': 64,
      batchPrompts: 16,
      groupSize: 8,
      minibatches: 1,
      klBeta: 0,
      evalEvery: 0,
    });
    expect(gpuFootprint(wide).buffers.some((b) => b.label.includes('matmulSplitK'))).toBe(true);
    // Held-out sampling (evalPrompts·groupSize = 12) apart from the training (8) and greedy (3) samplers.
    const evals = mergeConfig(base, { batchPrompts: 2, minibatches: 1, klBeta: 0, evalPrompts: 3 });
    for (const cfg of [
      base,
      mergeConfig(base, { sftSteps: 1, entropyMode: 'uniform', minibatches: 1, klBeta: 0, evalEvery: 0 }),
      wide,
      evals,
    ]) {
      const watch = watchBuffers(device);
      try {
        const t = await Trainer.create(cfg, (l, p, s) => new GpuEngine(device, l, p, s));
        if (cfg.sftSteps) await t.warmStart();
        await t.step();
        const estimate = gpuFootprint(cfg)
          .buffers.map((b) => b.bytes)
          .filter((n) => n >= 1024)
          .sort((a, b) => a - b);
        expect(watch.sizes(1024)).toEqual(estimate);
        t.destroy();
      } finally {
        watch.stop();
      }
    }
  });
});
