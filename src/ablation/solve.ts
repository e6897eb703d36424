// Steps to solve: when each seed first met the solved rule, censored at its last step, the
// Kaplan–Meier "solved by step t" curve, its median with a bootstrap interval over seeds, and
// Gehan's pairwise score for comparing two cells' solve times.

import { makeRng, STREAM } from '../core/random';
import type { SeedRun, SolvedRule } from './curves';
import { quantileSorted } from './small-sample-stats';

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
    if (Math.abs(curve[i].solved - 0.5) < eps)
      return i + 1 < curve.length ? (curve[i].step + curve[i + 1].step) / 2 : curve[i].step;
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

export function solveStats(
  runs: readonly SeedRun[],
  rule: SolvedRule,
  options: { confidence?: number; resamples?: number; seed?: number } = {},
): SolveStats {
  const outcomes = runs.map((r) => solveOutcome(r, rule));
  const curve = kaplanMeier(outcomes);
  const med = kaplanMeierMedian(curve);
  let medianIntervalOut: SolveStats['medianInterval'] = null;
  if (med !== null && outcomes.length >= 3) {
    const rng = makeRng(options.seed ?? BOOTSTRAP_SEED, STREAM.statistics);
    const meds: number[] = [];
    for (let b = 0; b < (options.resamples ?? BOOTSTRAP_RESAMPLES); b++) {
      const sample = outcomes.map(() => outcomes[rng.int(outcomes.length)]);
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
    within: {
      min: lasts.length ? lasts.reduce((a, b) => Math.min(a, b)) : 0,
      max: lasts.length ? lasts.reduce((a, b) => Math.max(a, b)) : 0,
    },
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
