// Group-structure credit: Cue-GRPO and EDAS reweight advantages inside a group by how its
// completions cluster, keeping the group's total positive (Cue-GRPO) or negative (EDAS) advantage
// unchanged. (GCS's group weight, the pipeline's other step 2, is src/estimators/gcs.ts.)
// Each takes seqAdv [N] and returns a new Float64Array [N]; sequence i = b*G + g.

/** A copy of seqAdv, reweighted group by group (`start` = b·G, the group's first sequence). */
function perGroup(
  seqAdv: ArrayLike<number>,
  B: number,
  G: number,
  reweight: (adv: Float64Array, start: number) => void,
): Float64Array {
  const adv = Float64Array.from(seqAdv);
  for (let b = 0; b < B; b++) reweight(adv, b * G);
  return adv;
}

/** Counts of each label among the group's members selected by `member(i)`. */
function clusterSizes(
  labels: readonly string[],
  start: number,
  G: number,
  member: (i: number) => boolean,
): Map<string, number> {
  const sizes = new Map<string, number>();
  for (let i = start; i < start + G; i++) if (member(i)) sizes.set(labels[i], (sizes.get(labels[i]) ?? 0) + 1);
  return sizes;
}

/**
 * Multiplies adv[i] by weight(i) for i in `selected`, then rescales those entries so their sum is
 * unchanged (all of one sign, so the sum is nonzero unless the set is empty).
 */
function reweightPreservingSum(adv: Float64Array, selected: number[], weight: (i: number) => number): void {
  let before = 0;
  let after = 0;
  for (const i of selected) {
    before += adv[i];
    after += adv[i] * weight(i);
  }
  if (selected.length === 0 || after === 0 || !Number.isFinite(after)) return;
  const rescale = before / after;
  for (const i of selected) adv[i] = adv[i] * weight(i) * rescale;
}

/**
 * Cue-GRPO ("When Correct Solutions Repeat", docs/methods.md) (reading): cluster the group's correct
 * completions by strategy signature; each positive advantage of a correct completion is
 * multiplied by n_c^(−γ) (n_c = its cluster's size), then rescaled so the group's total positive
 * advantage is unchanged. Rare strategies get more of the credit; γ = 0 is the identity.
 * Positive advantages of incorrect completions (partial rewards) are left as they are.
 */
export function cueCredit(
  seqAdv: ArrayLike<number>,
  correct: ArrayLike<number>,
  signatures: readonly string[],
  B: number,
  G: number,
  gamma: number,
): Float64Array {
  return perGroup(seqAdv, B, G, (adv, start) => {
    const sizes = clusterSizes(signatures, start, G, (i) => correct[i] !== 0);
    const selected: number[] = [];
    for (let i = start; i < start + G; i++) if (correct[i] !== 0 && adv[i] > 0) selected.push(i);
    reweightPreservingSum(adv, selected, (i) => Math.pow(sizes.get(signatures[i]) ?? 1, -gamma));
  });
}

/**
 * EDAS ("Error Diversity Advantage Shaping", docs/methods.md) (reading): cluster the group's incorrect
 * completions by error signature; each negative advantage of an incorrect completion is
 * multiplied by (n_e / mean n_e)^γ (mean over the group's distinct error clusters), then
 * rescaled so the group's total negative advantage is unchanged: dominant, repeated errors are
 * penalised more, rare ones less. (The mean cancels in the rescaling; it is kept to match the
 * formula.) γ = 0 is the identity. Negative advantages of correct completions are left as they are.
 */
export function edasCredit(
  seqAdv: ArrayLike<number>,
  correct: ArrayLike<number>,
  errorSignatures: readonly string[],
  B: number,
  G: number,
  gamma: number,
): Float64Array {
  return perGroup(seqAdv, B, G, (adv, start) => {
    const sizes = clusterSizes(errorSignatures, start, G, (i) => correct[i] === 0);
    if (sizes.size === 0) return;
    let wrong = 0;
    for (const n of sizes.values()) wrong += n;
    const meanSize = wrong / sizes.size;
    const selected: number[] = [];
    for (let i = start; i < start + G; i++) if (correct[i] === 0 && adv[i] < 0) selected.push(i);
    reweightPreservingSum(adv, selected, (i) => Math.pow((sizes.get(errorSignatures[i]) ?? 1) / meanSize, gamma));
  });
}
