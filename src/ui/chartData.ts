// From runs to chart series (pure): which metrics each chart shows, one series per run and
// metric, each downsampled to the point budget.

import type { RunRecord } from '../store/runs';
import { downsample, downsampleRows, POINT_BUDGET, type XY } from './downsample';

export interface Series {
  /** Unique within a chart: `${runId}:${key}`. */
  id: string;
  runId: string;
  key: string;
  /** Legend text: "#2 pass@1". */
  name: string;
  color: string;
  /** Dash pattern of the metric within its chart ('' = solid). */
  dash: string;
  points: XY[];
}

/** Colours of runs, in order (active run first). */
export const RUN_COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

/** The steps and values of one scalar of a run, skipping steps that lack it. */
export function scalarSeries(run: RunRecord, key: string): XY[] {
  const out: XY[] = [];
  for (const p of run.points) {
    const y = key === 'level' ? p.level : p.scalars[key];
    if (y !== undefined && Number.isFinite(y)) out.push({ x: p.step, y });
  }
  return out;
}

/** The held-out eval points of a run: key is 'eval/pass@1_greedy' or 'eval/pass@k'. */
export function evalSeries(run: RunRecord, key: 'eval/pass@1_greedy' | 'eval/pass@k' | 'eval/pass@1_sampled'): XY[] {
  return run.evals.map((e) => ({ x: e.step, y: e[key] }));
}

/** A run's colour: fixed by its number (#1, #2, …), so it stays the same whatever is overlaid. */
export function runColor(run: RunRecord): string {
  const n = Number(/^#(\d+)$/.exec(run.name)?.[1] ?? 1);
  return RUN_COLORS[(Math.max(1, n) - 1) % RUN_COLORS.length];
}

/**
 * One series per (run, key). One run: a colour per metric. Several runs: a colour per run
 * (runColor) and a dash pattern per metric.
 */
export function chartSeries(runs: readonly RunRecord[], keys: readonly string[], budget = POINT_BUDGET): Series[] {
  const out: Series[] = [];
  runs.forEach((run) => {
    keys.forEach((key, k) => {
      const points = downsample(scalarSeries(run, key), budget);
      if (points.length === 0) return;
      out.push({
        id: `${run.id}:${key}`,
        runId: run.id,
        key,
        name: runs.length > 1 ? `${run.name} ${key}` : key,
        color: runs.length > 1 ? runColor(run) : RUN_COLORS[k % RUN_COLORS.length],
        dash: runs.length > 1 ? DASHES[k % DASHES.length] : '',
        points,
      });
    });
  });
  return out;
}

/** Keys of task metrics (scalars prefixed "task/") present in any of the runs, sorted. */
export function taskMetricKeys(runs: readonly RunRecord[]): string[] {
  const keys = new Set<string>();
  for (const run of runs) {
    const last = run.points[run.points.length - 1];
    if (!last) continue;
    for (const k of Object.keys(last.scalars)) if (k.startsWith('task/')) keys.add(k);
  }
  return [...keys].sort();
}

/** The pass@k key shown next to pass@1: k = min(evalK, G), at least 2 when G allows. */
export function passAtKKey(groupSize: number, evalK: number): string {
  const k = Math.max(Math.min(evalK, groupSize), Math.min(2, groupSize));
  return `pass@${k}`;
}

/** Bars of a histogram: bin centre and count. */
export function histogramBars(h: { counts: readonly number[]; edges: readonly number[] } | undefined): { x: number; count: number }[] {
  if (!h) return [];
  return h.counts.map((count, i) => ({ x: (h.edges[i] + h.edges[i + 1]) / 2, count }));
}

/** Rows {x: step, key: value, …} of several scalars of one run (for stacked charts), downsampled. */
export function stackedRows(run: RunRecord, keys: readonly string[], budget = POINT_BUDGET): Record<string, number>[] {
  const rows = run.points.map((p) => {
    const row: Record<string, number> = { x: p.step };
    for (const k of keys) row[k] = p.scalars[k] ?? 0;
    return row;
  });
  return downsampleRows(rows, budget);
}
