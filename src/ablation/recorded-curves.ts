// A suite task's recorded curves (docs/leaderboard.md, "Recorded curves"): every run of the
// leaderboard's task, per method and seed, as the step series of the task's main metric and the
// reward, small enough to ship with the page (public/reference/leaderboard-sorting.json). `rlvr
// sweep --suite … --curves-out DIR` writes it from the runs' own folders; the page's ablation view
// loads it and draws it over its charts as recorded runs (src/ui/ablation/recordedSeries.ts).
// Pure: the caller reads and writes the files. Held-out evaluations are kept as they are (one point
// every evalEvery steps, so steps to solve are the runs' own); the level is read at `points` evenly
// spaced steps; per-step metrics are averaged down to at most `points` points per run
// (core/downsample: bucket means, never a smoothed curve).

import { downsample } from '../core/downsample';
import type { AblationCell, SeedRun, SeriesPoint, SolvedRule } from './curves';

export const RECORDED_CURVES_FORMAT = 'rlvr-leaderboard-curves';
export const RECORDED_CURVES_VERSION = 1;
/** Points per run of a per-step metric (the reward): a 500-step run keeps one point in five. */
export const RECORDED_CURVES_POINTS = 100;

/** A point as the file stores it: [step, value], or [step, value, level] where the solved rule needs the level. */
export type RecordedPoint = [number, number] | [number, number, number];

export interface RecordedRun {
  seed: number;
  /** The last step the run trained (a run that never solved is censored here). */
  lastStep: number;
  /** metric key → points in step order. */
  series: Record<string, RecordedPoint[]>;
}

export interface RecordedMethod {
  label: string;
  /** The knobs the method sets on the task's recipe (GRPO: none). */
  set: Record<string, string>;
  runs: RecordedRun[];
}

export interface RecordedCurvesFile {
  format: typeof RECORDED_CURVES_FORMAT;
  version: typeof RECORDED_CURVES_VERSION;
  suite: string;
  task: { id: string; title: string; preset: string; sets: string[]; steps: number };
  seeds: number[];
  solved: SolvedRule | null;
  /** The metrics recorded, the main one first. */
  metrics: string[];
  /** Points per run a per-step metric was averaged down to. */
  points: number;
  /** The command that ran the runs (and writes this file again). */
  command: string;
  /** What the reader must know: methods left out of these runs, a shortened budget. */
  notes: string[];
  methods: RecordedMethod[];
}

/** A file that is not a recorded-curves file, or not this version of one; `field` names what is wrong. */
export class RecordedCurvesError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RecordedCurvesError';
  }
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * The level, a step function, read at `budget` evenly spaced steps from the run's first to its
 * last (the level in force at each, the last one recorded there): the same steps in every run of
 * one length, so runs average point by point, and the last point is the run's final level.
 */
function levelSamples(points: readonly SeriesPoint[], budget: number): SeriesPoint[] {
  const finite = points.filter((p) => Number.isFinite(p.value));
  if (finite.length === 0) return [];
  const first = finite[0].step;
  const last = finite[finite.length - 1].step;
  const steps =
    budget < 2 || last === first
      ? [last]
      : [...new Set(Array.from({ length: budget }, (_, k) => first + Math.round((k * (last - first)) / (budget - 1))))];
  const out: SeriesPoint[] = [];
  let i = 0;
  for (const step of steps) {
    while (i + 1 < finite.length && finite[i + 1].step <= step) i++;
    out.push({ step, value: finite[i].value });
  }
  return out;
}

/**
 * One metric of one run as stored: held-out evaluations whole (with the level they were taken at,
 * when the solved rule needs it), the level at evenly spaced steps, per-step metrics averaged down.
 */
function recordedSeries(points: readonly SeriesPoint[], metric: string, budget: number, withLevel: boolean) {
  const kept = metric.startsWith('eval/')
    ? points
    : metric === 'level'
      ? levelSamples(points, budget)
      : downsample(
          points.map((p) => ({ x: p.step, y: p.value })),
          budget,
        );
  return kept.map((p): RecordedPoint => {
    const step = 'step' in p ? p.step : round(p.x, 1);
    const value = round('value' in p ? p.value : p.y, 4);
    const level = 'level' in p ? p.level : undefined;
    return withLevel && level !== undefined && Number.isFinite(level) ? [step, value, level] : [step, value];
  });
}

export interface RecordCurvesInput {
  suite: string;
  task: RecordedCurvesFile['task'];
  seeds: readonly number[];
  solved: SolvedRule | null;
  /** The task's main metric first; the reward is added when missing. */
  metrics: readonly string[];
  /** The runs, grouped into one cell per method (the suite's cells, GRPO first). */
  cells: readonly AblationCell[];
  command: string;
  notes?: readonly string[];
  points?: number;
}

/** The file of a task's runs: its main metric and the reward (and the solved rule's metric), per method and seed. */
export function recordCurves(input: RecordCurvesInput): RecordedCurvesFile {
  const budget = input.points ?? RECORDED_CURVES_POINTS;
  const metrics = [...new Set([input.metrics[0], 'reward', ...(input.solved ? [input.solved.metric] : [])])].filter(
    (m): m is string => typeof m === 'string',
  );
  const withLevel = input.solved?.level !== undefined;
  const methods = input.cells.map((c): RecordedMethod => ({
    label: c.label,
    set: Object.fromEntries(Object.entries(c.set ?? {}).map(([k, v]) => [k, String(v)])),
    runs: [...c.runs]
      .sort((a, b) => a.seed - b.seed)
      .map((r) => ({
        seed: r.seed,
        lastStep: r.lastStep,
        series: Object.fromEntries(
          metrics.flatMap((m) =>
            r.series[m]?.length
              ? [[m, recordedSeries(r.series[m], m, budget, withLevel && m === input.solved?.metric)]]
              : [],
          ),
        ),
      })),
  }));
  return {
    format: RECORDED_CURVES_FORMAT,
    version: RECORDED_CURVES_VERSION,
    suite: input.suite,
    task: { ...input.task, sets: [...input.task.sets] },
    seeds: [...input.seeds],
    solved: input.solved,
    metrics,
    points: budget,
    command: input.command,
    notes: [...(input.notes ?? [])],
    methods,
  };
}

/** The file's runs as the ablation statistics read them: one cell per method, in the file's order (GRPO first). */
export function recordedCells(file: RecordedCurvesFile): AblationCell[] {
  return file.methods.map((m) => ({
    label: m.label,
    set: m.set,
    runs: m.runs.map((r): SeedRun => ({
      seed: r.seed,
      lastStep: r.lastStep,
      series: Object.fromEntries(
        Object.entries(r.series).map(([k, pts]) => [
          k,
          pts.map((p) => (p.length === 3 ? { step: p[0], value: p[1], level: p[2] } : { step: p[0], value: p[1] })),
        ]),
      ),
    })),
  }));
}

// ── reading a file (the shipped one, or a user's) ─────────────────────────────────────────────

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function fail(fileName: string, field: string, what: string): never {
  throw new RecordedCurvesError(field, `${fileName}: ${field} ${what}`);
}

function readPoints(fileName: string, field: string, raw: unknown): RecordedPoint[] {
  if (!Array.isArray(raw)) fail(fileName, field, 'must be a list of [step, value] points');
  let last = -Infinity;
  return raw.map((p, i) => {
    if (!Array.isArray(p) || (p.length !== 2 && p.length !== 3) || !p.every(isFiniteNumber))
      fail(fileName, `${field}[${i}]`, `must be [step, value] or [step, value, level] of finite numbers`);
    if (p[0] < last) fail(fileName, `${field}[${i}]`, `steps must not decrease (step ${p[0]} after ${last})`);
    last = p[0];
    return p as RecordedPoint;
  });
}

function readRun(fileName: string, field: string, raw: unknown, metrics: readonly string[]): RecordedRun {
  if (!isRecord(raw)) fail(fileName, field, 'must be an object {seed, lastStep, series}');
  if (!Number.isInteger(raw.seed)) fail(fileName, `${field}.seed`, 'must be a whole number');
  if (!isFiniteNumber(raw.lastStep) || raw.lastStep < 0) fail(fileName, `${field}.lastStep`, 'must be a step ≥ 0');
  if (!isRecord(raw.series)) fail(fileName, `${field}.series`, 'must be an object of metric → points');
  const series: Record<string, RecordedPoint[]> = {};
  for (const [k, pts] of Object.entries(raw.series)) {
    if (!metrics.includes(k))
      fail(
        fileName,
        `${field}.series`,
        `has ${JSON.stringify(k)}, not one of the file's metrics (${metrics.join(', ')})`,
      );
    series[k] = readPoints(fileName, `${field}.series.${k}`, pts);
  }
  return { seed: raw.seed as number, lastStep: raw.lastStep, series };
}

function readSolved(fileName: string, raw: unknown): SolvedRule | null {
  if (raw === null || raw === undefined) return null;
  if (!isRecord(raw) || typeof raw.metric !== 'string' || !isFiniteNumber(raw.target))
    fail(fileName, 'solved', 'must be null or {metric, target[, level]}');
  if (raw.level !== undefined && !isFiniteNumber(raw.level)) fail(fileName, 'solved.level', 'must be a number');
  return { metric: raw.metric, target: raw.target, ...(raw.level !== undefined ? { level: raw.level as number } : {}) };
}

function readTask(fileName: string, raw: unknown): RecordedCurvesFile['task'] {
  if (!isRecord(raw) || typeof raw.id !== 'string' || typeof raw.preset !== 'string')
    fail(fileName, 'task', 'must be an object {id, title, preset, sets, steps}');
  if (!Number.isInteger(raw.steps) || (raw.steps as number) < 1)
    fail(fileName, 'task.steps', 'must be a whole number ≥ 1');
  const sets = Array.isArray(raw.sets) ? raw.sets.map(String) : [];
  return {
    id: raw.id,
    title: typeof raw.title === 'string' ? raw.title : raw.id,
    preset: raw.preset,
    sets,
    steps: raw.steps as number,
  };
}

/** A recorded-curves file from its text; throws RecordedCurvesError naming the field that is wrong. */
export function parseRecordedCurves(text: string, fileName = 'curves.json'): RecordedCurvesFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RecordedCurvesError('file', `${fileName}: not JSON (${(e as Error).message})`);
  }
  if (!isRecord(raw) || raw.format !== RECORDED_CURVES_FORMAT)
    fail(
      fileName,
      'format',
      `must be "${RECORDED_CURVES_FORMAT}" (a file \`rlvr sweep --suite … --curves-out\` wrote)`,
    );
  if (raw.version !== RECORDED_CURVES_VERSION)
    fail(fileName, 'version', `must be ${RECORDED_CURVES_VERSION}, got ${JSON.stringify(raw.version)}`);
  if (!Array.isArray(raw.metrics) || raw.metrics.length === 0 || !raw.metrics.every((m) => typeof m === 'string'))
    fail(fileName, 'metrics', 'must be a non-empty list of metric names');
  const metrics = raw.metrics as string[];
  if (!Array.isArray(raw.methods) || raw.methods.length === 0) fail(fileName, 'methods', 'must be a non-empty list');
  const labels = new Set<string>();
  const methods = raw.methods.map((m, i): RecordedMethod => {
    if (!isRecord(m) || typeof m.label !== 'string' || !m.label) fail(fileName, `methods[${i}]`, 'must name its label');
    if (labels.has(m.label)) fail(fileName, `methods[${i}].label`, `${JSON.stringify(m.label)} is given twice`);
    labels.add(m.label);
    if (!Array.isArray(m.runs)) fail(fileName, `methods[${i}].runs`, 'must be a list');
    const set = isRecord(m.set) ? Object.fromEntries(Object.entries(m.set).map(([k, v]) => [k, String(v)])) : {};
    return {
      label: m.label,
      set,
      runs: m.runs.map((r, j) => readRun(fileName, `methods[${i}].runs[${j}]`, r, metrics)),
    };
  });
  return {
    format: RECORDED_CURVES_FORMAT,
    version: RECORDED_CURVES_VERSION,
    suite: typeof raw.suite === 'string' ? raw.suite : '',
    task: readTask(fileName, raw.task),
    seeds: Array.isArray(raw.seeds) ? raw.seeds.filter((s): s is number => Number.isInteger(s)) : [],
    solved: readSolved(fileName, raw.solved),
    metrics,
    points: isFiniteNumber(raw.points) ? raw.points : RECORDED_CURVES_POINTS,
    command: typeof raw.command === 'string' ? raw.command : '',
    notes: Array.isArray(raw.notes) ? raw.notes.map(String) : [],
    methods,
  };
}
