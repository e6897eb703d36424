// Statistics of an ablation: runs grouped into cells (one cell = one combination of grid values
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
// From the page (its kept runs, grouped by the cells of src/config/ablation.ts):
//   const cells = ablationCells(spec).map((c) => ({ label: c.label, set: c.set, variant: c.variant,
//     runs: recordsOf(c).map(seedRunFromRecord) }));            // seedRunFromRecord: ./ablation-runs
//   const stats = summarizeAblation(cells, { metrics: spec.metrics, solved: spec.solved });
//   ablationMarkdown(stats, { title })                          // ./ablation-report, the CLI's summary.md
// The CLI does the same from run folders (src/cli/ablation-folders.ts), so equal runs give equal
// statistics.

import { METRICS, metricName } from '../config/metrics';
import { median } from '../core/stats';
import {
  holmAdjust, meanInterval, permutationTest, quantileSorted, seededRandom, welchInterval,
  type MeanInterval,
} from './small-sample-stats';

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
 * Rates (the metrics documented as 0–1, held-out and task rates included) lie in [0, 1];
 * entropies, KL and lengths are never negative; others are unbounded.
 */
export function defaultMetricRange(metric: string): MetricRange | null {
  if (METRICS[metric]?.unit === '0–1' || /^eval\/pass@/.test(metric) || /^(eval\/)?task\/cot_alignment/.test(metric)) return { min: 0, max: 1 };
  const unit = METRICS[metric]?.unit;
  if (unit === 'nats/token' || unit === 'tokens' || metric === 'level') return { min: 0, max: Infinity };
  return null;
}

function clipInterval<T extends { lo: number | null; hi: number | null }>(m: T, range: MetricRange | null | undefined): T {
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
  return { metric, window, ...clipInterval(meanInterval(xs, options.confidence ?? 0.95), options.range), median: xs.length ? median(xs) : NaN, values };
}

// ── solved at step (censored) ──────────────────────────────────────────────────────────────

export interface SolveOutcome {
  seed: number;
  /** The first step the rule held; null when it never did (censored at lastStep). */
  solvedAt: number | null;
  lastStep: number;
}

/** When a run first met the rule, or null (censored at its last step). */
export function solveOutcome(run: SeedRun, rule: SolvedRule): SolveOutcome {
  for (const p of run.series[rule.metric] ?? []) {
    if (rule.level !== undefined && !(p.level !== undefined && p.level >= rule.level)) continue;
    if (p.value >= rule.target) return { seed: run.seed, solvedAt: p.step, lastStep: run.lastStep };
  }
  return { seed: run.seed, solvedAt: null, lastStep: run.lastStep };
}

export interface KaplanMeierPoint {
  step: number;
  /** Estimated share of runs solved by this step (1 − the Kaplan–Meier survival). */
  solved: number;
  /** Runs still unsolved and still running just before this step. */
  atRisk: number;
  /** Runs that solved exactly at this step. */
  events: number;
}

/**
 * The Kaplan–Meier "solved by step t" curve: a step function that starts at (0, 0) and jumps
 * at every step some run solved. A run censored at step c counts as at risk up to and
 * including c (it was still unsolved when it stopped), so runs of different lengths are handled.
 */
export function kaplanMeier(outcomes: readonly SolveOutcome[]): KaplanMeierPoint[] {
  const times = [...new Set(outcomes.filter((o) => o.solvedAt !== null).map((o) => o.solvedAt!))].sort((a, b) => a - b);
  const points: KaplanMeierPoint[] = [{ step: 0, solved: 0, atRisk: outcomes.length, events: 0 }];
  let survival = 1;
  for (const t of times) {
    const atRisk = outcomes.filter((o) => (o.solvedAt !== null ? o.solvedAt >= t : o.lastStep >= t)).length;
    const events = outcomes.filter((o) => o.solvedAt === t).length;
    survival *= 1 - events / atRisk;
    points.push({ step: t, solved: 1 - survival, atRisk, events });
  }
  return points;
}

/**
 * The median steps to solve from a Kaplan–Meier curve: the first step where at least half are
 * solved; when the curve sits at exactly one half, the midpoint to its next jump (so with no
 * censoring it is the ordinary median; with no later jump, the step itself). null when fewer
 * than half solved: "not reached".
 */
export function kaplanMeierMedian(curve: readonly KaplanMeierPoint[]): number | null {
  const eps = 1e-12;
  for (let i = 1; i < curve.length; i++) {
    if (Math.abs(curve[i].solved - 0.5) < eps) return i + 1 < curve.length ? (curve[i].step + curve[i + 1].step) / 2 : curve[i].step;
    if (curve[i].solved > 0.5) return curve[i].step;
  }
  return null;
}

export interface SolveStats {
  rule: SolvedRule;
  n: number;
  solved: number;
  /** The shortest and longest run (the budget the unsolved runs are censored at). */
  within: { min: number; max: number };
  outcomes: SolveOutcome[];
  curve: KaplanMeierPoint[];
  /** Median steps to solve; null when fewer than half solved. */
  median: number | null;
  /**
   * Percentile bootstrap interval of the median over seeds (resampling runs, fixed seed); null
   * with fewer than 3 runs or no median. `hi` null: the upper bound is beyond the budget.
   */
  medianInterval: { lo: number; hi: number | null } | null;
}

/** Bootstrap resamples and the fixed seed of their generator: the same data give the same interval. */
export const BOOTSTRAP_RESAMPLES = 2000;
export const BOOTSTRAP_SEED = 12345;

export function solveStats(runs: readonly SeedRun[], rule: SolvedRule, options: { confidence?: number; resamples?: number; seed?: number } = {}): SolveStats {
  const outcomes = runs.map((r) => solveOutcome(r, rule));
  const curve = kaplanMeier(outcomes);
  const med = kaplanMeierMedian(curve);
  let medianIntervalOut: SolveStats['medianInterval'] = null;
  if (med !== null && outcomes.length >= 3) {
    const rand = seededRandom(options.seed ?? BOOTSTRAP_SEED);
    const meds: number[] = [];
    for (let b = 0; b < (options.resamples ?? BOOTSTRAP_RESAMPLES); b++) {
      const sample = outcomes.map(() => outcomes[Math.floor(rand() * outcomes.length)]);
      meds.push(kaplanMeierMedian(kaplanMeier(sample)) ?? Infinity);
    }
    meds.sort((a, b) => a - b);
    const alpha = 1 - (options.confidence ?? 0.95);
    const hi = quantileSorted(meds, 1 - alpha / 2);
    medianIntervalOut = { lo: quantileSorted(meds, alpha / 2), hi: Number.isFinite(hi) ? hi : null };
  }
  const lasts = outcomes.map((o) => o.lastStep);
  return {
    rule,
    n: outcomes.length,
    solved: outcomes.filter((o) => o.solvedAt !== null).length,
    within: { min: lasts.length ? lasts.reduce((a, b) => Math.min(a, b)) : 0, max: lasts.length ? lasts.reduce((a, b) => Math.max(a, b)) : 0 },
    outcomes,
    curve,
    median: med,
    medianInterval: medianIntervalOut,
  };
}

/** The KM curve's value at step t ("solved by step t"). */
export function solvedBy(curve: readonly KaplanMeierPoint[], t: number): number {
  let v = 0;
  for (const p of curve) if (p.step <= t) v = p.solved;
  return v;
}

// ── comparisons ────────────────────────────────────────────────────────────────────────────

/**
 * Gehan's pairwise score for "x solved before y": +1 when x certainly solved first, −1 when y
 * certainly did, 0 when it cannot be told (both unsolved, or one unsolved and stopped before
 * the other solved). Summed over all pairs it is a rank statistic that respects censoring.
 */
export function gehanScore(x: SolveOutcome, y: SolveOutcome): number {
  if (x.solvedAt !== null && y.solvedAt !== null) return Math.sign(y.solvedAt - x.solvedAt);
  if (x.solvedAt !== null) return x.solvedAt <= y.lastStep ? 1 : 0;
  if (y.solvedAt !== null) return y.solvedAt <= x.lastStep ? -1 : 0;
  return 0;
}

export type ComparisonVerdict = 'a-higher' | 'b-higher' | 'a-faster' | 'b-faster' | 'not-different' | 'too-few-seeds' | 'no-data';

export interface Comparison {
  /** 'final': the final values of `metric`; 'solve': steps to solve under the rule. */
  kind: 'final' | 'solve';
  metric: string;
  a: string;
  b: string;
  nA: number;
  nB: number;
  /** final: mean(a) − mean(b) with Welch's t interval; solve: median(a) − median(b) when both exist. */
  difference: number | null;
  interval: { lo: number | null; hi: number | null } | null;
  /** The observed test statistic: mean(a) − mean(b), or Gehan's sum (> 0: a solved sooner). */
  statistic: number;
  /** Two-sided permutation p over seeds (difference of means, or Gehan's statistic), before and after Holm's adjustment in its family. */
  p: number | null;
  pAdjusted: number | null;
  /** The smallest p these seed counts allow. */
  minP: number | null;
  verdict: ComparisonVerdict;
  text: string;
}

export interface AblationOptions {
  /**
   * Metrics to summarise; the first recorded one is the primary one (its comparisons go into the
   * verdict). Metrics no run recorded are left out (e.g. held-out pass@1 with evalEvery 0).
   */
  metrics: readonly string[];
  solved?: SolvedRule | null;
  /** Points per run averaged for a final value (default: defaultFinalWindow). */
  finalWindow?: (metric: string) => number;
  /** The range a metric's values lie in, to cut its intervals to (default: defaultMetricRange). */
  range?: (metric: string) => MetricRange | null;
  /** Interval level, default 0.95. */
  confidence?: number;
  /** Significance level after Holm's adjustment, default 0.05. */
  alpha?: number;
  /** Points kept per mean curve (default 300). */
  maxCurvePoints?: number;
  /**
   * Which pairs to compare: every pair (default when there are at most 4 cells), or each cell
   * against the first ("baseline", the default beyond 4 cells).
   */
  compare?: 'all-pairs' | 'baseline';
}

export interface CellSummary {
  label: string;
  set?: Readonly<Record<string, string | number | boolean>>;
  variant?: string;
  runs: { seed: number; id?: string; lastStep: number; solvedAt: number | null; finals: Record<string, number | null> }[];
  curves: Record<string, BandPoint[]>;
  finals: Record<string, FinalStats>;
  solve: SolveStats | null;
}

export interface AblationStats {
  metrics: string[];
  solved: SolvedRule | null;
  confidence: number;
  alpha: number;
  cells: CellSummary[];
  comparisons: Comparison[];
  /** Plain-language sentences, most important first. */
  verdict: string[];
}

// ── wording ────────────────────────────────────────────────────────────────────────────────

/** Whole steps with thousands separators ("1,500"); fixed locale so the text is the same everywhere. */
export function formatSteps(n: number): string {
  const r = Math.round(n);
  return String(r).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatValue(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  return a !== 0 && (a < 0.01 || a >= 1000) ? v.toPrecision(3) : v.toFixed(a >= 100 ? 0 : a >= 10 ? 1 : 2);
}

function formatP(p: number): string {
  return p < 0.001 ? '< 0.001' : `= ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
}

function withinText(w: { min: number; max: number }): string {
  return w.min === w.max ? formatSteps(w.max) : `${formatSteps(w.min)}–${formatSteps(w.max)}`;
}

export function ruleText(rule: SolvedRule): string {
  return `${metricName(rule.metric)} ≥ ${rule.target}${rule.level !== undefined ? ` at level ≥ ${rule.level}` : ''}`;
}

/** "clip-higher: solved in 4/4 seeds, median 610 steps [550, 700]" and its censored forms. */
export function solveSentence(label: string, s: SolveStats): string {
  const head = `${label}: solved in ${s.solved}/${s.n} seed${s.n === 1 ? '' : 's'}`;
  if (s.solved === 0) return `${head} within ${withinText(s.within)} steps`;
  const within = s.solved < s.n ? ` within ${withinText(s.within)} steps` : '';
  if (s.median === null) return `${head}${within} (fewer than half: no median)`;
  const iv = s.medianInterval
    ? ` [${formatSteps(s.medianInterval.lo)}, ${s.medianInterval.hi === null ? `> ${formatSteps(s.within.max)}` : formatSteps(s.medianInterval.hi)}]`
    : '';
  return `${head}${within}, median ${formatSteps(s.median)} steps${iv}`;
}

function tooFewText(nA: number, nB: number, minP: number, alpha: number): string {
  return `with ${nA} and ${nB} seeds no permutation test can reach p < ${alpha}; the smallest possible p is ${minP.toFixed(2)}`;
}

// ── the summary ────────────────────────────────────────────────────────────────────────────

function pairsOf(n: number, mode: 'all-pairs' | 'baseline'): [number, number][] {
  const out: [number, number][] = [];
  if (mode === 'baseline') for (let j = 1; j < n; j++) out.push([0, j]);
  else for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out.push([i, j]);
  return out;
}

function compareFinal(metric: string, a: CellSummary, b: CellSummary, confidence: number): Comparison {
  const fa = a.finals[metric];
  const fb = b.finals[metric];
  const xa = fa.values.map((v) => v.value);
  const xb = fb.values.map((v) => v.value);
  const base = { kind: 'final' as const, metric, a: a.label, b: b.label, nA: xa.length, nB: xb.length };
  if (xa.length === 0 || xb.length === 0) {
    return { ...base, difference: null, interval: null, statistic: 0, p: null, pAdjusted: null, minP: null, verdict: 'no-data', text: '' };
  }
  const w = welchInterval(xa, xb, confidence);
  const perm = permutationTest(xa, xb, (ga, gb) => {
    let sa = 0;
    let sb = 0;
    for (const x of ga) sa += x;
    for (const x of gb) sb += x;
    return sa / ga.length - sb / gb.length;
  });
  return { ...base, difference: w.difference, interval: { lo: w.lo, hi: w.hi }, statistic: perm.observed, p: perm.p, pAdjusted: perm.p, minP: perm.minP, verdict: 'not-different', text: '' };
}

function compareSolve(a: CellSummary, b: CellSummary): Comparison {
  const sa = a.solve!;
  const sb = b.solve!;
  const base = { kind: 'solve' as const, metric: sa.rule.metric, a: a.label, b: b.label, nA: sa.n, nB: sb.n };
  if (sa.n === 0 || sb.n === 0) return { ...base, difference: null, interval: null, statistic: 0, p: null, pAdjusted: null, minP: null, verdict: 'no-data', text: '' };
  const perm = permutationTest(sa.outcomes, sb.outcomes, (ga, gb) => {
    let u = 0;
    for (const x of ga) for (const y of gb) u += gehanScore(x, y);
    return u;
  });
  const difference = sa.median !== null && sb.median !== null ? sa.median - sb.median : null;
  return { ...base, difference, interval: null, statistic: perm.observed, p: perm.p, pAdjusted: perm.p, minP: perm.minP, verdict: 'not-different', text: '' };
}

/** Decides and words a comparison once its Holm-adjusted p is known. */
function judge(c: Comparison, cells: readonly CellSummary[], alpha: number, confidence: number): Comparison {
  const name = metricName(c.metric);
  const nSeeds = `${c.nA} and ${c.nB} seeds`;
  if (c.verdict === 'no-data') return { ...c, text: `${c.a} vs ${c.b}: no ${name} values to compare` };
  if (c.nA < 2 || c.nB < 2) {
    return { ...c, verdict: 'too-few-seeds', text: `${c.a} vs ${c.b} (${c.kind === 'solve' ? 'steps to solve' : name}): one seed answers nothing, run at least 4 per cell` };
  }
  const p = c.pAdjusted!;
  const pText = `permutation test over seeds, p ${formatP(p)}${p !== c.p ? ` after Holm's adjustment` : ''}`;
  if (c.kind === 'solve') {
    const sa = cells.find((x) => x.label === c.a)!.solve!;
    const sb = cells.find((x) => x.label === c.b)!.solve!;
    if (sa.solved === 0 && sb.solved === 0) {
      return { ...c, verdict: 'not-different', text: `${c.a} vs ${c.b}: neither solved (${ruleText(sa.rule)}) within ${withinText({ min: Math.min(sa.within.min, sb.within.min), max: Math.max(sa.within.max, sb.within.max) })} steps` };
    }
    if (p < alpha && c.statistic !== 0) {
      const aFaster = c.statistic > 0;
      const [fast, slow] = aFaster ? [c.a, c.b] : [c.b, c.a];
      return { ...c, verdict: aFaster ? 'a-faster' : 'b-faster', text: `${fast} solved sooner than ${slow} (${pText})` };
    }
    const why = c.minP !== null && c.minP >= alpha ? tooFewText(c.nA, c.nB, c.minP, alpha) : `${pText}, ${nSeeds}`;
    return { ...c, verdict: 'not-different', text: `${c.a} vs ${c.b}, steps to solve: not different at this many seeds (${why})` };
  }
  const fa = cells.find((x) => x.label === c.a)!.finals[c.metric];
  const fb = cells.find((x) => x.label === c.b)!.finals[c.metric];
  const iv = (f: FinalStats) => `${formatValue(f.mean)}${f.lo !== null ? ` [${formatValue(f.lo)}, ${formatValue(f.hi)}]` : ''}`;
  const head = `final ${name}: ${c.a} ${iv(fa)} vs ${c.b} ${iv(fb)} (mean [${Math.round(confidence * 100)}% interval])`;
  if (p < alpha && c.difference !== null && c.difference !== 0) {
    const higher = c.difference > 0 ? c.a : c.b;
    return { ...c, verdict: c.difference > 0 ? 'a-higher' : 'b-higher', text: `${head}: higher with ${higher} (${pText})` };
  }
  const why = c.minP !== null && c.minP >= alpha ? tooFewText(c.nA, c.nB, c.minP, alpha) : `${pText}, ${nSeeds}`;
  return { ...c, verdict: 'not-different', text: `${head}: not different at this many seeds (${why})` };
}

/**
 * The whole statistical summary of an ablation: per cell its curves, final values and solve
 * statistics; comparisons between cells; the verdict. Deterministic: the same cells and options
 * give the same object (bootstrap and Monte Carlo draws come from fixed seeds).
 */
export function summarizeAblation(cells: readonly AblationCell[], options: AblationOptions): AblationStats {
  const confidence = options.confidence ?? 0.95;
  const alpha = options.alpha ?? 0.05;
  const rule = options.solved ?? null;
  const recorded = (m: string) => cells.some((c) => c.runs.some((r) => (r.series[m]?.length ?? 0) > 0));
  const metrics = options.metrics.filter(recorded);
  const windowOf = options.finalWindow ?? defaultFinalWindow;
  const rangeOf = options.range ?? defaultMetricRange;
  const summaries: CellSummary[] = cells.map((cell) => {
    const runs = [...cell.runs].sort((x, y) => x.seed - y.seed || (x.id ?? '').localeCompare(y.id ?? ''));
    const finals: Record<string, FinalStats> = {};
    const curves: Record<string, BandPoint[]> = {};
    for (const m of metrics) {
      const range = rangeOf(m);
      finals[m] = finalStats(runs, m, { window: windowOf(m), confidence, range });
      curves[m] = meanCurve(runs, m, { confidence, maxPoints: options.maxCurvePoints ?? 300, range });
    }
    const solve = rule ? solveStats(runs, rule, { confidence }) : null;
    const summary: CellSummary = {
      label: cell.label,
      runs: runs.map((r, i) => ({
        seed: r.seed,
        ...(r.id !== undefined ? { id: r.id } : {}),
        lastStep: r.lastStep,
        solvedAt: solve ? solve.outcomes[i].solvedAt : null,
        finals: Object.fromEntries(metrics.map((m) => [m, finalValue(r, m, windowOf(m))])),
      })),
      curves,
      finals,
      solve,
    };
    if (cell.set) summary.set = cell.set;
    if (cell.variant !== undefined) summary.variant = cell.variant;
    return summary;
  });

  const mode = options.compare ?? (summaries.length <= 4 ? 'all-pairs' : 'baseline');
  const pairs = pairsOf(summaries.length, mode);
  // Families for Holm: the solve comparisons, and each metric's final comparisons.
  const families: Comparison[][] = [];
  if (rule) families.push(pairs.map(([i, j]) => compareSolve(summaries[i], summaries[j])));
  for (const m of metrics) families.push(pairs.map(([i, j]) => compareFinal(m, summaries[i], summaries[j], confidence)));
  const comparisons: Comparison[] = [];
  for (const fam of families) {
    const testable = fam.filter((c) => c.p !== null && c.nA >= 2 && c.nB >= 2);
    const adjusted = holmAdjust(testable.map((c) => c.p!));
    testable.forEach((c, k) => (c.pAdjusted = adjusted[k]));
    for (const c of fam) comparisons.push(judge(c, summaries, alpha, confidence));
  }

  const verdict: string[] = [];
  const minSeeds = Math.min(...summaries.map((s) => s.runs.length));
  if (summaries.length && minSeeds < 2) {
    verdict.push(`One seed answers nothing: ${minSeeds === 0 ? 'a cell has no runs' : 'a cell has a single run'}, so no difference between cells can be told from noise (learning is a random process). Run at least 4 seeds per cell.`);
  }
  if (rule) for (const s of summaries) verdict.push(solveSentence(s.label, s.solve!));
  const primary = metrics[0];
  for (const c of comparisons) {
    if (c.verdict === 'too-few-seeds') continue;
    if (c.kind === 'solve' || c.metric === primary) verdict.push(c.text);
  }
  if (summaries.length && minSeeds >= 2 && comparisons.some((c) => c.verdict !== 'no-data' && c.verdict !== 'too-few-seeds')) {
    verdict.push(`Differences are claimed only at p < ${alpha} (two-sided permutation tests over seeds, Holm-adjusted within each family of comparisons); "not different at this many seeds" means the data cannot tell, not that the cells are equal.`);
  }
  return { metrics, solved: rule, confidence, alpha, cells: summaries, comparisons, verdict };
}
