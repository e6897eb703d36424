// Reward shaping and group filtering from DAPO (Yu et al. 2025): overlong shaping and the
// informative-group test behind dynamic sampling. Pure functions on [N] arrays, i = b*G + g.

import { groupIsAllEqual } from '../estimators';

/**
 * DAPO soft overlong punishment: 0 for L ≤ Lmax − Lbuf, (Lmax − Lbuf − L)/Lbuf on
 * (Lmax − Lbuf, Lmax] (reaching −1 at Lmax), −1 beyond Lmax. Lbuf = 0 means no shaping zone:
 * 0 up to Lmax, −1 beyond.
 */
export function overlongPenalty(length: number, maxLength: number, bufferLength: number): number {
  if (!(bufferLength >= 0) || !(maxLength >= bufferLength)) {
    throw new RangeError(
      `overlong shaping needs 0 ≤ bufferLength ≤ maxLength, got bufferLength=${bufferLength}, maxLength=${maxLength}`,
    );
  }
  if (length > maxLength) return -1;
  const soft = maxLength - bufferLength;
  if (length <= soft) return 0;
  return (soft - length) / bufferLength;
}

/**
 * rewards + overlongPenalty(lengths) [N], a new array. NOT clamped: shaped rewards lie in
 * [−1, 1], no longer [0, 1], and `correct` is unchanged (a correct completion can end up with a
 * reward ≤ 0). Estimators accept any finite reward; report the unshaped `reward` metric too.
 */
export function applyOverlongShaping(
  rewards: ArrayLike<number>,
  lengths: ArrayLike<number>,
  maxLength: number,
  bufferLength: number,
): Float64Array {
  if (rewards.length !== lengths.length) {
    throw new RangeError(`applyOverlongShaping: lengths has ${lengths.length} entries, rewards has ${rewards.length}`);
  }
  const out = new Float64Array(rewards.length);
  for (let i = 0; i < rewards.length; i++) out[i] = rewards[i] + overlongPenalty(lengths[i], maxLength, bufferLength);
  return out;
}

/**
 * DAPO dynamic sampling: which of the B groups are informative [B], i.e. not all G rewards
 * exactly equal. All-equal groups give zero advantage under every group-relative estimator.
 */
export function informativeGroups(rewards: ArrayLike<number>, B: number, G: number): boolean[] {
  if (rewards.length !== B * G) {
    throw new RangeError(`informativeGroups: rewards has ${rewards.length} entries, expected B*G = ${B * G}`);
  }
  const out: boolean[] = [];
  for (let b = 0; b < B; b++) out.push(!groupIsAllEqual(rewards, b, G));
  return out;
}
