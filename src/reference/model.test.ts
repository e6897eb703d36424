// Whole-model gradient check in Float64: every parameter tensor of a tiny GPT-2, on a random
// subset of its coordinates, through crossEntropyLossAndGrad (forward → logitsStats → ceLoss →
// logitsBackward → backward).

import { describe, expect, it } from 'vitest';
import { validateModelConfig, type ModelConfig } from '../model/model-config';
import { initParams } from '../model/init';
import { buildLayout, view } from '../model/layout';
import { compareGradients, formatGradcheck, numericGradient } from './gradcheck';
import { crossEntropyLossAndGrad } from './model';
import { GRADCHECK_TOL, rng } from './testing';
import { nextTokenTargets } from '../core/abi';

const cfg: ModelConfig = validateModelConfig({ vocabSize: 7, nPositions: 6, nEmbd: 8, nLayer: 2, nHead: 2 });
const layout = buildLayout(cfg);
const N = 2,
  T = 5;
const tokens = Int32Array.from([1, 4, 6, 0, 2, 5, 5, 3, 1, 6]); // [N,T]

/** Parameters far from init (std 0.5 weights, perturbed LayerNorm gains and biases), so every
 *  path carries a gradient of order 1e-2..1. */
function randomParams(seed: number): Float64Array {
  const r = rng(seed);
  const params = new Float64Array(layout.numParams);
  for (const s of layout.slots) {
    const v = view(params, s);
    for (let i = 0; i < v.length; i++) {
      v[i] =
        s.init.kind === 'ones' ? 1 + 0.3 * r.normal() : s.init.kind === 'zeros' ? 0.2 * r.normal() : 0.5 * r.normal();
    }
  }
  return params;
}

describe('reference GPT-2', () => {
  it('at init the loss is about ln V, and Float32 agrees with Float64', () => {
    const p32 = initParams(layout, 1);
    const out32 = crossEntropyLossAndGrad(layout, p32, tokens, N, T);
    const out64 = crossEntropyLossAndGrad(layout, Float64Array.from(p32), tokens, N, T);
    console.log(
      `init loss ${out64.loss.toFixed(6)} (ln V = ${Math.log(cfg.vocabSize).toFixed(6)}), |f32 − f64| = ${Math.abs(out32.loss - out64.loss).toExponential(2)}`,
    );
    expect(Math.abs(out64.loss - Math.log(cfg.vocabSize))).toBeLessThan(0.05);
    expect(Math.abs(out32.loss - out64.loss)).toBeLessThan(1e-5);
    expect(out32.grads).toBeInstanceOf(Float32Array);
  });

  it('the loss is the mean next-token NLL computed directly from the logits', () => {
    const params = randomParams(3);
    const { loss, logits } = crossEntropyLossAndGrad(layout, params, tokens, N, T);
    const targets = nextTokenTargets(tokens, N, T);
    let sum = 0;
    for (let r = 0; r < N * T; r++) {
      if (targets[r] < 0) continue;
      const row = Array.from(logits.subarray(r * cfg.vocabSize, (r + 1) * cfg.vocabSize));
      const lse = Math.log(row.reduce((a, z) => a + Math.exp(z), 0));
      sum += lse - row[targets[r]];
    }
    expect(loss).toBeCloseTo(sum / (N * (T - 1)), 12);
  });

  for (const masked of [false, true]) {
    it(`every parameter tensor passes gradcheck${masked ? ' (with a target mask)' : ''}`, () => {
      const params = randomParams(masked ? 5 : 4);
      // mask is aligned with the target token; mask[n,0] is ignored
      const mask = masked ? Float64Array.from([1, 0, 1, 1, 0, 0, 1, 1, 0, 1]) : undefined;
      const { grads } = crossEntropyLossAndGrad(layout, params, tokens, N, T, mask);
      const f = (x: Float64Array) => crossEntropyLossAndGrad(layout, x, tokens, N, T, mask).loss;
      const r = rng(masked ? 7 : 6);
      let worst = 0;
      for (const s of layout.slots) {
        // up to 6 random coordinates of each tensor (all of them for tiny tensors)
        const k = Math.min(6, s.size);
        const picked = new Set<number>();
        while (picked.size < k) picked.add(s.offset + r.int(s.size));
        const idx = [...picked];
        const numeric = numericGradient(f, params, idx);
        const res = compareGradients(grads, numeric, idx);
        console.log(formatGradcheck(`model ${s.name}`, res));
        expect(
          res.maxRelError,
          `${s.name}: coord ${res.worstIndex} analytic ${res.worstAnalytic} numeric ${res.worstNumeric}`,
        ).toBeLessThan(GRADCHECK_TOL);
        worst = Math.max(worst, res.maxRelError);
      }
      console.log(
        `gradcheck whole model${masked ? ' (masked)' : ''}: max rel ${worst.toExponential(2)} over ${layout.slots.length} tensors`,
      );
      // rows of wpe beyond T and the alignment padding get no gradient
      expect(Array.from(view(grads, layout.wpe).subarray(T * cfg.nEmbd)).every((g) => g === 0)).toBe(true);
      const inSlot = new Uint8Array(layout.numParams);
      for (const s of layout.slots) inSlot.fill(1, s.offset, s.offset + s.size);
      for (let i = 0; i < layout.numParams; i++) if (!inSlot[i]) expect(grads[i]).toBe(0);
    });
  }
});
