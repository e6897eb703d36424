// The summary of an ablation: comparisons between cells (permutation tests over seeds, Holm's
// adjustment within each family), the numbers in plain words, and `summarizeAblation`, which
// puts curves.ts and solve.ts together into the one object the page and the CLI report.

import { metricName } from '../config/metric-names';
import {
  defaultFinalWindow,
  defaultMetricRange,
  finalStats,
  finalValue,
  meanCurve,
  type AblationCell,
  type BandPoint,
  type FinalStats,
  type MetricRange,
  type SolvedRule,
} from './curves';
import { gehanScore, solveStats, type SolveStats } from './solve';
import { holmAdjust, permutationTest, welchInterval } from './small-sample-stats';

export type ComparisonVerdict =
  'a-higher' | 'b-higher' | 'a-faster' | 'b-faster' | 'not-different' | 'too-few-seeds' | 'no-data';

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
  runs: {
    seed: number;
    id?: string;
    lastStep: number;
    solvedAt: number | null;
    finals: Record<string, number | null>;
  }[];
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
  /** The question answered in one line: "lr=0.01 vs lr=0.003, final reward: not different with 4 seeds a cell (p = 0.71); both solve 3/4". */
  answer: string;
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

/** What a comparison is of: the metric, the two cells and their numbers of seeds. */
type ComparisonBase = Pick<Comparison, 'kind' | 'metric' | 'a' | 'b' | 'nA' | 'nB'>;

/** A comparison with no values on a side: nothing to test. */
function noData(base: ComparisonBase): Comparison {
  const none = { difference: null, interval: null, statistic: 0, p: null, pAdjusted: null, minP: null };
  return { ...base, ...none, verdict: 'no-data', text: '' };
}

/** A tested comparison, its verdict left to judge (once its Holm-adjusted p is known). */
function tested(
  base: ComparisonBase,
  difference: number | null,
  interval: Comparison['interval'],
  perm: ReturnType<typeof permutationTest>,
): Comparison {
  const test = { statistic: perm.observed, p: perm.p, pAdjusted: perm.p, minP: perm.minP };
  return { ...base, difference, interval, ...test, verdict: 'not-different', text: '' };
}

function compareFinal(metric: string, a: CellSummary, b: CellSummary, confidence: number): Comparison {
  const fa = a.finals[metric];
  const fb = b.finals[metric];
  const xa = fa.values.map((v) => v.value);
  const xb = fb.values.map((v) => v.value);
  const base = { kind: 'final' as const, metric, a: a.label, b: b.label, nA: xa.length, nB: xb.length };
  if (xa.length === 0 || xb.length === 0) return noData(base);
  const w = welchInterval(xa, xb, confidence);
  const perm = permutationTest(xa, xb, (ga, gb) => {
    let sa = 0;
    let sb = 0;
    for (const x of ga) sa += x;
    for (const x of gb) sb += x;
    return sa / ga.length - sb / gb.length;
  });
  return tested(base, w.difference, { lo: w.lo, hi: w.hi }, perm);
}

function compareSolve(a: CellSummary, b: CellSummary): Comparison {
  const sa = a.solve!;
  const sb = b.solve!;
  const base = { kind: 'solve' as const, metric: sa.rule.metric, a: a.label, b: b.label, nA: sa.n, nB: sb.n };
  if (sa.n === 0 || sb.n === 0) return noData(base);
  const perm = permutationTest(sa.outcomes, sb.outcomes, (ga, gb) => {
    let u = 0;
    for (const x of ga) for (const y of gb) u += gehanScore(x, y);
    return u;
  });
  const difference = sa.median !== null && sb.median !== null ? sa.median - sb.median : null;
  return tested(base, difference, null, perm);
}

/** Decides and words a comparison once its Holm-adjusted p is known. */
function judge(c: Comparison, cells: readonly CellSummary[], alpha: number, confidence: number): Comparison {
  const name = metricName(c.metric);
  const nSeeds = `${c.nA} and ${c.nB} seeds`;
  if (c.verdict === 'no-data') return { ...c, text: `${c.a} vs ${c.b}: no ${name} values to compare` };
  if (c.nA < 2 || c.nB < 2) {
    return {
      ...c,
      verdict: 'too-few-seeds',
      text: `${c.a} vs ${c.b} (${c.kind === 'solve' ? 'steps to solve' : name}): one seed answers nothing, run at least 4 per cell`,
    };
  }
  const p = c.pAdjusted!;
  const pText = `permutation test over seeds, p ${formatP(p)}${p !== c.p ? ` after Holm's adjustment` : ''}`;
  if (c.kind === 'solve') {
    const sa = cells.find((x) => x.label === c.a)!.solve!;
    const sb = cells.find((x) => x.label === c.b)!.solve!;
    if (sa.solved === 0 && sb.solved === 0) {
      return {
        ...c,
        verdict: 'not-different',
        text: `${c.a} vs ${c.b}: neither solved (${ruleText(sa.rule)}) within ${withinText({ min: Math.min(sa.within.min, sb.within.min), max: Math.max(sa.within.max, sb.within.max) })} steps`,
      };
    }
    if (p < alpha && c.statistic !== 0) {
      const aFaster = c.statistic > 0;
      const [fast, slow] = aFaster ? [c.a, c.b] : [c.b, c.a];
      return {
        ...c,
        verdict: aFaster ? 'a-faster' : 'b-faster',
        text: `${fast} solved sooner than ${slow} (${pText})`,
      };
    }
    const why = c.minP !== null && c.minP >= alpha ? tooFewText(c.nA, c.nB, c.minP, alpha) : `${pText}, ${nSeeds}`;
    return {
      ...c,
      verdict: 'not-different',
      text: `${c.a} vs ${c.b}, steps to solve: not different at this many seeds (${why})`,
    };
  }
  const fa = cells.find((x) => x.label === c.a)!.finals[c.metric];
  const fb = cells.find((x) => x.label === c.b)!.finals[c.metric];
  const iv = (f: FinalStats) =>
    `${formatValue(f.mean)}${f.lo !== null ? ` [${formatValue(f.lo)}, ${formatValue(f.hi)}]` : ''}`;
  const head = `final ${name}: ${c.a} ${iv(fa)} vs ${c.b} ${iv(fb)} (mean [${Math.round(confidence * 100)}% interval])`;
  if (p < alpha && c.difference !== null && c.difference !== 0) {
    const higher = c.difference > 0 ? c.a : c.b;
    return {
      ...c,
      verdict: c.difference > 0 ? 'a-higher' : 'b-higher',
      text: `${head}: higher with ${higher} (${pText})`,
    };
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
  for (const m of metrics)
    families.push(pairs.map(([i, j]) => compareFinal(m, summaries[i], summaries[j], confidence)));
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
    verdict.push(
      `One seed answers nothing: ${minSeeds === 0 ? 'a cell has no runs' : 'a cell has a single run'}, so no difference between cells can be told from noise (learning is a random process). Run at least 4 seeds per cell.`,
    );
  }
  if (rule) for (const s of summaries) verdict.push(solveSentence(s.label, s.solve!));
  const primary = metrics[0];
  for (const c of comparisons) {
    if (c.verdict === 'too-few-seeds') continue;
    if (c.kind === 'solve' || c.metric === primary) verdict.push(c.text);
  }
  if (
    summaries.length &&
    minSeeds >= 2 &&
    comparisons.some((c) => c.verdict !== 'no-data' && c.verdict !== 'too-few-seeds')
  ) {
    verdict.push(
      `Differences are claimed only at p < ${alpha} (two-sided permutation tests over seeds, Holm-adjusted within each family of comparisons); "not different at this many seeds" means the data cannot tell, not that the cells are equal.`,
    );
  }
  const stats = { metrics, solved: rule, confidence, alpha, cells: summaries, comparisons, verdict, answer: '' };
  return { ...stats, answer: ablationAnswer(stats) };
}

// ── the one-line answer ──────────────────────────────────────────────────────────────────────

function seedsText(counts: readonly number[]): string {
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return `${lo === hi ? lo : `${lo}–${hi}`} seed${hi === 1 ? '' : 's'} a cell`;
}

/** "both solve 3/4", "all solve 0/4", "lr=0.01 solves 3/4, lr=0.003 1/4", "a solves 2/2". */
function solvedText(cells: readonly CellSummary[]): string {
  const counts = cells.map((c) => `${c.solve!.solved}/${c.solve!.n}`);
  if (cells.length === 1) return `${cells[0].label} solves ${counts[0]}`;
  if (counts.every((x) => x === counts[0])) return `${cells.length === 2 ? 'both' : 'all'} solve ${counts[0]}`;
  return cells.map((c, i) => (i === 0 ? `${c.label} solves ${counts[i]}` : `${c.label} ${counts[i]}`)).join(', ');
}

/**
 * The ablation's question answered in one line, from its primary metric's final values and, with
 * a solved rule, how many seeds each cell solved. Cells with no run yet are left out and named.
 */
export function ablationAnswer(
  stats: Pick<AblationStats, 'cells' | 'comparisons' | 'metrics' | 'alpha' | 'solved'>,
): string {
  const started = stats.cells.filter((c) => c.runs.length > 0);
  const waiting = stats.cells.filter((c) => c.runs.length === 0).map((c) => c.label);
  const tail = waiting.length ? `; not started: ${waiting.join(', ')}` : '';
  const solved = stats.solved && started.length ? `; ${solvedText(started)}` : '';
  if (started.length === 0) return `nothing run yet${tail}`;
  const seeds = seedsText(started.map((c) => c.runs.length));
  if (started.length === 1)
    return `${started[0].label}: ${seeds.replace(' a cell', '')} so far, nothing to compare with yet${solved}${tail}`;
  const primary = stats.metrics[0];
  const names = new Set(started.map((c) => c.label));
  const finals = stats.comparisons.filter(
    (c) => c.kind === 'final' && c.metric === primary && names.has(c.a) && names.has(c.b),
  );
  const what = `${started.length === 2 ? `${started[0].label} vs ${started[1].label}` : started.map((c) => c.label).join(' / ')}${primary ? `, final ${metricName(primary)}` : ''}`;
  if (Math.min(...started.map((c) => c.runs.length)) < 2)
    return `${what}: one seed a cell answers nothing, run at least 4${solved}${tail}`;
  const differ = finals.filter((c) => c.verdict === 'a-higher' || c.verdict === 'b-higher');
  const pOf = (c: Comparison) => `p ${formatP(c.pAdjusted ?? c.p ?? 1)}`;
  let head: string;
  if (differ.length) {
    head =
      differ
        .slice(0, 2)
        .map((c) => {
          const [hi, lo] = c.verdict === 'a-higher' ? [c.a, c.b] : [c.b, c.a];
          return `${hi} higher than ${lo} (${pOf(c)})`;
        })
        .join(', ') + `${differ.length > 2 ? `, and ${differ.length - 2} more` : ''} with ${seeds}`;
  } else {
    const tested = finals.filter((c) => c.p !== null);
    const smallest = tested.reduce<Comparison | null>(
      (m, c) => (m === null || (c.pAdjusted ?? 1) < (m.pAdjusted ?? 1) ? c : m),
      null,
    );
    const cannot = tested.length > 0 && tested.every((c) => c.minP !== null && c.minP >= stats.alpha);
    head =
      smallest === null
        ? `no values to compare yet`
        : cannot
          ? `too few seeds to tell (${seeds}: the smallest possible p is ${smallest.minP!.toFixed(2)})`
          : `not different with ${seeds} (${started.length > 2 ? 'smallest ' : ''}${pOf(smallest)})`;
  }
  return `${what}: ${head}${solved}${tail}`;
}
