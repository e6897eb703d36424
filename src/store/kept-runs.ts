// A kept run: its config and its metrics, as plain data (stored in IndexedDB, exported as JSON).

import { diffLabel, type RunConfig } from '../config/config';
import { presetConfig } from '../lessons/presets';
import type { EvalRecord, StepRecord } from '../rl/step-metrics';

/** One step's scalars (TRL names, e.g. reward, pass@1, entropy, task/…, time/…). */
export interface MetricPoint {
  step: number;
  level: number;
  scalars: Record<string, number>;
}

export interface AdvantageHistogram {
  counts: number[];
  edges: number[];
}

export interface RunRecord {
  id: string;
  /** "#3": the run's number in this browser. */
  name: string;
  /** What changed from the previous run ("ε_high 0.2→0.28"), or how it began. */
  label: string;
  config: RunConfig;
  preset?: string;
  createdAt: number;
  points: MetricPoint[];
  evals: EvalRecord[];
  /** The advantage histogram of the latest step. */
  histogram?: AdvantageHistogram;
  /** Where it came from when it was not trained here (a file name). */
  importedFrom?: string;
  /** The preset variant it runs (its label), when started from a variant button. */
  variant?: string;
}

/** A point from a step record (the arrays of the record are left out: they are per step only). */
export function pointOf(record: StepRecord): MetricPoint {
  return { step: record.step, level: record.level, scalars: record.scalars };
}

/**
 * The label of a new run, from what the person chose: a lesson's run is named by the lesson,
 * with what was changed from it ("sort-easy: ε_high 0.2→0.28"; the step budget does not count);
 * without a lesson, what changed from the run before ("same config" for a repeat; "defaults"
 * for the first). Variants, sweeps and imports pass their own label instead.
 */
export function runLabel(config: RunConfig, preset: string | undefined, previous: RunRecord | undefined): string {
  if (preset !== undefined) {
    let lesson: RunConfig | undefined;
    try {
      lesson = presetConfig(preset);
    } catch {
      lesson = undefined; // a preset name from an older version: fall back to the run before
    }
    if (lesson) {
      const diff = diffLabel({ ...lesson, steps: config.steps }, config, { max: 4 });
      return diff ? `${preset}: ${diff}` : preset;
    }
  }
  if (!previous) return preset ?? 'defaults';
  const diff = diffLabel(previous.config, config, { max: 4 });
  if (diff) return diff;
  return 'same config';
}

/** The next free run number ("#n") given the runs kept. */
export function nextRunName(runs: readonly RunRecord[]): string {
  let max = 0;
  for (const r of runs) {
    const n = Number(/^#(\d+)$/.exec(r.name)?.[1] ?? 0);
    if (n > max) max = n;
  }
  return `#${max + 1}`;
}

/** A new run with no metrics. */
export function makeRun(
  runs: readonly RunRecord[],
  config: RunConfig,
  preset: string | undefined,
  options: { id?: string; now?: number; label?: string; importedFrom?: string; variant?: string } = {},
): RunRecord {
  const previous = runs[runs.length - 1];
  const run: RunRecord = {
    id: options.id ?? newRunId(),
    name: nextRunName(runs),
    label: options.label ?? runLabel(config, preset, previous),
    config,
    createdAt: options.now ?? Date.now(),
    points: [],
    evals: [],
  };
  if (preset !== undefined) run.preset = preset;
  if (options.importedFrom !== undefined) run.importedFrom = options.importedFrom;
  if (options.variant !== undefined) run.variant = options.variant;
  return run;
}

let idCounter = 0;
export function newRunId(): string {
  idCounter++;
  return `run-${Date.now().toString(36)}-${idCounter.toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * The run with new step records appended (a new object; the old one is untouched). Records at
 * or before the run's last step replace the points from that step on (a resumed run re-trains
 * steps after its checkpoint).
 */
export function appendRecords(run: RunRecord, records: readonly StepRecord[], evals: readonly EvalRecord[]): RunRecord {
  if (records.length === 0 && evals.length === 0) return run;
  let points = run.points;
  let runEvals = run.evals;
  if (records.length) {
    const first = records[0].step;
    const keep =
      points.length && points[points.length - 1].step >= first ? points.filter((p) => p.step < first) : points;
    points = keep.concat(records.map(pointOf));
  }
  if (evals.length) {
    const first = evals[0].step;
    runEvals = runEvals.filter((e) => e.step < first).concat(evals);
  }
  const last = records[records.length - 1];
  return { ...run, points, evals: runEvals, histogram: last ? last.advantage_histogram : run.histogram };
}

/** The run cut back to the steps up to `step` (before a resume from a checkpoint at `step`). */
export function truncateRun(run: RunRecord, step: number): RunRecord {
  return {
    ...run,
    points: run.points.filter((p) => p.step <= step),
    evals: run.evals.filter((e) => e.step <= step),
  };
}
