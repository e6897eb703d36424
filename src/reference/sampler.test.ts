// The CPU engine's KV-cache sampler against the definition (the whole forward pass per position).
import { describe, expect, it } from 'vitest';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { makeRng } from '../core/random';
import type { ModelConfig } from '../model/model-config';
import { sampleSequencesCpu, sampleSequencesFull } from './sampler';

function model(cfg: ModelConfig, seed: number) {
  const layout = buildLayout(cfg);
  const params = initParams(layout, seed);
  // Sharpen the policy so that the draws are not uniform noise.
  const rng = makeRng(seed + 100);
  for (let i = 0; i < params.length; i++) params[i] += 0.15 * rng.normal();
  return { layout, params };
}

/** BOS, a prompt of 3 tokens, SEP, then sampled positions with one environment token. */
function template(N: number, T: number, V: number): Int32Array {
  const fixed = new Int32Array(N * T).fill(-1); // [N,T]
  for (let n = 0; n < N; n++) {
    fixed[n * T] = 1;
    for (let i = 1; i <= 3; i++) fixed[n * T + i] = 4 + ((n * 7 + i) % (V - 4));
    fixed[n * T + 4] = 2;
    fixed[n * T + 7] = 4 + (n % (V - 4));
  }
  return fixed;
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};

describe('sampleSequencesCpu (KV cache)', () => {
  const cases: [string, ModelConfig, number, number, number, number][] = [
    // name, config, N, T, invTemp, topK
    ['2 layers, 3 heads, T = 12', { vocabSize: 11, nPositions: 12, nEmbd: 12, nLayer: 2, nHead: 3 }, 7, 12, 1, 0],
    [
      '1 layer, 1 head, temperature 0.7',
      { vocabSize: 9, nPositions: 16, nEmbd: 8, nLayer: 1, nHead: 1 },
      5,
      16,
      1 / 0.7,
      0,
    ],
    ['3 layers, 2 heads, greedy', { vocabSize: 13, nPositions: 10, nEmbd: 16, nLayer: 3, nHead: 2 }, 6, 10, 1, 1],
    ['top-k 3, T below nPositions', { vocabSize: 10, nPositions: 20, nEmbd: 12, nLayer: 2, nHead: 2 }, 4, 14, 1, 3],
  ];
  for (const [name, cfg, N, T, invTemp, topK] of cases) {
    it(`samples exactly what the full recomputation samples: ${name}`, () => {
      const { layout, params } = model(cfg, 3);
      const fixed = template(N, T, cfg.vocabSize);
      const p = { seed: 42, step: 5, invTemp, topK };
      const cached = sampleSequencesCpu(layout, params, fixed, N, T, p);
      const full = sampleSequencesFull(layout, params, fixed, N, T, p);
      expect(Array.from(cached.tokens)).toEqual(Array.from(full.tokens));
      // Bit for bit: the same arithmetic on each row (the CPU golden runs rely on it).
      expect(maxAbsDiff(cached.logp, full.logp)).toBe(0);
      expect(maxAbsDiff(cached.entropy, full.entropy)).toBe(0);
      // Not a degenerate case: the draws vary, and environment positions are copied.
      expect(new Set(cached.tokens).size).toBeGreaterThan(3);
      for (let i = 0; i < N * T; i++) if (fixed[i] >= 0) expect(cached.tokens[i]).toBe(fixed[i]);
    });
  }
});
