// Sampling on the GPU with a KV cache vs full recomputation on the CPU.
import { describe, expect } from 'vitest';
import { gpuIt, maxAbsDiff } from '../gpu/testing';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuParams } from './gpu-model';
import { GpuSampler } from './gpu-sampler';
import { sampleSequencesFull as sampleSequencesCpu } from '../reference/sampler';
import { createActivations, forward } from '../reference/model';
import { logitsStats } from '../reference/ops';
import { makeRng } from '../core/random';
import type { ModelConfig } from './model-config';

const cfg: ModelConfig = { vocabSize: 9, nPositions: 12, nEmbd: 12, nLayer: 2, nHead: 3 };
const layout = buildLayout(cfg);
const params = initParams(layout, 4);
{
  // Sharpen the policy a little so that sampled sequences are not uniform noise.
  const rng = makeRng(9);
  for (let i = 0; i < params.length; i++) params[i] += 0.1 * rng.normal();
}

/** N rows of: BOS, 2 prompt tokens, then sampled positions, with an env token at position 6. */
function template(N: number, T: number): Int32Array {
  const fixed = new Int32Array(N * T).fill(-1);
  for (let n = 0; n < N; n++) {
    fixed[n * T] = 1;
    fixed[n * T + 1] = 4 + (n % 5);
    fixed[n * T + 2] = 2;
    fixed[n * T + 6] = 3 + (n % 3);
  }
  return fixed;
}

/** The model's weights on the device and a sampler of N × T over the template `fixed` (destroy the model after). */
function samplerOver(device: GPUDevice, fixed: Int32Array, N: number, T: number) {
  const model = new GpuParams(device, layout, params);
  const sampler = new GpuSampler(device, layout, model, N, T);
  sampler.setTemplate(fixed);
  return { model, sampler };
}

describe('GpuSampler (KV cache, one submission)', () => {
  gpuIt('tokens, log-probs and entropies equal the CPU full-recompute sampler', async ({ device }) => {
    const N = 6,
      T = 11;
    const fixed = template(N, T);
    const { model, sampler } = samplerOver(device, fixed, N, T);
    const p = { seed: 42, step: 3, invTemp: 1 / 0.9, topK: 0 };
    const gpu = await sampler.sample(p);
    const cpu = sampleSequencesCpu(layout, params, fixed, N, T, p);
    const same = gpu.tokens.every((t, i) => t === cpu.tokens[i]);
    console.log(
      `sampler: ${N}×${T} tokens equal: ${same}; max |Δlogp| ${maxAbsDiff(gpu.logp, cpu.logp).toExponential(2)}, max |Δentropy| ${maxAbsDiff(gpu.entropy, cpu.entropy).toExponential(2)}; ${sampler.dispatchesPerToken} dispatches per token`,
    );
    expect(Array.from(gpu.tokens)).toEqual(Array.from(cpu.tokens));
    expect(maxAbsDiff(gpu.logp, cpu.logp)).toBeLessThan(1e-5);
    expect(maxAbsDiff(gpu.entropy, cpu.entropy)).toBeLessThan(1e-5);
    // Template positions are copied, not sampled.
    for (let i = 0; i < N * T; i++) if (fixed[i] >= 0) expect(gpu.tokens[i]).toBe(fixed[i]);
    model.destroy();
  });

  gpuIt('KV-cache log-probs equal a full teacher-forced forward over the sampled sequences', async ({ device }) => {
    const N = 5,
      T = 12;
    const fixed = template(N, T);
    const { model, sampler } = samplerOver(device, fixed, N, T);
    const invTemp = 1 / 1.3;
    const s = await sampler.sample({ seed: 7, step: 0, invTemp, topK: 0 });
    // Full recompute: row t-1 of the forward over the finished sequences predicts token t.
    const acts = createActivations(cfg, N, T);
    const logits = forward(layout, params, s.tokens, N, T, acts);
    const targets = new Int32Array(N * T).fill(-1);
    for (let n = 0; n < N; n++) for (let t = 0; t + 1 < T; t++) targets[n * T + t] = s.tokens[n * T + t + 1];
    const lp = new Float32Array(N * T),
      ent = new Float32Array(N * T);
    logitsStats(lp, ent, logits, targets, { R: N * T, V: cfg.vocabSize, invTemp });
    let dLogp = 0,
      dEnt = 0,
      sampled = 0;
    for (let n = 0; n < N; n++) {
      for (let t = 1; t < T; t++) {
        if (fixed[n * T + t] >= 0) continue;
        sampled++;
        dLogp = Math.max(dLogp, Math.abs(s.logp[n * T + t] - lp[n * T + t - 1]));
        dEnt = Math.max(dEnt, Math.abs(s.entropy[n * T + t] - ent[n * T + t - 1]));
      }
    }
    console.log(
      `kv cache vs full forward over ${sampled} sampled tokens: max |Δlogp| ${dLogp.toExponential(2)}, max |Δentropy| ${dEnt.toExponential(2)}`,
    );
    expect(sampled).toBeGreaterThan(20);
    expect(dLogp).toBeLessThan(1e-5);
    expect(dEnt).toBeLessThan(1e-5);
    model.destroy();
  });

  gpuIt('same seed and step give identical tokens; another step gives others', async ({ device }) => {
    const N = 8,
      T = 10;
    const { model, sampler } = samplerOver(device, template(N, T), N, T);
    const a = await sampler.sample({ seed: 1, step: 5, invTemp: 1, topK: 0 });
    const b = await sampler.sample({ seed: 1, step: 5, invTemp: 1, topK: 0 });
    const c = await sampler.sample({ seed: 1, step: 6, invTemp: 1, topK: 0 });
    expect(Array.from(a.tokens)).toEqual(Array.from(b.tokens));
    expect(Array.from(a.tokens)).not.toEqual(Array.from(c.tokens));
    model.destroy();
  });

  gpuIt('sampled token frequencies match the softmax (chi-square, fixed seed)', async ({ device }) => {
    // 1024 copies of one prompt (BOS, 5, SEP), one sampled position: i.i.d. draws from softmax(z).
    const N = 1024,
      T = 4;
    const fixed = new Int32Array(N * T).fill(-1);
    for (let n = 0; n < N; n++) {
      fixed[n * T] = 1;
      fixed[n * T + 1] = 5;
      fixed[n * T + 2] = 2;
    }
    const { model, sampler } = samplerOver(device, fixed, N, T);
    const counts = new Array(cfg.vocabSize).fill(0);
    const draws = 4;
    for (let step = 0; step < draws; step++) {
      const s = await sampler.sample({ seed: 2024, step, invTemp: 1, topK: 0 });
      for (let n = 0; n < N; n++) counts[s.tokens[n * T + 3]]++;
    }
    const acts = createActivations(cfg, 1, T);
    const logits = forward(
      layout,
      params,
      fixed.slice(0, T).map((t) => Math.max(t, 0)),
      1,
      T,
      acts,
    );
    const z = Array.from(logits.subarray(2 * cfg.vocabSize, 3 * cfg.vocabSize));
    const mx = Math.max(...z);
    const e = z.map((v) => Math.exp(v - mx));
    const sum = e.reduce((a, b) => a + b, 0);
    const total = N * draws;
    let chi2 = 0;
    for (let j = 0; j < cfg.vocabSize; j++) {
      const expected = (total * e[j]) / sum;
      chi2 += (counts[j] - expected) ** 2 / expected;
    }
    // 8 degrees of freedom: the 0.999 quantile is 26.12.
    console.log(`chi-square over ${total} GPU draws: ${chi2.toFixed(2)} (df 8, 0.999 critical 26.12)`);
    expect(chi2).toBeLessThan(26.12);
    model.destroy();
  });
});
