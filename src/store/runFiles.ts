// Runs as files: CSV (one row per step, for spreadsheets and pandas) and JSON (the whole run,
// which imports back). Importing validates everything and names the field at fault.

import { ConfigError, validateConfig } from '../config';
import type { EvalRecord } from '../rl/step-metrics';
import { newRunId, type MetricPoint, type RunRecord } from './kept-runs';

export const RUN_FILE_FORMAT = 'rlvr-playground-run';
export const RUN_FILE_VERSION = 1;

export class RunFileError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RunFileError';
  }
}

/**
 * One CSV field: numbers bare (non-finite empty), text quoted when it needs to be. Text that a
 * spreadsheet would run as a formula (=, +, -, @, tab or CR first: an imported run's scalar may
 * be named `=HYPERLINK(…)`) gets a leading apostrophe, the usual guard, and is quoted.
 */
export function csvField(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  let s = String(v);
  const formula = /^[=+\-@\t\r]/.test(s);
  if (formula) s = `'${s}`;
  return formula || /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV of a run: columns step, level, then every scalar in first-seen order, then the held-out
 * eval columns (filled on the steps that evaluated). Rows in step order.
 */
export function runToCsv(run: RunRecord): string {
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const p of run.points) {
    for (const k of Object.keys(p.scalars)) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  const evalKeys = ['eval/pass@1_greedy', 'eval/pass@k', 'eval/pass@1_sampled'] as const;
  const evalByStep = new Map(run.evals.map((e) => [e.step, e]));
  const hasEvals = run.evals.length > 0;
  const header = ['step', 'level', ...keys, ...(hasEvals ? evalKeys : [])];
  const lines = [header.map(csvField).join(',')];
  for (const p of run.points) {
    const row: unknown[] = [p.step, p.level, ...keys.map((k) => p.scalars[k])];
    if (hasEvals) {
      const e = evalByStep.get(p.step);
      row.push(...evalKeys.map((k) => e?.[k]));
    }
    lines.push(row.map(csvField).join(','));
  }
  return lines.join('\n') + '\n';
}

/** JSON of a whole run (config, preset, metrics, evals), which `runFromJson` reads back. */
export function runToJson(run: RunRecord): string {
  const file = {
    format: RUN_FILE_FORMAT,
    version: RUN_FILE_VERSION,
    name: run.name,
    label: run.label,
    preset: run.preset ?? null,
    createdAt: run.createdAt,
    config: run.config,
    points: run.points,
    evals: run.evals,
    histogram: run.histogram ?? null,
  };
  return JSON.stringify(file);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readPoint(raw: unknown, i: number): MetricPoint {
  const where = `points[${i}]`;
  if (!isRecord(raw)) throw new RunFileError(where, `${where} must be an object`);
  if (!Number.isInteger(raw.step) || (raw.step as number) < 0)
    throw new RunFileError(`${where}.step`, `${where}.step must be a non-negative integer`);
  if (typeof raw.level !== 'number' || !Number.isFinite(raw.level))
    throw new RunFileError(`${where}.level`, `${where}.level must be a number`);
  if (!isRecord(raw.scalars))
    throw new RunFileError(`${where}.scalars`, `${where}.scalars must be an object of name → number`);
  const entries: [string, number][] = [];
  for (const [k, v] of Object.entries(raw.scalars)) {
    if (typeof v !== 'number' && v !== null)
      throw new RunFileError(`${where}.scalars.${k}`, `${where}.scalars.${k} must be a number`);
    entries.push([k, v === null ? NaN : v]); // JSON writes NaN as null
  }
  // fromEntries: a scalar named "__proto__" stays a scalar.
  return { step: raw.step as number, level: raw.level, scalars: Object.fromEntries(entries) };
}

function readEval(raw: unknown, i: number): EvalRecord {
  const where = `evals[${i}]`;
  if (!isRecord(raw)) throw new RunFileError(where, `${where} must be an object`);
  const out: Record<string, unknown> = {};
  for (const k of ['step', 'level', 'prompts', 'eval/pass@1_greedy', 'eval/pass@k', 'eval/pass@1_sampled', 'k']) {
    if (typeof raw[k] !== 'number') throw new RunFileError(`${where}.${k}`, `${where}.${k} must be a number`);
    out[k] = raw[k];
  }
  const metrics: [string, number][] = [];
  if (raw.taskMetrics !== undefined) {
    if (!isRecord(raw.taskMetrics))
      throw new RunFileError(`${where}.taskMetrics`, `${where}.taskMetrics must be an object of name → number`);
    for (const [k, v] of Object.entries(raw.taskMetrics)) {
      if (typeof v !== 'number' && v !== null)
        throw new RunFileError(`${where}.taskMetrics.${k}`, `${where}.taskMetrics.${k} must be a number`);
      metrics.push([k, v === null ? NaN : v]);
    }
  }
  return { ...(out as unknown as EvalRecord), taskMetrics: Object.fromEntries(metrics) };
}

/** The advantage histogram of the latest step: counts[n] ≥ 0, edges[n + 1] ascending, all finite. */
function readHistogram(raw: unknown): { counts: number[]; edges: number[] } | undefined {
  if (raw === null || raw === undefined) return undefined;
  if (!isRecord(raw) || !Array.isArray(raw.counts) || !Array.isArray(raw.edges)) {
    throw new RunFileError('histogram', 'histogram must be null or {counts: [number…], edges: [number…]}');
  }
  const { counts, edges } = raw as { counts: unknown[]; edges: unknown[] };
  counts.forEach((c, i) => {
    if (typeof c !== 'number' || !Number.isFinite(c) || c < 0)
      throw new RunFileError(
        `histogram.counts[${i}]`,
        `histogram.counts[${i}] must be a number ≥ 0, got ${JSON.stringify(c)}`,
      );
  });
  edges.forEach((e, i) => {
    if (typeof e !== 'number' || !Number.isFinite(e))
      throw new RunFileError(
        `histogram.edges[${i}]`,
        `histogram.edges[${i}] must be a finite number, got ${JSON.stringify(e)}`,
      );
    if (i > 0 && e < (edges[i - 1] as number))
      throw new RunFileError(
        `histogram.edges[${i}]`,
        `histogram.edges must be ascending; edges[${i}] = ${e} is below edges[${i - 1}]`,
      );
  });
  if (edges.length !== counts.length + 1) {
    throw new RunFileError(
      'histogram.edges',
      `histogram.edges must have one more entry than counts (${counts.length + 1}), got ${edges.length}`,
    );
  }
  return { counts: counts as number[], edges: edges as number[] };
}

/**
 * The object of a playground file (`{ format, version, … }`): JSON, of this format and version, or
 * a RunFileError naming what is wrong ('file', 'format' or 'version'). `what` names the kind of
 * file in the message ("a playground run").
 */
export function readPlaygroundFile(
  text: string,
  fileName: string,
  what: string,
  format: string,
  version: number,
): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RunFileError('file', `${fileName} is not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(raw) || raw.format !== format) {
    throw new RunFileError('format', `${fileName} is not a playground ${what} (format must be "${format}")`);
  }
  if (raw.version !== version) {
    throw new RunFileError(
      'version',
      `${fileName} has version ${JSON.stringify(raw.version) ?? 'none'}; this playground reads version ${version}`,
    );
  }
  return raw;
}

/**
 * Reads a run file written by `runToJson`. Throws RunFileError naming the field (the config's
 * errors name the knob). The run gets a new id; `name` is left for the caller to number.
 */
export function runFromJson(text: string, fileName = 'run.json'): RunRecord {
  const raw = readPlaygroundFile(text, fileName, 'run', RUN_FILE_FORMAT, RUN_FILE_VERSION);
  let config;
  try {
    config = validateConfig(raw.config as Record<string, unknown>);
  } catch (e) {
    if (e instanceof ConfigError) throw new RunFileError(`config.${e.knob}`, `${fileName}: config: ${e.message}`);
    throw e;
  }
  if (!Array.isArray(raw.points)) throw new RunFileError('points', `${fileName}: points must be a list`);
  const points = raw.points.map(readPoint);
  if (raw.evals !== undefined && !Array.isArray(raw.evals))
    throw new RunFileError('evals', `${fileName}: evals must be a list`);
  const evals = Array.isArray(raw.evals) ? raw.evals.map(readEval) : [];
  const run: RunRecord = {
    id: newRunId(),
    name: typeof raw.name === 'string' ? raw.name : '#?',
    label: typeof raw.label === 'string' ? raw.label : fileName,
    config,
    createdAt: typeof raw.createdAt === 'number' ? raw.createdAt : Date.now(),
    points,
    evals,
    importedFrom: fileName,
  };
  if (typeof raw.preset === 'string') run.preset = raw.preset;
  const histogram = readHistogram(raw.histogram);
  if (histogram) run.histogram = histogram;
  return run;
}

/** A file name for a run's export: "rlvr-3-sort-easy.csv". */
export function runFileName(run: RunRecord, ext: string): string {
  const base = `rlvr-${run.name.replace(/^#/, '')}-${run.preset ?? run.config.task}`;
  return `${base.replace(/[^A-Za-z0-9._-]+/g, '_')}.${ext}`;
}
