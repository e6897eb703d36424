// How the board draws a walk: its stroke colour from the tone the task gave it (blue for A > 0,
// red for A < 0, grey for none), and the order walks are drawn in.

import type { BoardWalk } from '../../tasks/picture';
import { css, mix, NEGATIVE, POSITIVE, WHITE } from '../views/colour';

/** Grey for a walk with no tone (A = 0, or not computed yet). */
export const ZERO_ADVANTAGE_STROKE = 'rgb(140, 146, 156)';

/**
 * Stroke colour of a walk of tone t in [−1, 1], on the diverging palette: at least 40% saturated
 * so that a thin line still shows on white; grey for none.
 */
export function walkColour(tone: number | undefined): string {
  if (tone === undefined || !Number.isFinite(tone) || tone === 0) return ZERO_ADVANTAGE_STROKE;
  const t = 0.4 + 0.6 * Math.min(1, Math.abs(tone));
  return css(mix(WHITE, tone > 0 ? POSITIVE : NEGATIVE, t));
}

/** Drawing order: the lowest advantage first, so the best walks lie on top. */
export function walkDrawOrder(walks: readonly BoardWalk[]): BoardWalk[] {
  return [...walks].sort((a, b) => (a.advantage ?? 0) - (b.advantage ?? 0) || a.g - b.g);
}
