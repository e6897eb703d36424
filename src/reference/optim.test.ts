// gradNorm and AdamW against hand-derived steps; the whole-buffer wrapper and its decay mask.

import { describe, expect, it } from 'vitest';
import { buildLayout } from '../model/layout';
import { adamwStep, createAdamState } from './model';
import { buildDecayMask } from '../model/layout';
import { adamw, diffNorm, gradNorm } from './ops';

const lr = 0.1,
  beta1 = 0.9,
  beta2 = 0.999,
  eps = 1e-8,
  wd = 0.1;

describe('gradNorm', () => {
  it('L2 norm and the non-finite flag', () => {
    const out = new Float64Array(2).fill(NaN);
    gradNorm(out, Float64Array.from([3, 0, -4]), 3);
    expect(Array.from(out)).toEqual([5, 0]);
    gradNorm(out, Float64Array.from([1, NaN, 2]), 3);
    expect(out[1]).toBe(1);
    gradNorm(out, Float32Array.from([1, -Infinity]), 2);
    expect(out[1]).toBe(1);
    // only the first P entries count
    gradNorm(out, Float64Array.from([3, 4, NaN]), 2);
    expect(Array.from(out)).toEqual([5, 0]);
  });
});

describe('diffNorm', () => {
  it('L2 norm of a − b and the non-finite flag', () => {
    const out = new Float64Array(2).fill(NaN);
    diffNorm(out, Float64Array.from([4, 1, -4]), Float64Array.from([1, 1, 0]), 3);
    expect(Array.from(out)).toEqual([5, 0]);
    diffNorm(out, Float64Array.from([1, Infinity]), Float64Array.from([1, 0]), 2);
    expect(out[1]).toBe(1);
  });
});

describe('adamw', () => {
  const p0 = [1, -2, 0.5, 3];
  const decay = Float64Array.from([1, 0, 1, 0]);
  const g1 = [0.5, -1, 2, 0];
  const g2 = [-0.5, -1, 1, 4];

  function run(grads: number[][], maxGradNorm: number) {
    const params = Float64Array.from(p0),
      m = new Float64Array(4),
      v = new Float64Array(4);
    const norm = new Float64Array(2);
    grads.forEach((g, k) => {
      const ga = Float64Array.from(g);
      gradNorm(norm, ga, 4);
      adamw(params, ga, m, v, decay, norm, 4, lr, beta1, beta2, eps, wd, k + 1, maxGradNorm);
    });
    return { params, m, v };
  }

  it('two steps match the hand-derived update, with and without decay', () => {
    // step 1: m̂ = g, v̂ = g², so the update is g/(|g| + eps) (+ wd·p where decayed)
    const p1 = p0.map((p, i) => p - lr * ((g1[i] === 0 ? 0 : g1[i] / (Math.abs(g1[i]) + eps)) + wd * decay[i] * p));
    expect(Array.from(run([g1], 0).params)).toEqual(p1.map((x) => expect.closeTo(x, 15)));
    // spot values: decayed 1 − 0.1·(0.5/(0.5+1e-8) + 0.1), undecayed −2 + 0.1/(1+1e-8), zero grad: unchanged
    expect(p1[0]).toBeCloseTo(0.890000002, 12);
    expect(p1[1]).toBeCloseTo(-1.900000001, 12);
    expect(p1[3]).toBe(3);
    // step 2: m = β1(1−β1)g1 + (1−β1)g2, v = β2(1−β2)g1² + (1−β2)g2², bias-corrected by 1 − β^2
    const p2 = p1.map((p, i) => {
      const mhat = (0.09 * g1[i] + 0.1 * g2[i]) / (1 - 0.81);
      const vhat = (0.000999 * g1[i] ** 2 + 0.001 * g2[i] ** 2) / (1 - 0.998001);
      return p - lr * (mhat / (Math.sqrt(vhat) + eps) + wd * decay[i] * p);
    });
    const got = run([g1, g2], 0);
    expect(Array.from(got.params)).toEqual(p2.map((x) => expect.closeTo(x, 14)));
    // coordinate 0: v̂ = 0.25 exactly, m̂ = −0.005/0.19
    expect(p2[0]).toBeCloseTo(p1[0] - 0.1 * (-0.005 / 0.19 / (0.5 + eps) + 0.1 * p1[0]), 15);
  });

  it('clips the gradient by the global norm when maxGradNorm is exceeded', () => {
    const g = [3, 4, 0, 0]; // norm 5
    const clipped = run([g], 1);
    const s = 1 / (5 + 1e-6);
    expect(Array.from(clipped.m)).toEqual(g.map((x) => expect.closeTo(0.1 * s * x, 15)));
    expect(Array.from(clipped.v)).toEqual(g.map((x) => expect.closeTo(0.001 * (s * x) ** 2, 15)));
    // a bound above the norm leaves the gradient as is
    const unclipped = run([g], 10);
    expect(Array.from(unclipped.m)).toEqual(g.map((x) => expect.closeTo(0.1 * x, 15)));
  });

  it('a non-finite gradient leaves params and moments untouched', () => {
    const params = Float64Array.from(p0),
      m = Float64Array.from([0.1, 0.2, 0.3, 0.4]);
    const v = Float64Array.from([1, 2, 3, 4]);
    const grads = Float64Array.from([1, NaN, 0, 0]);
    const norm = new Float64Array(2);
    gradNorm(norm, grads, 4);
    expect(norm[1]).toBe(1);
    adamw(params, grads, m, v, decay, norm, 4, lr, beta1, beta2, eps, wd, 3, 1);
    expect(Array.from(params)).toEqual(p0);
    expect(Array.from(m)).toEqual([0.1, 0.2, 0.3, 0.4]);
    expect(Array.from(v)).toEqual([1, 2, 3, 4]);
  });
});

describe('adamwStep / buildDecayMask', () => {
  const layout = buildLayout({ vocabSize: 5, nPositions: 3, nEmbd: 4, nLayer: 1, nHead: 2 });

  it('decay mask is 1 exactly inside rank ≥ 2 tensors', () => {
    const decay = buildDecayMask(layout);
    const expected = new Float32Array(layout.numParams);
    for (const s of layout.slots) if (s.shape.length >= 2) expected.fill(1, s.offset, s.offset + s.size);
    expect(Array.from(decay)).toEqual(Array.from(expected));
    expect(decay[layout.wte.offset]).toBe(1);
    expect(decay[layout.blocks[0].qkvb.offset]).toBe(0);
  });

  it('steps the whole buffer, counts steps, and skips a non-finite step', () => {
    const P = layout.numParams;
    const params = new Float64Array(P).fill(1);
    const grads = new Float64Array(P).fill(0.5);
    const state = createAdamState(layout, Float64Array);
    const hp = { lr, beta1, beta2, eps, weightDecay: wd, maxGradNorm: 0 };
    const r1 = adamwStep(layout, params, grads, state, hp);
    expect(r1.skipped).toBe(false);
    expect(r1.gradNorm).toBeCloseTo(0.5 * Math.sqrt(P), 12);
    expect(state.step).toBe(1);
    const w = layout.wte.offset,
      b = layout.lnfb.offset;
    expect(params[w]).toBeCloseTo(1 - lr * (0.5 / (0.5 + eps) + wd), 14); // decayed
    expect(params[b]).toBeCloseTo(1 - lr * (0.5 / (0.5 + eps)), 14); // not decayed
    const before = params.slice();
    grads[3] = Infinity;
    const r2 = adamwStep(layout, params, grads, state, hp);
    expect(r2.skipped).toBe(true);
    expect(state.step).toBe(1);
    expect(Array.from(params)).toEqual(Array.from(before));
  });
});
