// CPU twin of sample_token (docs/engine.md), the ground truth of the GPU sampler and of the
// CPU engine's decoding. The conventions are those of ops.ts.

import { uniform4 } from '../core/random';
import type { F } from './float';

// ─── sampling ───────────────────────────────────────────────────────────────────────────────

/**
 * One decoding step for every sequence, at position pos.
 * If fixed[n,pos] ≥ 0 the environment owns the position: copy it, logp = entropy = 0.
 * Otherwise draw u = uniform4(seed, step, n, pos) and sample by inverse CDF, in index order,
 * from softmax(z) (z = logits·invTemp) restricted to the topK largest logits (topK = 0 or
 * ≥ V: all; ties go to the lower index). logp and entropy are those of the full tempered
 * softmax, the policy the loss trains.
 */
export function sampleToken(
  tokens: Int32Array, // [N, Tmax] i32 (written at pos)
  logp: F, // [N, Tmax] (written at pos)
  entropy: F, // [N, Tmax] (written at pos)
  logits: F, // [N, V] the next-token logits of each sequence
  fixed: Int32Array, // [N, Tmax] i32, ≥ 0 where the environment fills the position
  N: number,
  V: number,
  Tmax: number,
  pos: number,
  seed: number,
  step: number,
  invTemp: number,
  topK: number,
): void {
  const allowed = new Uint8Array(V);
  for (let n = 0; n < N; n++) {
    const o = n * Tmax + pos;
    const f = fixed[o];
    if (f >= 0) {
      tokens[o] = f;
      logp[o] = 0;
      entropy[o] = 0;
      continue;
    }
    const x = n * V;
    // allowed set: j is in the top K iff fewer than K logits beat it (ties: lower index wins)
    if (topK <= 0 || topK >= V) allowed.fill(1);
    else {
      for (let j = 0; j < V; j++) {
        const lj = logits[x + j];
        let rank = 0;
        for (let i = 0; i < V; i++) {
          const li = logits[x + i];
          if (li > lj || (li === lj && i < j)) rank++;
        }
        allowed[j] = rank < topK ? 1 : 0;
      }
    }
    let max = -Infinity;
    for (let j = 0; j < V; j++) max = Math.max(max, logits[x + j] * invTemp);
    // full softmax statistics (for logp and entropy) and the truncated mass (for sampling)
    let sumAll = 0;
    let sumAllowed = 0;
    for (let j = 0; j < V; j++) {
      const e = Math.exp(logits[x + j] * invTemp - max);
      sumAll += e;
      if (allowed[j]) sumAllowed += e;
    }
    const u = uniform4(seed, step, n, pos);
    const target = u * sumAllowed;
    let cum = 0;
    let tok = -1;
    for (let j = 0; j < V; j++) {
      if (!allowed[j]) continue;
      cum += Math.exp(logits[x + j] * invTemp - max);
      tok = j; // rounding fallback: the last allowed index
      if (target < cum) break;
    }
    const lse = max + Math.log(sumAll);
    let h = 0;
    for (let j = 0; j < V; j++) {
      const lp = logits[x + j] * invTemp - lse;
      h -= Math.exp(lp) * lp;
    }
    tokens[o] = tok;
    logp[o] = logits[x + tok] * invTemp - lse;
    entropy[o] = h;
  }
}
