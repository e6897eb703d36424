// Runs as the ablation statistics read them (SeedRun), from the two places runs live: a CLI run
// folder's metrics.jsonl (one JSON line per step: {step, level, scalars, eval?}) and the page's
// kept run (points [{step, level, scalars}] and evals []). Both become the same series, so the
// same runs give the same statistics wherever they were trained. Pure: the caller reads files.

import type { SeedRun, SeriesPoint } from './ablation-stats';

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
export function seedRunFrom(seed: number, steps: readonly StepLike[], evals: readonly EvalLike[], id?: string): SeedRun {
  const series: Record<string, SeriesPoint[]> = {};
  const push = (key: string, step: number, value: number, level: number) => {
    if (typeof value !== 'number') return;
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
  const lastStep = Math.max(0, ...ordered.map((s) => s.step), ...evals.map((e) => e.step));
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
  eval?: EvalLike;
}

/**
 * A CLI run folder's metrics.jsonl text as a SeedRun. Lines that are not steps (the warm-start
 * line) are skipped, and so is an unfinished last line (a run killed mid-write).
 */
export function seedRunFromMetricsJsonl(seed: number, text: string, id?: string): SeedRun {
  const steps: StepLike[] = [];
  const evals: EvalLike[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let row: MetricsLine;
    try {
      row = JSON.parse(line) as MetricsLine;
    } catch (e) {
      if (i >= lines.length - 2) return;
      throw new Error(`metrics.jsonl line ${i + 1} is not JSON: ${(e as Error).message}`);
    }
    if (typeof row.step !== 'number' || typeof row.scalars !== 'object' || row.scalars === null) return;
    steps.push({ step: row.step, level: typeof row.level === 'number' ? row.level : NaN, scalars: row.scalars as Record<string, number> });
    if (row.eval) evals.push(row.eval);
  });
  return seedRunFrom(seed, steps, evals, id);
}
