// Seeded initialisation, GPT-2's: N(0, 0.02), residual projections N(0, 0.02/sqrt(2L)),
// biases 0, LayerNorm gains 1. Padding between slots stays 0.

import { makeRng, STREAM } from '../core/random';
import type { ParamLayout } from './layout';

export function initParams(layout: ParamLayout, seed: number): Float32Array {
  const params = new Float32Array(layout.numParams);
  const rng = makeRng(seed, STREAM.init);
  for (const slot of layout.slots) {
    const v = params.subarray(slot.offset, slot.offset + slot.size);
    if (slot.init.kind === 'ones') v.fill(1);
    else if (slot.init.kind === 'normal') {
      for (let i = 0; i < v.length; i++) v[i] = rng.normal() * slot.init.std;
    }
  }
  return params;
}
