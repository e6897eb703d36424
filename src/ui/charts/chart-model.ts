// From runs to what a chart draws (pure, tested in Node): the series, the axes' fixed ranges,
// the chance line, curriculum markers, faint reference curves and the legend.
//
// Colour always means the run (#1 blue, #2 red, …, fixed by the run's number). One run on the
// chart: its metrics are told apart by dash (solid first). Several runs: each chart draws only
// its first metric, one line per run, and the legend lists the runs. Two metrics of a run that
// are equal at every step are drawn once, labelled "reward (= pass@1)".

import type { RunConfig } from '../../config';
import { CHART_INFO, type ChartId } from '../../lessons';
import { countsAnswers, metricName, metricSpec, taskChartMetrics } from '../../config';
import { getTask, isTaskName } from '../../tasks/registry';
import type { EvalRecord } from '../../rl/step-metrics';
import type { RunRecord } from '../../store/kept-runs';
import { downsample, POINT_BUDGET, type XY } from '../../core/downsample';
import { paddedDomain, stepDomain } from './domain';
import type { PlotSeries } from './series';
import { answerLength, chartSpec, levelRange, maxEntropy, seriesName, type ChartSpec } from './catalog';
import { CHANCE_COLOR, DASHES, MARKER_COLOR, RUN_COLORS } from './palette';
import { recordedRunsOnChart, type ReferenceSet } from './recordedRuns';

/** A run's colour: fixed by its number (#1, #2, …), so it stays the same whatever is overlaid. */
export function runColor(run: Pick<RunRecord, 'name'>): string {
  const n = Number(/^#(\d+)$/.exec(run.name)?.[1] ?? 1);
  return RUN_COLORS[(Math.max(1, n) - 1) % RUN_COLORS.length];
}

/** A run's short legend label: its number and what it is ("#2 GRPO"). */
export function runLegend(run: Pick<RunRecord, 'name' | 'label'>): string {
  return `${run.name} ${run.label}`;
}

/** The steps and values of one scalar of a run, skipping steps that lack it. */
export function scalarSeries(run: RunRecord, key: string): XY[] {
  const out: XY[] = [];
  for (const p of run.points) {
    const y = key === 'level' ? p.level : p.scalars[key];
    if (y !== undefined && Number.isFinite(y)) out.push({ x: p.step, y });
  }
  return out;
}

/** The held-out eval points of a run. */
export function evalSeries(run: RunRecord, key: 'eval/pass@1_greedy' | 'eval/pass@k' | 'eval/pass@1_sampled'): XY[] {
  // A value that was not measured (missing, or null after a round trip through JSON) is no point, not a 0.
  return run.evals
    .filter((e: EvalRecord) => typeof e[key] === 'number' && Number.isFinite(e[key]))
    .map((e) => ({ x: e.step, y: e[key] }));
}

/**
 * Why held-out pass@1 can sit far below the reward: it is the greedy (most likely) answer to
 * fresh prompts never trained on, measured every evalEvery steps; the reward is sampled answers
 * to the training prompts of this step.
 */
export function heldOutExplanation(evalEvery: number): string {
  const when = evalEvery > 0 ? `measured every ${evalEvery} steps` : 'not measured in this run (evalEvery 0)';
  return `held-out pass@1: the share of fresh prompts, never trained on, that the model's most likely answer (greedy decoding) gets right, at the current level; ${when}. The reward is the share of sampled answers to this step's training prompts, so the two can differ a lot. Before the first measurement there is no value (not 0).`;
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

function sameSeries(a: readonly XY[], b: readonly XY[]): boolean {
  return a.length === b.length && a.length > 0 && a.every((p, i) => p.x === b[i].x && p.y === b[i].y);
}

/** Steps at which a run's curriculum level went up, with the new level. */
export function levelAdvances(run: RunRecord): { step: number; level: number }[] {
  const out: { step: number; level: number }[] = [];
  for (let i = 1; i < run.points.length; i++) {
    if (run.points[i].level > run.points[i - 1].level)
      out.push({ step: run.points[i].step, level: run.points[i].level });
  }
  return out;
}

export interface ChartContext {
  /** The chance reward of a guess at a curriculum level (null: unknown). */
  chance?: (config: RunConfig, level: number) => number | null;
  /** Recorded runs of the active run's lesson, when its config is the lesson's own. */
  reference?: ReferenceSet | null;
  /** The config of the run about to start: the axes before the first step. */
  pending?: RunConfig;
  /**
   * The step axis starts at 0 even when the run began later: a lesson's trained model, whose
   * recorded runs (drawn under it) show how it got to the step it was loaded at.
   */
  fromZero?: boolean;
  /**
   * The model was loaded from a lesson's trained checkpoint made at `step` by the run of `seed`:
   * the recorded runs are drawn up to that step, faint after it, and that run marked as the
   * model's own (step 0, a base model: every run starts there, none is marked).
   */
  jump?: { step: number; seed: number };
}

export interface LegendEntry {
  label: string;
  color: string;
  dash?: string;
  marker?: '●' | '▲';
  faint?: boolean;
  /** Hover text (the metric's doc and CSV column). */
  title?: string;
}

export interface ChartModel {
  spec: ChartSpec;
  title: string;
  yLabel: string;
  xDomain: [number, number];
  yDomain: [number, number];
  yInteger: boolean;
  series: PlotSeries[];
  hLines: { y: number; label: string; short?: string; color: string; dash?: string }[];
  vLines: { x: number; label: string; color: string }[];
  legend: LegendEntry[];
  /** Points of the longest run series (tests read it as "the chart has data"). */
  points: number;
  /** Recorded-run lines drawn (the lesson's reference runs). */
  recorded: number;
  /** One line said under the chart: a loaded model whose recorded run this chart cannot draw. */
  note?: string;
}

/**
 * The x range shared by the charts: from 0 (or, for runs that began later — a loaded checkpoint,
 * a continuation — from just before their first step) to the step budget when every run has
 * one, else to a round number past the last step.
 */
export function xDomainOf(runs: readonly RunRecord[], pending?: RunConfig, fromZero = false): [number, number] {
  let first = Infinity;
  let last = 0;
  for (const r of runs) {
    if (r.points.length === 0) continue;
    first = Math.min(first, r.points[0].step);
    last = Math.max(last, r.points[r.points.length - 1].step);
  }
  const budgets = runs.length === 0 && pending ? [pending.steps] : runs.map((r) => r.config.steps);
  const budget = budgets.length > 0 && budgets.every((b) => b > 0) ? Math.max(...budgets) : 0;
  const lo = !fromZero && Number.isFinite(first) && first > 1 ? Math.floor((first - 1) / 10) * 10 : 0;
  const [, span] = stepDomain(last - lo, budget > lo ? budget - lo : 0);
  return [lo, lo + span];
}

/** Which metrics a chart draws for these runs (task metrics depend on what the task reports). */
function keysFor(
  spec: ChartSpec,
  runs: readonly RunRecord[],
  config: RunConfig | undefined,
  reference?: ReferenceSet | null,
): { keys: string[]; range: ChartSpec['range']; yLabel: string } {
  if (spec.id !== 'task') return { keys: [...spec.metrics], range: spec.range, yLabel: spec.yLabel };
  // The recorded runs name the task's metrics before the live run has any.
  const recorded = (reference?.runs ?? []).flatMap((r) => Object.keys(r.series ?? {}));
  const keys = taskChartMetrics([...taskMetricKeys(runs), ...recorded]);
  const groupSize = config?.groupSize ?? 2;
  // Before any point, the axis of the task's headline metric (the chart's title names it).
  const headline =
    keys.length === 0 && config && isTaskName(config.task) ? getTask(config.task).display.headlineMetric : undefined;
  if (countsAnswers(headline ? [...keys, headline] : keys))
    return { keys, range: { kind: 'padded', floor: 0, minSpan: Math.max(2, groupSize) }, yLabel: 'answers' };
  return { keys, range: spec.range, yLabel: spec.yLabel };
}

/** What a chart's lines add up to while they are drawn. */
interface Drawing {
  series: PlotSeries[];
  legend: LegendEntry[];
  /** Every value drawn, for an axis that fits them. */
  values: number[];
  /** Points of the longest run series. */
  points: number;
}

/** A run's metrics among `keys` that it has; one equal at every step to an earlier one is named in that one's label. */
function runMetrics(run: RunRecord, keys: readonly string[]): { key: string; data: XY[]; label: string }[] {
  const drawn: { key: string; data: XY[]; label: string }[] = [];
  for (const key of keys) {
    const data = scalarSeries(run, key);
    if (data.length === 0) continue;
    const twin = drawn.find((d) => sameSeries(d.data, data));
    if (twin) {
      twin.label = `${twin.label} (= ${seriesName(key)})`;
      continue;
    }
    drawn.push({ key, data, label: seriesName(key) });
  }
  return drawn;
}

/** The metric lines of run `r`: alone, its metrics told apart by dash; overlaid, its first metric only. */
function addRunLines(out: Drawing, run: RunRecord, r: number, keys: readonly string[], overlay: boolean): void {
  const color = runColor(run);
  runMetrics(run, overlay ? keys.slice(0, 1) : keys).forEach((d, k) => {
    // Overlaid runs: colour and dash mean the run, and each later run is drawn thinner, so two
    // runs that agree step for step (the same seed) still show both.
    const dash = DASHES[(overlay ? r : k) % DASHES.length];
    const width = overlay ? Math.max(1.5, 3.5 - r) : undefined;
    const label = overlay ? runLegend(run) : d.label;
    out.series.push({
      id: `${run.id}:${d.key}`,
      label,
      color,
      dash,
      ...(width ? { width } : {}),
      points: downsample(d.data, POINT_BUDGET),
    });
    out.legend.push({ label, color, dash, title: d.key });
    out.points = Math.max(out.points, d.data.length);
    for (const p of d.data) out.values.push(p.y);
  });
}

/** The reward chart's held-out eval markers of a run (pass@k only when it is alone on the chart). */
function addEvalMarkers(out: Drawing, run: RunRecord, overlay: boolean): void {
  const color = runColor(run);
  for (const [key, marker, shape] of [
    ['eval/pass@1_greedy', '●', 'circle'],
    ['eval/pass@k', '▲', 'triangle'],
  ] as const) {
    if (overlay && key === 'eval/pass@k') continue;
    const data = evalSeries(run, key);
    const heldOut = key === 'eval/pass@1_greedy';
    const title = heldOut ? heldOutExplanation(run.config.evalEvery) : key;
    if (data.length === 0) {
      // Before the first measurement: said so, rather than nothing (or a 0).
      if (heldOut && !overlay && run.config.evalEvery > 0) {
        const every = run.config.evalEvery;
        const next = (Math.floor((run.points[run.points.length - 1]?.step ?? 0) / every) + 1) * every;
        out.legend.push({
          label: `${metricName(key)} (a first measurement at step ${next})`,
          color,
          marker,
          faint: true,
          title,
        });
      }
      continue;
    }
    const label = overlay
      ? `${run.name} ${metricName(key)}`
      : heldOut
        ? `${metricName(key)} (a greedy answer, fresh prompts)`
        : metricName(key);
    out.series.push({ id: `${run.id}:${key}`, label, color, kind: 'points', marker: shape, points: data });
    out.legend.push({ label, color, marker, title });
  }
}

/**
 * The lesson's recorded runs under a single run (recordedRuns.ts); the reward and level charts
 * keep their fixed axes, the others fit them too. A jump without recorded runs says so.
 */
function addRecorded(
  out: Drawing,
  id: ChartId,
  keys: readonly string[],
  config: RunConfig | undefined,
  ctx: ChartContext,
): { recorded: number; note?: string } {
  if (!ctx.reference) return ctx.jump ? { recorded: 0, note: 'no recorded run of this model' } : { recorded: 0 };
  const rec = recordedRunsOnChart(id, ctx.reference, keys, config, ctx.jump);
  for (const line of rec.lines) {
    out.series.push(line);
    if (id !== 'reward' && id !== 'level') for (const p of line.points) out.values.push(p.y); // the axes those two have are fixed
  }
  out.legend.push(...rec.legend);
  return { recorded: rec.lines.length, ...(rec.note ? { note: rec.note } : {}) };
}

/** The chart `id` for `runs` (the active run first; the others are overlaid). */
export function chartModel(id: ChartId, runs: readonly RunRecord[], ctx: ChartContext = {}): ChartModel {
  const spec = chartSpec(id);
  const primary = runs[0];
  const config = primary?.config ?? ctx.pending;
  const overlay = runs.length > 1;
  const { keys, range, yLabel } = keysFor(spec, runs, config, overlay ? null : ctx.reference);
  const out: Drawing = { series: [], legend: [], values: [], points: 0 };
  runs.forEach((run, r) => {
    addRunLines(out, run, r, keys, overlay);
    if (id === 'reward') addEvalMarkers(out, run, overlay);
  });

  // Lines that belong to one run: the chance level, its curriculum's advances, the reference runs.
  const hLines: ChartModel['hLines'] = [];
  const vLines: ChartModel['vLines'] = [];
  if (primary && !overlay) {
    for (const a of levelAdvances(primary)) vLines.push({ x: a.step, label: `L${a.level}`, color: MARKER_COLOR });
  }
  if (id === 'reward' && config && ctx.chance) {
    addChance(primary, config, ctx.chance, out.series, hLines, out.legend);
  }
  const { recorded, note } = overlay ? { recorded: 0, note: undefined } : addRecorded(out, id, keys, config, ctx);
  if (id === 'entropy' && config) {
    hLines.push({
      y: maxEntropy(config),
      label: 'uniform guess (ln V)',
      short: 'ln V',
      color: CHANCE_COLOR,
      dash: '5 4',
    });
  }

  const y = yAxis(range, config, out.values);
  const title = chartTitle(spec, keys, config, overlay);
  // A lone line named like its chart needs no legend.
  const needless = out.legend.length === 1 && out.legend[0].label.toLowerCase() === title.toLowerCase();
  return {
    spec,
    title,
    yLabel,
    xDomain: xDomainOf(runs, ctx.pending, ctx.fromZero),
    ...y,
    series: out.series,
    hLines,
    vLines,
    legend: needless ? [] : out.legend,
    points: out.points,
    recorded,
    ...(note ? { note } : {}),
  };
}

/** A chart's title; overlaid, a chart of several metrics draws its first only: the title names it. */
function chartTitle(spec: ChartSpec, keys: readonly string[], config: RunConfig | undefined, overlay: boolean): string {
  const base = spec.id === 'task' ? taskTitle(keys, config) : spec.title;
  const first = keys[0] !== undefined ? seriesName(keys[0]) : '';
  return overlay && keys.length > 1 && first.toLowerCase() !== base.toLowerCase() ? `${base}: ${first}` : base;
}

/** The task chart is named by what it shows; before any data, by what the task will report. */
function taskTitle(keys: readonly string[], config: RunConfig | undefined): string {
  const headline = config && isTaskName(config.task) ? getTask(config.task).display.headlineMetric : undefined;
  const shown = keys.length ? keys : headline ? [headline] : [];
  const names = shown.filter((k) => metricSpec(k)?.charted ?? true).map((k) => metricName(k));
  return names.length ? names.join(', ').replace(/^./, (c) => c.toUpperCase()) : CHART_INFO.task.title;
}

/** The chance line: flat without a curriculum; a staircase following the level with one. */
function addChance(
  run: RunRecord | undefined,
  config: RunConfig,
  chance: NonNullable<ChartContext['chance']>,
  series: PlotSeries[],
  hLines: ChartModel['hLines'],
  legend: LegendEntry[],
): void {
  const [first, last] = levelRange(config);
  const label = 'chance (a random guess)';
  if (!run || config.curriculum === 'off' || first === last || run.points.length === 0) {
    const c = chance(config, config.curriculum === 'off' ? last : first);
    if (c === null) return;
    hLines.push({ y: c, label: 'chance', color: CHANCE_COLOR, dash: '5 4' });
  } else {
    const pts: XY[] = [];
    let level = -1;
    for (const p of run.points) {
      if (p.level === level) continue;
      level = p.level;
      const c = chance(config, level);
      if (c !== null) pts.push({ x: pts.length === 0 ? 0 : p.step, y: c });
    }
    const end = run.points[run.points.length - 1];
    if (pts.length) pts.push({ x: end.step, y: pts[pts.length - 1].y });
    series.push({
      id: 'chance',
      label: 'chance',
      color: CHANCE_COLOR,
      dash: '5 4',
      kind: 'step',
      width: 1.5,
      points: pts,
      hideInTooltip: true,
    });
  }
  legend.push({ label, color: CHANCE_COLOR, dash: '5 4' });
}

function yAxis(
  range: ChartSpec['range'],
  config: RunConfig | undefined,
  values: readonly number[],
): Pick<ChartModel, 'yDomain' | 'yInteger'> {
  switch (range.kind) {
    case 'unit':
      return { yDomain: [0, 1], yInteger: false };
    case 'entropy':
      return { yDomain: [0, config ? maxEntropy(config) : 1], yInteger: false };
    case 'level': {
      const [lo, hi] = config ? levelRange(config) : [1, 2];
      const top = Math.max(hi, lo + 1);
      return { yDomain: [lo, top], yInteger: true };
    }
    case 'length':
      return { yDomain: [0, config ? answerLength(config) : 1], yInteger: false };
    case 'padded':
      return { yDomain: paddedDomain(values, range), yInteger: false };
  }
}
