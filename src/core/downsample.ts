// Charts stay cheap however long the run: every series is cut down to a fixed point budget
// before it is drawn.

export interface XY {
  x: number;
  y: number;
}

/** Points each chart series may draw at most. */
export const POINT_BUDGET = 300;

/**
 * At most `budget` points: consecutive points are grouped into `budget` equal buckets by index
 * and each bucket becomes its mean x and mean y. The first and last points are kept exactly,
 * so the curve starts and ends where the data does. Non-finite y values are skipped.
 */
export function downsample(points: readonly XY[], budget = POINT_BUDGET): XY[] {
  const finite = points.every((p) => Number.isFinite(p.y)) ? points : points.filter((p) => Number.isFinite(p.y));
  const n = finite.length;
  if (budget < 1) return [];
  if (n <= budget) return finite.slice();
  if (budget === 1) return [finite[n - 1]];
  if (budget === 2) return [finite[0], finite[n - 1]];
  const out: XY[] = [finite[0]];
  const inner = budget - 2; // buckets between the kept end points
  const span = n - 2;
  for (let b = 0; b < inner; b++) {
    const from = 1 + Math.floor((b * span) / inner);
    const to = 1 + Math.floor(((b + 1) * span) / inner);
    let sx = 0;
    let sy = 0;
    for (let i = from; i < to; i++) {
      sx += finite[i].x;
      sy += finite[i].y;
    }
    const count = to - from;
    if (count > 0) out.push({ x: sx / count, y: sy / count });
  }
  out.push(finite[n - 1]);
  return out;
}

/**
 * The same bucketing for rows of several numeric fields (every field averaged per bucket,
 * first and last rows kept): stacked charts need their series on shared x values.
 */
export function downsampleRows<R extends Record<string, number>>(rows: readonly R[], budget = POINT_BUDGET): R[] {
  const n = rows.length;
  if (budget < 1) return [];
  if (n <= budget) return rows.slice();
  if (budget === 1) return [rows[n - 1]];
  if (budget === 2) return [rows[0], rows[n - 1]];
  const keys = Object.keys(rows[0]);
  const out: R[] = [rows[0]];
  const inner = budget - 2;
  const span = n - 2;
  for (let b = 0; b < inner; b++) {
    const from = 1 + Math.floor((b * span) / inner);
    const to = 1 + Math.floor(((b + 1) * span) / inner);
    if (to <= from) continue;
    const mean: Record<string, number> = {};
    for (const k of keys) {
      let sum = 0;
      for (let i = from; i < to; i++) sum += rows[i][k];
      mean[k] = sum / (to - from);
    }
    out.push(mean as R);
  }
  out.push(rows[n - 1]);
  return out;
}
