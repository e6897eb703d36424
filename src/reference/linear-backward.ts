// The CPU twin of linear_backward (shaders/linear_backward.wgsl; docs/engine.md): a linear layer's
// three gradients, each by the twin of the kernel the GPU fuses, in the order the model called them.

import type { F } from './float';
import { biasBackward, geluBackward } from './ops';
import { matmul } from './matmul-twin';

/**
 * The backward of out[R,OC] = inp[R,IC]·W[IC,OC] + b: dinp (=) dout·Wᵀ, or gelu'(geluPre)·(dout·Wᵀ)
 * when geluPre is given (inp = gelu(geluPre)); dW (+=) inpᵀ·dout; db (+=) Σ_r dout[r,·].
 */
export function linearBackward(
  dinp: F, // [R, IC] (=)
  dW: F, // [IC, OC] (+=)
  db: F, // [OC] (+=)
  dout: F, // [R, OC]
  inp: F, // [R, IC]
  W: F, // [IC, OC]
  geluPre: F | null, // [R, IC] or null
  R: number,
  IC: number,
  OC: number,
): void {
  matmul(dinp, dout, W, null, { M: R, K: OC, N: IC, transB: true });
  if (geluPre) geluBackward(dinp, geluPre, dinp, R * IC);
  matmul(dW, inp, dout, null, { M: IC, K: R, N: OC, transA: true, accumulate: true });
  biasBackward(db, dout, R, OC);
}
