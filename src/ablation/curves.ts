// Statistics of an ablation (this file: the input, mean curves and final values; solve.ts: steps
// to solve; summary.ts: comparisons and the verdict): runs grouped into cells (one cell = one combination of grid values
// or one named variant; its runs = its seeds), summarised so a reader cannot mistake noise for
// an effect. Pure (plain data in, plain data out, no Node or DOM APIs): the page and
// `rlvr sweep` / `rlvr report` call the same `summarizeAblation` and get the same numbers.
//
// What it computes, per cell and metric:
// - the mean curve with a 95% band over seeds: at each step every run recorded, mean ± a t
//   interval (t, not a bootstrap: with 2–8 seeds a bootstrap band is too narrow; see
//   small-sample-stats.ts). Runs are aligned on their step numbers, not resampled; a point says
//   how many runs it averages, so a run that stopped early is visible as a smaller n; a rate's
//   interval is cut to [0, 1] (a symmetric t interval of a mean near 1 would pass 1);
// - the final value (the last point, or the mean of the last few steps for noisy per-step
//   metrics), its mean with a t interval and every seed's value;
// - "solved at step": the first step the metric reaches a target (optionally only at or above a
//   curriculum level). A run that never does is censored at its last step: "k/n solved within N
//   steps", a Kaplan–Meier "solved by step t" curve, its median (when at least half solved) with a
//   seeded bootstrap interval over seeds;
// - comparisons between cells by exact permutation tests over seeds (Holm-adjusted within each
//   family), and a verdict in plain words that says "not different at this many seeds" unless
//   the test says otherwise, and says when the seed counts cannot support any claim at all.
//
// From the page (its kept runs, grouped by the cells of ./spec.ts):
//   const cells = ablationCells(spec).map((c) => ({ label: c.label, set: c.set, variant: c.variant,
//     runs: recordsOf(c).map(seedRunFromRecord) }));            // seedRunFromRecord: ./runs
//   const stats = summarizeAblation(cells, { metrics: spec.metrics, solved: spec.solved });
//   ablationMarkdown(stats, { title })                          // ./report, the CLI's summary.md
// The CLI does the same from run folders (src/cli/ablation-folders.ts), so equal runs give equal
// statistics.

import { metricSpec } from '../config/metric-names';
import { median } from '../core/numeric';
import { meanInterval, type MeanInterval } from './small-sample-stats';

// ── input ──────────────────────────────────────────────────────────────────────────────────

/** One recorded value of a metric. */
export interface SeriesPoint {
  step: number;
  value: number;
  /** The curriculum level the value was measured at, when known. */
  level?: number;
}

/** One run (one seed of a cell): its metrics as series, keyed by the metric's machine name. */
export interface SeedRun {
  seed: number;
  /** The last step the run trained: a run that never solved is censored here. */
  lastStep: number;
  /** metric key (TRL names: "reward", "eval/pass@1_greedy", "level", …) → points in step order. */
  series: Readonly<Record<string, readonly SeriesPoint[]>>;
  /** Where the run came from (a folder, a run id), carried through to the summary. */
  id?: string;
}

/** A cell: the runs of one configuration, one per seed. */
export interface AblationCell {
  label: string;
  runs: readonly SeedRun[];
  /** What distinguishes the cell (knob → value, and/or the variant's label), carried through. */
  set?: Readonly<Record<string, string | number | boolean>>;
  variant?: string;
}

/** "Solved" = the first step at which `metric` ≥ `target` (measured at level ≥ `level` when given). */
export interface SolvedRule {
  metric: string;
  target: number;
  level?: number;
}

// ── curves and final values ────────────────────────────────────────────────────────────────

/** The values a metric can take: an interval of its mean is cut to them (a rate's mean is never above 1). */
export interface MetricRange {
  min: number;
  max: number;
}

/**
 * Rates (the metrics documented as 0–1 or as shares, their held-out figures and held-out pass@k
 * included) lie in [0, 1];
 * entropies, KL and lengths are never negative; others are unbounded.
 */
export function defaultMetricRange(metric: string): MetricRange | null {
  const spec = metricSpec(metric);
  if (spec?.unit === '0–1' || spec?.scale === 'share' || /^eval\/pass@/.test(metric)) return { min: 0, max: 1 };
  const unit = spec?.unit;
  if (unit === 'nats/token' || unit === 'tokens' || metric === 'level') return { min: 0, max: Infinity };
  return null;
}

function clipInterval<T extends { lo: number | null; hi: number | null }>(
  m: T,
  range: MetricRange | null | undefined,
): T {
  if (!range || m.lo === null || m.hi === null) return m;
  return { ...m, lo: Math.max(range.min, m.lo), hi: Math.min(range.max, m.hi) };
}

export interface BandPoint {
  step: number;
  /** Runs that recorded this step. */
  n: number;
  mean: number;
  /** The t interval over those runs; null when n < 2. */
  lo: number | null;
  hi: number | null;
}

/**
 * The mean curve of `metric` over the runs with its t band. Runs are aligned on step numbers:
 * a point averages the runs that recorded that step (at least `minRuns`). With `maxPoints`,
 * evenly spaced steps are kept (the last one always): a thinned curve, never a smoothed one.
 */
export function meanCurve(
  runs: readonly SeedRun[],
  metric: string,
  options: { confidence?: number; maxPoints?: number; minRuns?: number; range?: MetricRange | null } = {},
): BandPoint[] {
  const byStep = new Map<number, number[]>();
  for (const run of runs) {
    for (const p of run.series[metric] ?? []) {
      if (!Number.isFinite(p.value)) continue;
      let list = byStep.get(p.step);
      if (!list) byStep.set(p.step, (list = []));
      list.push(p.value);
    }
  }
  let steps = [...byStep.keys()].filter((s) => byStep.get(s)!.length >= (options.minRuns ?? 1)).sort((a, b) => a - b);
  const max = options.maxPoints;
  if (max !== undefined && max >= 2 && steps.length > max) {
    const kept = new Set<number>();
    for (let i = 0; i < max; i++) kept.add(steps[Math.round((i * (steps.length - 1)) / (max - 1))]);
    steps = steps.filter((s) => kept.has(s));
  }
  return steps.map((step) => {
    const m = clipInterval(meanInterval(byStep.get(step)!, options.confidence ?? 0.95), options.range);
    return { step, n: m.n, mean: m.mean, lo: m.lo, hi: m.hi };
  });
}

/**
 * A run's final value of `metric`: the mean of its last `window` points (1 = the last point).
 * null when the run never recorded the metric.
 */
export function finalValue(run: SeedRun, metric: string, window = 1): number | null {
  const pts = (run.series[metric] ?? []).filter((p) => Number.isFinite(p.value));
  if (pts.length === 0) return null;
  const tail = pts.slice(-Math.max(1, window));
  return tail.reduce((s, p) => s + p.value, 0) / tail.length;
}

/**
 * Points averaged for a final value, by default: 1 for held-out evaluations and the level (each
 * is already one measurement of the state at that step), 10 for per-step training metrics (one
 * step's reward is an estimate from one batch, and it swings from step to step).
 */
export function defaultFinalWindow(metric: string): number {
  return metric.startsWith('eval/') || metric === 'level' ? 1 : 10;
}

export interface FinalStats extends MeanInterval {
  metric: string;
  /** Points averaged per run. */
  window: number;
  median: number;
  /** Every run's final value (runs without the metric left out). */
  values: { seed: number; value: number }[];
}

export function finalStats(
  runs: readonly SeedRun[],
  metric: string,
  options: { window?: number; confidence?: number; range?: MetricRange | null } = {},
): FinalStats {
  const window = options.window ?? defaultFinalWindow(metric);
  const values: { seed: number; value: number }[] = [];
  for (const run of runs) {
    const v = finalValue(run, metric, window);
    if (v !== null) values.push({ seed: run.seed, value: v });
  }
  const xs = values.map((v) => v.value);
  return {
    metric,
    window,
    ...clipInterval(meanInterval(xs, options.confidence ?? 0.95), options.range),
    median: xs.length ? median(xs) : NaN,
    values,
  };
}
