// Run folders made without training, for the tests of `rlvr report` and `rlvr sweep`: a
// config.json as `rlvr train` writes it and a metrics.jsonl of plausible lines (rewards that
// rise with the step, a held-out evaluation at every step). Also the one-line check every
// refused command must pass, and a run folder's metrics as two equal runs share them. Used by
// tests only.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mergeConfig, type RunConfig } from '../config';
import { configFromCli } from '../lessons';

export interface FakeRun {
  preset?: string;
  sets?: string[];
  seed?: number;
  steps?: number;
  /** cell.json's content (written as given); undefined: none. */
  cell?: unknown;
  /** The held-out pass@1 at step s (default rises to 1 at the last step). */
  pass?: (step: number) => number;
}

/** A run folder's metrics.jsonl lines without the wall-clock fields (the only thing that differs between equal runs). */
export function metricsWithoutClock(dir: string): string[] {
  return readFileSync(join(dir, 'metrics.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.replace(/"time\/[a-z_]+":[0-9.e+-]+,?|"tokens_per_s":[0-9.e+-]+,?/g, ''));
}

/** The config a run of `preset` with `sets` has (what rlvr train writes to config.json). */
export function fakeConfig(run: FakeRun): RunConfig {
  const config = configFromCli({ preset: run.preset ?? 'sort-easy', sets: run.sets ?? [] });
  return mergeConfig(config, { seed: run.seed ?? 0, steps: run.steps ?? 4 });
}

/** metrics.jsonl lines of a run of `steps` steps. */
export function fakeMetricsLines(run: FakeRun): string[] {
  const steps = run.steps ?? 4;
  const pass = run.pass ?? ((s: number) => s / steps);
  const lines: string[] = [];
  for (let step = 1; step <= steps; step++) {
    const r = 0.1 + 0.8 * pass(step) + 0.01 * (run.seed ?? 0);
    lines.push(
      JSON.stringify({
        step,
        level: 3,
        scalars: { reward: r, entropy: 2 - r, 'pass@1': pass(step) },
        eval: {
          step,
          level: 3,
          prompts: 8,
          'eval/pass@1_greedy': pass(step),
          'eval/pass@k': pass(step),
          'eval/pass@1_sampled': pass(step),
          k: 2,
          taskMetrics: {},
        },
      }),
    );
  }
  return lines;
}

/** Writes a run folder at `dir`; returns it. */
export function writeFakeRun(dir: string, run: FakeRun = {}): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify(fakeConfig(run), null, 2) + '\n');
  writeFileSync(join(dir, 'metrics.jsonl'), fakeMetricsLines(run).join('\n') + '\n');
  if (run.cell !== undefined) writeFileSync(join(dir, 'cell.json'), JSON.stringify(run.cell) + '\n');
  return dir;
}

/** Two cells (lr 0.003 and 0.01) of two seeds each in `dir`, with cell.json, as a sweep leaves them (without ablation.json). */
export function writeFakeSweep(dir: string): string {
  for (const lr of ['0.003', '0.01'])
    for (const seed of [0, 1])
      writeFakeRun(join(dir, `lr=${lr}`, `seed-${seed}`), {
        sets: [`lr=${lr}`],
        seed,
        cell: { cell: `lr=${lr}`, preset: 'sort-easy' },
      });
  return dir;
}

/**
 * The text of an ablation.json (as an older `rlvr sweep` wrote it, without `init`) of a sort-easy
 * sweep over lr, one cell a value, 4 steps, reward its metric.
 */
export function lrAblationJson(lrs: string[], seeds: number[]): string {
  return JSON.stringify({
    format: 'rlvr-ablation',
    version: 1,
    preset: 'sort-easy',
    variants: [],
    grid: [['lr', lrs]],
    seeds,
    steps: 4,
    sets: [],
    solved: null,
    metrics: ['reward'],
    cells: lrs.map((lr) => ({ label: `lr=${lr}`, dir: `lr=${lr}`, set: { lr } })),
  });
}

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Killed at the time limit. */
  timedOut: boolean;
}

/** Runs `npm run rlvr -- …args` as a child process (as a user would), with a time limit. */
export function runCli(args: string[], timeoutMs = 60_000, env: NodeJS.ProcessEnv = process.env): CliResult {
  const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    encoding: 'utf8',
    timeout: timeoutMs,
    env,
    killSignal: 'SIGKILL',
  });
  return {
    code: r.status,
    stdout: r.stdout ?? '',
    stderr: r.stderr ?? '',
    timedOut: r.error !== undefined || r.signal === 'SIGKILL',
  };
}

/** What a refused input must look like: exit 2 and one line on stderr, "error: …", with no stack trace. */
export function refusal(r: CliResult): string {
  if (r.timedOut) throw new Error(`the command did not end (killed at the time limit)\n${r.stderr.slice(0, 2000)}`);
  const lines = r.stderr.trim().split('\n');
  if (r.code !== 2 || lines.length !== 1 || !lines[0].startsWith('error: ')) {
    throw new Error(`expected exit 2 and one "error: …" line, got exit ${r.code} and:\n${r.stderr.slice(0, 2000)}`);
  }
  return lines[0];
}
