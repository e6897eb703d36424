// GCS's group weight (Gaussian Curriculum Sampling, the EXPO paper): not an estimator but a weight
// on any estimator's output, step 2 of the advantage pipeline (src/rl/estimators.ts). Here, in
// the estimators layer, so that the custom-code example "GRPO with GCS's weight" is generated
// from this source like the built-ins' (src/config/code-examples-gen.ts).
// Takes seqAdv [N] and returns a new Float64Array [N]; sequence i = b*G + g.

/**
 * GCS, Gaussian Curriculum Sampling (the EXPO / FG-ExPO paper, docs/methods.md) (reading): the
 * paper samples questions with weight exp(−(p − 0.5)²/(2σ²)) of their accuracy p, so training
 * dwells on its frontier. Here the weight scales the group's advantages in the batch instead
 * (in expectation what sampling ∝ weight does to the gradient), with p the group's share of
 * correct completions, renormalised to mean 1 over the groups that carry any advantage so the
 * step size stays the estimator's. sigma = 0 is off (the input, copied).
 */
export function gcsWeighting(
  seqAdv: ArrayLike<number>,
  correct: ArrayLike<number>,
  B: number,
  G: number,
  sigma: number,
): Float64Array {
  if (!(sigma >= 0) || !Number.isFinite(sigma))
    throw new RangeError(`gcsSigma must be a finite number ≥ 0, got ${sigma}`);
  const out = Float64Array.from(seqAdv);
  if (sigma === 0) return out;
  const w = new Float64Array(B);
  let sum = 0;
  let live = 0;
  for (let b = 0; b < B; b++) {
    let c = 0;
    let any = false;
    for (let g = 0; g < G; g++) {
      if (correct[b * G + g]) c++;
      if (seqAdv[b * G + g] !== 0) any = true;
    }
    const p = c / G;
    w[b] = Math.exp(-((p - 0.5) ** 2) / (2 * sigma * sigma));
    if (any) {
      sum += w[b];
      live++;
    }
  }
  if (live === 0 || !(sum > 0)) return out;
  const mean = sum / live;
  for (let b = 0; b < B; b++) for (let g = 0; g < G; g++) out[b * G + g] *= w[b] / mean;
  return out;
}
