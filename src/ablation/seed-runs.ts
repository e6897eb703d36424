// Runs as the ablation statistics read them (SeedRun), from the two places runs live: a CLI run
// folder's metrics.jsonl (one JSON line per step: {step, level, scalars, eval?}) and the page's
// kept run (points [{step, level, scalars}] and evals []). Both become the same series, so the
// same runs give the same statistics wherever they were trained. Pure: the caller reads files.

import type { SeedRun, SeriesPoint } from './curves';

/** The fields of a step the statistics use: a metrics.jsonl line and the page's MetricPoint both fit. */
export interface StepLike {
  step: number;
  level: number;
  scalars: Readonly<Record<string, number>>;
}

/** The fields of a held-out evaluation the statistics use (EvalRecord fits). */
export interface EvalLike {
  step: number;
  level: number;
  'eval/pass@1_greedy': number;
  'eval/pass@k'?: number;
  'eval/pass@1_sampled'?: number;
  taskMetrics?: Readonly<Record<string, number>>;
}

/** The plain-data shape of the page's RunRecord that a conversion needs. */
export interface RunRecordLike {
  id?: string;
  config: { readonly seed: number };
  points: readonly StepLike[];
  evals: readonly EvalLike[];
}

/**
 * A run's series: every per-step scalar under its own name, the curriculum level as "level",
 * and each evaluation as "eval/pass@1_greedy", "eval/pass@k", "eval/pass@1_sampled" and
 * "eval/task/<name>" (its task metrics). Every point carries the level it was measured at.
 */
export function seedRunFrom(
  seed: number,
  steps: readonly StepLike[],
  evals: readonly EvalLike[],
  id?: string,
): SeedRun {
  const series: Record<string, SeriesPoint[]> = {};
  // A value that is not a finite number (NaN, ±Infinity, null in a file) is no measurement: left out.
  const push = (key: string, step: number, value: number, level: number) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    (series[key] ??= []).push({ step, value, level });
  };
  const ordered = [...steps].sort((a, b) => a.step - b.step);
  for (const s of ordered) {
    push('level', s.step, s.level, s.level);
    for (const [k, v] of Object.entries(s.scalars)) push(k, s.step, v, s.level);
  }
  for (const e of [...evals].sort((a, b) => a.step - b.step)) {
    push('eval/pass@1_greedy', e.step, e['eval/pass@1_greedy'], e.level);
    if (e['eval/pass@k'] !== undefined) push('eval/pass@k', e.step, e['eval/pass@k'], e.level);
    if (e['eval/pass@1_sampled'] !== undefined) push('eval/pass@1_sampled', e.step, e['eval/pass@1_sampled'], e.level);
    for (const [k, v] of Object.entries(e.taskMetrics ?? {})) push(`eval/task/${k}`, e.step, v, e.level);
  }
  // A loop, not Math.max(...steps): a run of a million steps would overflow the call's arguments.
  let lastStep = 0;
  for (const s of ordered) lastStep = Math.max(lastStep, s.step);
  for (const e of evals) lastStep = Math.max(lastStep, e.step);
  return id === undefined ? { seed, lastStep, series } : { seed, lastStep, series, id };
}

/** The page's kept run (RunRecord) as a SeedRun. */
export function seedRunFromRecord(run: RunRecordLike): SeedRun {
  return seedRunFrom(run.config.seed, run.points, run.evals, run.id);
}

/** One parsed metrics.jsonl line: a step (with its evaluation, if any) or another record (warm start, …). */
interface MetricsLine {
  step?: unknown;
  level?: unknown;
  scalars?: unknown;
  eval?: unknown;
}

/** What reading a metrics.jsonl left out or merged, for the caller to tell the user. */
export interface MetricsNotes {
  /** metric → the steps and raw values that are not finite numbers (null, 1e999 read as Infinity, text): left out. */
  nonFinite: Map<string, { step: number; raw: unknown }[]>;
  /** step → how many lines recorded it, for steps recorded more than once (the last line is used). */
  repeated: Map<number, number>;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const show = (x: unknown): string =>
  x === undefined ? 'nothing' : typeof x === 'number' ? String(x) : String(JSON.stringify(x)).slice(0, 40);
const EVAL_FIELDS = ['eval/pass@1_greedy', 'eval/pass@k', 'eval/pass@1_sampled'] as const;

/**
 * A CLI run folder's metrics.jsonl text as a SeedRun, and what was left out. Lines that are not
 * steps (no "step": the warm-start line) are skipped, and so is an unfinished last line (a run
 * killed mid-write); a step recorded twice counts once (its last line). Throws naming the line
 * ("line 3: …") when a line is not JSON or its step or scalars are not what rlvr train writes.
 */
export function readMetricsJsonl(seed: number, text: string, id?: string): { run: SeedRun; notes: MetricsNotes } {
  const byStep = new Map<number, { row: StepLike; eval?: EvalLike }>();
  const notes: MetricsNotes = { nonFinite: new Map(), repeated: new Map() };
  const note = (metric: string, step: number, raw: unknown) => {
    if (typeof raw === 'number' && Number.isFinite(raw)) return;
    let list = notes.nonFinite.get(metric);
    if (!list) notes.nonFinite.set(metric, (list = []));
    list.push({ step, raw });
  };
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let row: MetricsLine;
    try {
      row = JSON.parse(line) as MetricsLine;
    } catch (e) {
      if (i >= lines.length - 2) return;
      throw new Error(`line ${i + 1}: not JSON (${(e as Error).message})`, { cause: e });
    }
    if (!isObject(row) || row.step === undefined) return;
    const step = row.step;
    if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0)
      throw new Error(`line ${i + 1}: "step" must be a whole number ≥ 0, got ${show(step)}`);
    if (!isObject(row.scalars))
      throw new Error(`line ${i + 1}: "scalars" must be an object of metric → value, got ${show(row.scalars)}`);
    if (row.eval !== undefined && !isObject(row.eval))
      throw new Error(`line ${i + 1}: "eval" must be an object, got ${show(row.eval)}`);
    if (byStep.has(step)) notes.repeated.set(step, (notes.repeated.get(step) ?? 1) + 1);
    const level = typeof row.level === 'number' ? row.level : NaN;
    byStep.set(step, {
      row: { step, level, scalars: row.scalars as Record<string, number> },
      ...(row.eval ? { eval: row.eval as unknown as EvalLike } : {}),
    });
  });
  const steps: StepLike[] = [];
  const evals: EvalLike[] = [];
  for (const { row, eval: ev } of [...byStep.values()].sort((a, b) => a.row.step - b.row.step)) {
    steps.push(row);
    for (const [k, v] of Object.entries(row.scalars)) note(k, row.step, v);
    if (ev) {
      const evalStep = Number.isSafeInteger(ev.step) && ev.step >= 0 ? ev.step : row.step;
      evals.push({ ...ev, step: evalStep, level: typeof ev.level === 'number' ? ev.level : row.level });
      for (const k of EVAL_FIELDS) if (k === 'eval/pass@1_greedy' || ev[k] !== undefined) note(k, evalStep, ev[k]);
      for (const [k, v] of Object.entries(isObject(ev.taskMetrics) ? ev.taskMetrics : {}))
        note(`eval/task/${k}`, evalStep, v);
    }
  }
  return { run: seedRunFrom(seed, steps, evals, id), notes };
}

/** readMetricsJsonl's run alone. */
export function seedRunFromMetricsJsonl(seed: number, text: string, id?: string): SeedRun {
  return readMetricsJsonl(seed, text, id).run;
}
