// What the CLI tests share: a tiny `rlvr train` on the CPU reference engine (GPU-free; a batch of
// 2 prompts × 4 completions keeps it fast), the flags that make one, and the helper that runs it
// into a fresh folder; a user's code file, an emitted sweep and `rlvr report`'s warnings.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sweepCommand } from './sweep-command';
import type { SweepIo } from './sweep-runner';
import { reportCommand } from './report-command';
import { trainCommand } from './train-commands';

/** `rlvr init` flags of a tiny model: width 8, 2 heads, 8 positions, `nLayer` layers, a vocabulary of `vocab`. */
export function tinyInitFlags(vocab: number, nLayer: number): string[] {
  return `--vocab-size ${vocab} --n-positions 8 --n-embd 8 --n-layer ${nLayer} --n-head 2`.split(' ');
}

/** `--set key=value` for each entry, in order. */
export function setFlags(set: Readonly<Record<string, string | number>>): string[] {
  return Object.entries(set).flatMap(([key, value]) => ['--set', `${key}=${value}`]);
}

/** The small run's knobs: 2 prompts × 4 completions, no periodic evaluation. */
export const SMALL_SET = { batchPrompts: 2, groupSize: 4, evalEvery: 0 } as const;

/** A model smaller than any preset's, for tests that run many steps or processes. */
export const TINY_MODEL = { 'model.nEmbd': 8, 'model.nLayer': 1 } as const;

/**
 * `rlvr train` flags of a small run on the CPU engine: the preset (null: none, the task from
 * `set`), SMALL_SET and `set` (later wins), and the seed.
 */
export function smallTrainFlags(
  opts: { preset?: string | null; set?: Readonly<Record<string, string | number>>; seed?: number } = {},
): string[] {
  const { preset = 'sort-easy', set = {}, seed = 3 } = opts;
  return [
    ...(preset === null ? [] : ['--preset', preset]),
    '--backend',
    'cpu',
    ...setFlags({ ...SMALL_SET, ...set }),
    '--seed',
    String(seed),
  ];
}

/** `rlvr train` flags of the CLI tests' run: sort-easy, CPU engine, 2 × 4 rollouts, no periodic eval, seed 3. */
export const SMALL_TRAIN = smallTrainFlags();

export interface TrainResult {
  rc: number;
  dir: string;
  lines: string[];
  errors: string[];
}

/** `rlvr train` with `flags` into `dir`, its stdout lines and stderr lines kept (a fresh temporary folder by default). */
export async function trainInto(
  flags: string[],
  onLine?: (line: string) => void,
  dir = mkdtempSync(join(tmpdir(), 'rlvr-train-')),
): Promise<TrainResult> {
  const lines: string[] = [];
  const errors: string[] = [];
  const rc = await trainCommand(
    [...flags, '--out', dir, '--json'],
    (s) => {
      lines.push(s);
      onLine?.(s);
    },
    (s) => errors.push(s),
  );
  return { rc, dir, lines, errors };
}

/** The CLI as a child process: node with tsx, then main.ts. */
export const CLI = [process.execPath, '--import', 'tsx', fileURLToPath(new URL('./main.ts', import.meta.url))];

/**
 * `rlvr sweep` of sort-easy's lr=0.003, seeds 0 and 1, 400 steps each on the CPU engine, into
 * `dir`, sent `signal` (as the terminal would) as soon as its first run reports progress.
 */
export async function sweepStoppedBy(
  signal: 'SIGINT' | 'SIGHUP',
  dir: string,
): Promise<{ rc: number; errs: string[] }> {
  const flags = ['--preset', 'sort-easy', '--grid', 'lr=0.003', '--seeds', '0-1', '--steps', '400', '--backend', 'cpu'];
  let sent = false;
  const errs: string[] = [];
  const err = (s: string): void => {
    errs.push(s);
    if (!sent && s.startsWith('[sweep')) {
      sent = true;
      process.emit(signal, signal);
    }
  };
  const rc = await sweepCommand([...flags, '--out', dir], { out: () => {}, err, tty: false, cli: CLI });
  return { rc, errs };
}

/** `rlvr train` with `args`, its output dropped: its exit code (or its refusal, thrown). */
export function trainQuietly(args: string[]): Promise<number> {
  return trainCommand(
    args,
    () => {},
    () => {},
  );
}

/** `rlvr train` with SMALL_TRAIN and `extra` into `dir` (a fresh temporary folder by default). */
export function trainSmall(extra: string[], onLine?: (line: string) => void, dir?: string): Promise<TrainResult> {
  return trainInto([...SMALL_TRAIN, ...extra], onLine, dir);
}

/** `code` written as `name` (e.g. a user's --estimator-file) in a fresh temporary folder: the folder and the file. */
export function tempCodeFile(name: string, code: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'rlvr-code-'));
  const file = join(dir, name);
  writeFileSync(file, code);
  return { dir, file };
}

/** `rlvr sweep --emit-jobs` of `preset` (seed 0, 2 steps) into `out` with `extra`, its lines into `lines`. */
export function emitJobs(preset: string, out: string, lines: string[] = [], extra: string[] = []): Promise<number> {
  const io: SweepIo = { out: (s) => lines.push(s), err: () => {}, tty: false, cli: CLI };
  return sweepCommand(['--preset', preset, '--seeds', '0', '--steps', '2', '--out', out, '--emit-jobs', ...extra], io);
}

/** `rlvr report` over `dir`, which must succeed: its warnings ("warning: …" lines on stderr). */
export async function reportWarnings(dir: string): Promise<string[]> {
  const errs: string[] = [];
  const rc = await reportCommand(
    [dir],
    () => {},
    (s) => errs.push(s),
  );
  if (rc !== 0) throw new Error(`rlvr report ${dir} exited ${rc}: ${errs.join('\n')}`);
  return errs.filter((e) => e.startsWith('warning: '));
}
