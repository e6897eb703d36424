// An ablation as one JSON file: the spec (preset, cells, seeds, steps, what "solved" means), each
// run with its config and metrics (the run file's own format), and the statistics as they were
// computed. Importing it rebuilds the spec through the same validation as a new ablation and
// each run through the run-file reader, so a bad file is refused by field and loses nothing.

import { ablationCells, ablationSpec, type AblationSpec } from '../../ablation/spec';
import { ConfigError } from '../../config';
import type { AblationStats } from '../../ablation';
import type { AblationState } from '../../store/ablationSlice';
import { isRecord, readPlaygroundFile, runFromJson, RunFileError, runToJson } from '../../store/runFiles';
import type { RunRecord } from '../../store/kept-runs';

export const ABLATION_FILE_FORMAT = 'rlvr-playground-ablation';
export const ABLATION_FILE_VERSION = 1;

interface AblationFileJob {
  cell: string;
  seed: number;
  status: string;
  /** Index into `runs`. */
  run: number;
}

export function ablationToJson(a: AblationState, runs: readonly RunRecord[], stats: AblationStats | null): string {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const kept = a.jobs.filter((j) => byId.has(j.runId));
  const file = {
    format: ABLATION_FILE_FORMAT,
    version: ABLATION_FILE_VERSION,
    spec: a.spec,
    concurrency: a.concurrency,
    startedAt: a.startedAt,
    finishedAt: a.finishedAt,
    jobs: kept.map((j, i): AblationFileJob => ({ cell: j.cell, seed: j.seed, status: j.status, run: i })),
    runs: kept.map((j) => JSON.parse(runToJson(byId.get(j.runId)!)) as unknown),
    stats,
  };
  return JSON.stringify(file);
}

/** Reads an ablation file for viewing; throws RunFileError naming the field. */
export function ablationFromJson(text: string, fileName = 'ablation.json'): AblationState {
  const raw = readPlaygroundFile(text, fileName, 'ablation', ABLATION_FILE_FORMAT, ABLATION_FILE_VERSION);
  const s = raw.spec;
  if (!isRecord(s) || typeof s.preset !== 'string')
    throw new RunFileError('spec', `${fileName}: spec must be an object naming its preset`);
  let spec: AblationSpec;
  try {
    spec = ablationSpec(s.preset, {
      variants: Array.isArray(s.variants) ? s.variants.map(String) : [],
      grid: Array.isArray(s.grid)
        ? (s.grid as [unknown, unknown][]).map(
            ([k, vs]) => [String(k), Array.isArray(vs) ? vs.map(String) : []] as const,
          )
        : [],
      seeds: Array.isArray(s.seeds) ? s.seeds.map(Number) : undefined,
      steps: typeof s.steps === 'number' ? s.steps : undefined,
      sets: Array.isArray(s.sets) ? s.sets.map(String) : [],
      solved: isRecord(s.solved) ? (s.solved as unknown as AblationSpec['solved']) : null,
      metrics: Array.isArray(s.metrics) ? s.metrics.map(String) : undefined,
    });
  } catch (e) {
    if (e instanceof ConfigError) throw new RunFileError(`spec.${e.knob}`, `${fileName}: spec: ${e.message}`);
    throw e;
  }
  const cells = ablationCells(spec);
  if (!Array.isArray(raw.runs)) throw new RunFileError('runs', `${fileName}: runs must be a list`);
  const runs = raw.runs.map((r, i) => runFromJson(JSON.stringify(r), `${fileName}: runs[${i}]`));
  if (!Array.isArray(raw.jobs)) throw new RunFileError('jobs', `${fileName}: jobs must be a list`);
  const jobs = raw.jobs.map((j, i) => {
    if (
      !isRecord(j) ||
      typeof j.cell !== 'string' ||
      !Number.isInteger(j.run) ||
      (j.run as number) < 0 ||
      (j.run as number) >= runs.length
    ) {
      throw new RunFileError(
        `jobs[${i}]`,
        `${fileName}: jobs[${i}] must name a cell and the index of one of its ${runs.length} runs`,
      );
    }
    if (!cells.some((c) => c.label === j.cell)) {
      throw new RunFileError(
        `jobs[${i}].cell`,
        `${fileName}: jobs[${i}].cell ${JSON.stringify(j.cell)} is not a cell of this spec (${cells.map((c) => JSON.stringify(c.label)).join(', ')})`,
      );
    }
    const run = runs[j.run as number];
    return {
      cell: j.cell,
      seed: run.config.seed,
      runId: run.id,
      status: j.status === 'done' ? ('done' as const) : ('failed' as const),
      step: run.points.at(-1)?.step ?? 0,
    };
  });
  return {
    spec,
    cells,
    jobs,
    concurrency: typeof raw.concurrency === 'number' ? raw.concurrency : 1,
    startedAt: typeof raw.startedAt === 'number' ? raw.startedAt : 0,
    finishedAt: typeof raw.finishedAt === 'number' ? raw.finishedAt : null,
    importedFrom: fileName,
    importedRuns: runs,
  };
}
