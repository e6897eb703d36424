// Runs as files: CSV (one row per step, for spreadsheets and pandas) and JSON (the whole run,
// which imports back). Importing validates everything and names the field at fault.

import { ConfigError, validateConfig } from '../config';
import type { EvalRecord } from '../rl/trainer';
import { newRunId, type MetricPoint, type RunRecord } from './runs';

export const RUN_FILE_FORMAT = 'rlvr-playground-run';
export const RUN_FILE_VERSION = 1;

export class RunFileError extends Error {
  constructor(readonly field: string, message: string) {
    super(message);
    this.name = 'RunFileError';
  }
}

/** One CSV field: numbers bare (non-finite empty), text quoted when it needs to be. */
function csvField(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
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

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readPoint(raw: unknown, i: number): MetricPoint {
  const where = `points[${i}]`;
  if (!isRecord(raw)) throw new RunFileError(where, `${where} must be an object`);
  if (!Number.isInteger(raw.step) || (raw.step as number) < 0) throw new RunFileError(`${where}.step`, `${where}.step must be a non-negative integer`);
  if (typeof raw.level !== 'number') throw new RunFileError(`${where}.level`, `${where}.level must be a number`);
  if (!isRecord(raw.scalars)) throw new RunFileError(`${where}.scalars`, `${where}.scalars must be an object of name → number`);
  const scalars: Record<string, number> = {};
  for (const [k, v] of Object.entries(raw.scalars)) {
    if (typeof v !== 'number' && v !== null) throw new RunFileError(`${where}.scalars.${k}`, `${where}.scalars.${k} must be a number`);
    scalars[k] = v === null ? NaN : v; // JSON writes NaN as null
  }
  return { step: raw.step as number, level: raw.level, scalars };
}

function readEval(raw: unknown, i: number): EvalRecord {
  const where = `evals[${i}]`;
  if (!isRecord(raw)) throw new RunFileError(where, `${where} must be an object`);
  for (const k of ['step', 'level', 'prompts', 'eval/pass@1_greedy', 'eval/pass@k', 'eval/pass@1_sampled', 'k']) {
    if (typeof raw[k] !== 'number') throw new RunFileError(`${where}.${k}`, `${where}.${k} must be a number`);
  }
  return { ...(raw as unknown as EvalRecord), taskMetrics: isRecord(raw.taskMetrics) ? (raw.taskMetrics as Record<string, number>) : {} };
}

/**
 * Reads a run file written by `runToJson`. Throws RunFileError naming the field (the config's
 * errors name the knob). The run gets a new id; `name` is left for the caller to number.
 */
export function runFromJson(text: string, fileName = 'run.json'): RunRecord {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new RunFileError('file', `${fileName} is not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(raw) || raw.format !== RUN_FILE_FORMAT) {
    throw new RunFileError('format', `${fileName} is not a playground run (format must be "${RUN_FILE_FORMAT}")`);
  }
  if (raw.version !== RUN_FILE_VERSION) {
    throw new RunFileError('version', `${fileName} has version ${String(raw.version)}; this playground reads version ${RUN_FILE_VERSION}`);
  }
  let config;
  try {
    config = validateConfig(raw.config as Record<string, unknown>);
  } catch (e) {
    if (e instanceof ConfigError) throw new RunFileError(`config.${e.knob}`, `${fileName}: config: ${e.message}`);
    throw e;
  }
  if (!Array.isArray(raw.points)) throw new RunFileError('points', `${fileName}: points must be a list`);
  const points = raw.points.map(readPoint);
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
  const h = raw.histogram;
  if (isRecord(h) && Array.isArray(h.counts) && Array.isArray(h.edges)) run.histogram = { counts: h.counts as number[], edges: h.edges as number[] };
  return run;
}

/** A file name for a run's export: "rlvr-3-sort-easy.csv". */
export function runFileName(run: RunRecord, ext: string): string {
  const base = `rlvr-${run.name.replace(/^#/, '')}-${run.preset ?? run.config.task}`;
  return `${base.replace(/[^A-Za-z0-9._-]+/g, '_')}.${ext}`;
}
