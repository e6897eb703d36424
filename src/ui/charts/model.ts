// From runs to what a chart draws (pure, tested in Node): the series, the axes' fixed ranges,
// the chance line, curriculum markers, faint reference curves and the legend.
//
// Colour always means the run (#1 blue, #2 red, …, fixed by the run's number). One run on the
// chart: its metrics are told apart by dash (solid first). Several runs: each chart draws only
// its first metric, one line per run, and the legend lists the runs. Two metrics of a run that
// are equal at every step are drawn once, labelled "reward (= pass@1)".

import type { ChartId, RunConfig } from '../../config';
import { metricName, taskChartMetrics } from '../../config';
import { getTask, isTaskName } from '../../tasks/registry';
import type { EvalRecord } from '../../rl/metrics';
import type { RunRecord } from '../../store/runs';
import { downsample, POINT_BUDGET, type XY } from '../../core/downsample';
import { paddedDomain, stepDomain } from './domain';
import type { PlotSeries } from './series';
import { answerLength, CHARTS, levelRange, maxEntropy, seriesName, type ChartSpec } from './catalog';

/** Colours of runs by number: #1 → the first, #2 → the second, … */
export const RUN_COLORS = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];
const DASHES = ['', '7 4', '2 3', '9 3 2 3'];
export const CHANCE_COLOR = '#b45309';
export const REFERENCE_COLOR = '#6b7280';
const MARKER_COLOR = '#6b7280';

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

/** A recorded run of a lesson, drawn faintly under the live one. */
export interface ReferenceRun {
  seed: number;
  /** [step, reward] pairs. */
  reward: [number, number][];
  /** [step, level] where its curriculum went up (absent in files without a curriculum). */
  advances?: [number, number][];
  /** [step, value] curves of the metrics the lesson's other charts draw, by metrics.jsonl key (absent in older files). */
  series?: Record<string, [number, number][]>;
}

export interface ReferenceSet {
  preset: string;
  /** How it was made: the command and the adapter. */
  source: string;
  runs: ReferenceRun[];
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
  if (spec.id !== 'task') return { keys: [...spec.keys], range: spec.range, yLabel: spec.yLabel };
  // The recorded runs name the task's metrics before the live run has any.
  const recorded = (reference?.runs ?? []).flatMap((r) => Object.keys(r.series ?? {}));
  const keys = taskChartMetrics([...taskMetricKeys(runs), ...recorded]);
  const groupSize = config?.groupSize ?? 2;
  // Before any point, the axis of the task's headline metric (the chart's title names it).
  const headline =
    keys.length === 0 && config && isTaskName(config.task) ? getTask(config.task).display.headlineMetric : undefined;
  if (keys.includes('task/distinct_correct_paths') || headline === 'task/distinct_correct_paths')
    return { keys, range: { kind: 'padded', floor: 0, minSpan: Math.max(2, groupSize) }, yLabel: 'answers' };
  return { keys, range: spec.range, yLabel: spec.yLabel };
}

/** The chart `id` for `runs` (the active run first; the others are overlaid). */
export function chartModel(id: ChartId, runs: readonly RunRecord[], ctx: ChartContext = {}): ChartModel {
  const spec = CHARTS[id];
  const primary = runs[0];
  const config = primary?.config ?? ctx.pending;
  const overlay = runs.length > 1;
  const { keys, range, yLabel } = keysFor(spec, runs, config, overlay ? null : ctx.reference);
  const series: PlotSeries[] = [];
  const legend: LegendEntry[] = [];
  const values: number[] = [];
  let points = 0;

  runs.forEach((run, r) => {
    const color = runColor(run);
    const drawn: { key: string; data: XY[]; label: string }[] = [];
    for (const key of overlay ? keys.slice(0, 1) : keys) {
      const data = scalarSeries(run, key);
      if (data.length === 0) continue;
      const twin = drawn.find((d) => sameSeries(d.data, data));
      if (twin) {
        twin.label = `${twin.label} (= ${seriesName(key)})`;
        continue;
      }
      drawn.push({ key, data, label: seriesName(key) });
    }
    drawn.forEach((d, k) => {
      // Overlaid runs: colour and dash mean the run, and each later run is drawn thinner, so two
      // runs that agree step for step (the same seed) still show both.
      const dash = DASHES[(overlay ? r : k) % DASHES.length];
      const width = overlay ? Math.max(1.5, 3.5 - r) : undefined;
      const label = overlay ? runLegend(run) : d.label;
      series.push({
        id: `${run.id}:${d.key}`,
        label,
        color,
        dash,
        ...(width ? { width } : {}),
        points: downsample(d.data, POINT_BUDGET),
      });
      legend.push({ label, color, dash, title: d.key });
      points = Math.max(points, d.data.length);
      for (const p of d.data) values.push(p.y);
    });
    if (id === 'reward') {
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
            legend.push({
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
        series.push({ id: `${run.id}:${key}`, label, color, kind: 'points', marker: shape, points: data });
        legend.push({ label, color, marker, title });
      }
    }
  });

  // Lines that belong to one run: the chance level, its curriculum's advances, the reference runs.
  const hLines: ChartModel['hLines'] = [];
  const vLines: ChartModel['vLines'] = [];
  if (primary && !overlay) {
    for (const a of levelAdvances(primary)) vLines.push({ x: a.step, label: `L${a.level}`, color: MARKER_COLOR });
  }
  if (id === 'reward' && config && ctx.chance) {
    addChance(primary, config, ctx.chance, series, hLines, legend);
  }
  let recorded = 0;
  let note: string | undefined;
  if (!overlay && ctx.reference) {
    // The lesson's recorded runs, faint under the live one: after a jump to a trained model the
    // live run has one point, and these say how the runs that made it got there.
    const jump = ctx.jump;
    const drawn = ctx.reference.runs.flatMap((ref) => {
      const lines = recordedLines(id, ref, keys, config);
      return jump ? lines.flatMap((line) => splitAtJump(line, jump, ref.seed)) : lines;
    });
    // The faint rest first, the history over it, the model's own run on top.
    drawn.sort((a, b) => drawOrder(a) - drawOrder(b));
    for (const line of drawn) {
      series.push(line);
      if (id !== 'reward' && id !== 'level') for (const p of line.points) values.push(p.y); // the axes those two have are fixed
    }
    recorded = drawn.length;
    const n = ctx.reference.runs.length;
    if (drawn.length) {
      // Short labels: on a projector a small chart's legend has room for two lines.
      const label = jump && jump.step > 0 ? `recorded runs to step ${jump.step}` : `recorded runs (${n})`;
      legend.push({
        label,
        color: REFERENCE_COLOR,
        faint: true,
        title: `${n} recorded run${n === 1 ? '' : 's'} of this lesson: ${ctx.reference.source}`,
      });
    }
    if (jump && jump.step > 0 && drawn.some((l) => l.id.startsWith(OWN_RUN))) {
      legend.push({
        label: "this model's run",
        color: OWN_RUN_COLOR,
        title: `seed ${jump.seed}: the recorded run that made the loaded model, drawn to step ${jump.step}`,
      });
    } else if (jump && jump.step > 0) {
      note = drawn.length
        ? `no recorded run of this model (seed ${jump.seed}) here`
        : 'no recorded run of this model here';
    }
  } else if (!overlay && ctx.jump) {
    note = 'no recorded run of this model';
  }
  if (id === 'entropy' && config) {
    hLines.push({
      y: maxEntropy(config),
      label: 'uniform guess (ln V)',
      short: 'ln V',
      color: CHANCE_COLOR,
      dash: '5 4',
    });
  }

  const y = yAxis(range, config, values);
  const base = spec.id === 'task' ? taskTitle(keys, config) : spec.title;
  // Overlaid, a chart of several metrics draws its first only: the title names it.
  const first = keys[0] !== undefined ? seriesName(keys[0]) : '';
  const title = overlay && keys.length > 1 && first.toLowerCase() !== base.toLowerCase() ? `${base}: ${first}` : base;
  // A lone line named like its chart needs no legend.
  const needless = legend.length === 1 && legend[0].label.toLowerCase() === title.toLowerCase();
  return {
    spec,
    title,
    yLabel,
    xDomain: xDomainOf(runs, ctx.pending, ctx.fromZero),
    ...y,
    series,
    hLines,
    vLines,
    legend: needless ? [] : legend,
    points,
    recorded,
    ...(note ? { note } : {}),
  };
}

/** The task chart is named by what it shows; before any data, by what the task will report. */
function taskTitle(keys: readonly string[], config: RunConfig | undefined): string {
  const headline = config && isTaskName(config.task) ? getTask(config.task).display.headlineMetric : undefined;
  const shown = keys.length ? keys : headline ? [headline] : [];
  const names = shown.map((k) => metricName(k)).filter((n) => !n.endsWith('(suffix)'));
  return names.length ? names.join(', ').replace(/^./, (c) => c.toUpperCase()) : CHARTS.task.title;
}

/** How every recorded run is drawn: faint, thin, never in the tooltip. */
const RECORDED_STYLE = { color: REFERENCE_COLOR, opacity: 0.3, width: 1.5, hideInTooltip: true } as const;

/**
 * One recorded run's lines on chart `id`: its reward curve; its curriculum as a staircase from
 * the first level (a file without advances: a flat line); on the other charts each of `keys` the
 * file holds, dashed as the live line of the same metric.
 */
function recordedLines(
  id: ChartId,
  ref: ReferenceRun,
  keys: readonly string[],
  config: RunConfig | undefined,
): PlotSeries[] {
  const label = `reference run (seed ${ref.seed})`;
  if (id === 'reward') {
    return [
      {
        id: `reference:${ref.seed}`,
        label,
        ...RECORDED_STYLE,
        points: downsample(
          ref.reward.map(([x, y]) => ({ x, y })),
          POINT_BUDGET,
        ),
      },
    ];
  }
  if (id === 'level') {
    if (!config) return [];
    const end = ref.reward.length ? ref.reward[ref.reward.length - 1][0] : 0;
    const points: XY[] = [{ x: 0, y: levelRange(config)[0] }, ...(ref.advances ?? []).map(([x, y]) => ({ x, y }))];
    points.push({ x: Math.max(end, points[points.length - 1].x), y: points[points.length - 1].y });
    return [{ id: `reference:${ref.seed}`, label, ...RECORDED_STYLE, kind: 'step', points }];
  }
  return keys.flatMap((key, k) => {
    const curve = ref.series?.[key];
    if (!curve?.length) return [];
    return [
      {
        id: `reference:${ref.seed}:${key}`,
        label: `${label} ${seriesName(key)}`,
        ...RECORDED_STYLE,
        dash: DASHES[k % DASHES.length],
        points: downsample(
          curve.map(([x, y]) => ({ x, y })),
          POINT_BUDGET,
        ),
      },
    ];
  });
}

/** The loaded model's own recorded run: drawn darker than the others, up to its step. */
export const OWN_RUN_COLOR = '#111827';
const OWN_RUN = 'own:';
const HISTORY = 'history:';

function drawOrder(line: PlotSeries): number {
  return line.id.startsWith(OWN_RUN) ? 2 : line.id.startsWith(HISTORY) ? 1 : 0;
}

/**
 * A recorded line cut at the loaded model's step: up to it drawn as history (the run of the
 * model's seed marked as its own), after it faint. A line from step 0 (a base model) stays faint.
 */
function splitAtJump(line: PlotSeries, jump: { step: number; seed: number }, seed: number): PlotSeries[] {
  if (jump.step <= 0) return [line];
  const before = line.points.filter((p) => p.x <= jump.step);
  const after = line.points.filter((p) => p.x >= jump.step);
  // The faint part starts where the history ends, so the two join.
  if (before.length && after[0]?.x !== before[before.length - 1].x) after.unshift(before[before.length - 1]);
  const out: PlotSeries[] = [];
  if (after.length > 1) out.push({ ...line, points: after, opacity: 0.22 });
  if (before.length) {
    const own = seed === jump.seed;
    out.push(
      own
        ? {
            ...line,
            id: `${OWN_RUN}${line.id}`,
            label: line.label.replace('reference run', "this model's run"),
            color: OWN_RUN_COLOR,
            opacity: 0.85,
            width: 2.5,
          }
        : { ...line, id: `${HISTORY}${line.id}`, opacity: 0.5 },
    );
    out[out.length - 1].points = before;
  }
  return out;
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
