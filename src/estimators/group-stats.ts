// Small statistics the estimators share. Layout everywhere: B prompts × G completions, sequence
// i = b*G + g, arrays of length N = B*G. The custom-code examples include the ones they use
// (src/config/code-examples-gen.ts), so keep each a plain, self-contained function.

/** Added to the std in GRPO's denominator (TRL's value), so all-but-equal groups stay finite. */
export const GRPO_EPS = 1e-4;

/** The rewards of a batch, or any list of numbers. */
export type Rewards = ArrayLike<number>;

/** Mean of x[start, end) (0 for an empty range). */
export function mean(x: Rewards, start: number, end: number): number {
  let s = 0;
  for (let i = start; i < end; i++) s += x[i];
  return end > start ? s / (end - start) : 0;
}

/**
 * Sample standard deviation (denominator n − 1, like torch.std and TRL) of x[start, end).
 * Fewer than two values have no spread: 0.
 */
export function sampleStd(x: Rewards, start = 0, end = x.length): number {
  const n = end - start;
  if (n < 2) return 0;
  const m = mean(x, start, end);
  let ss = 0;
  for (let i = start; i < end; i++) ss += (x[i] - m) * (x[i] - m);
  return Math.sqrt(ss / (n - 1));
}

/** True when every reward of group b is exactly the same. */
export function groupIsAllEqual(rewards: Rewards, b: number, G: number): boolean {
  const first = rewards[b * G];
  for (let g = 1; g < G; g++) if (rewards[b * G + g] !== first) return false;
  return true;
}

/**
 * C(n−c, k) / C(n, k) as a product of ratios (no factorials, no overflow): the probability that
 * k of n draws without replacement all miss the c correct ones. 0 when n − c < k.
 */
export function allMissProbability(n: number, c: number, k: number): number {
  if (n - c < k) return 0;
  let p = 1;
  for (let j = 0; j < k; j++) p *= (n - c - j) / (n - j);
  return p;
}

/** Unbiased pass@k (Chen et al. 2021, Codex): 1 − C(n−c, k)/C(n, k) for c correct of n samples. */
export function unbiasedPassAtK(n: number, c: number, k: number): number {
  return 1 - allMissProbability(n, c, k);
}
