// linear_backward's twin passes gradcheck in Float64: L = Σ dout ⊙ (inp·W + b), with inp = gelu(pre)
// for the gelu form (the fc projection's backward), on shapes that are not multiples of anything.
import { describe, it } from 'vitest';
import { linearBackward } from './linear-backward';
import { geluForward } from './ops';
import { matmul } from './matmul-twin';
import { dot, expectGrad, randn, rng, sub } from './testing';

describe('linearBackward', () => {
  const R = 7,
    IC = 5,
    OC = 3;
  for (const gelu of [false, true]) {
    it(`passes gradcheck for dinp, dW and db${gelu ? ' (through gelu)' : ''}`, () => {
      const r = rng(48 + Number(gelu));
      const x = randn(r, R * IC), // inp, or gelu's pre-activation
        W = randn(r, IC * OC),
        b = randn(r, OC),
        dout = randn(r, R * OC);
      const inpOf = (xx: Float64Array) => {
        if (!gelu) return xx;
        const g = new Float64Array(R * IC);
        geluForward(g, xx, R * IC);
        return g;
      };
      const out = new Float64Array(R * OC);
      const loss = (xx: Float64Array, WW: Float64Array, bb: Float64Array) => {
        matmul(out, inpOf(xx), WW, bb, { M: R, K: IC, N: OC });
        return dot(out, dout);
      };
      const dinp = new Float64Array(R * IC).fill(NaN), // (=): NaN shows an element not written
        dW0 = randn(r, IC * OC),
        db0 = randn(r, OC);
      const dW = dW0.slice(),
        db = db0.slice();
      linearBackward(dinp, dW, db, dout, inpOf(x), W, gelu ? x : null, R, IC, OC);
      expectGrad(`linear${gelu ? ' gelu' : ''} dinp`, (xx) => loss(xx, W, b), x, dinp);
      expectGrad(`linear${gelu ? ' gelu' : ''} dW`, (WW) => loss(x, WW, b), W, sub(dW, dW0));
      expectGrad(`linear${gelu ? ' gelu' : ''} db`, (bb) => loss(x, W, bb), b, sub(db, db0));
    });
  }
});
