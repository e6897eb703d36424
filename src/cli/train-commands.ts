// `rlvr train` (and `rlvr eval`, in eval-command.ts): headless runs on the WGSL engine (Dawn in Node).
// This module checks a run's flags and prepares its folder; run-training.ts runs it.
//
// Nothing a run has done is lost: the output folder is checked before step 1, checkpoints are
// written atomically next to their trainer state (so any of them can be resumed with
// --resume), a fault keeps the last good checkpoint and writes the weights from before the
// faulty step beside it, a metrics line that cannot be written does not stop the run, and a
// checkpoint that cannot be written where asked is saved to a rescue folder instead.

import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { asCliError, CliError, intFlag, parseFlags, stringFlag, type FlagSpec, type ParsedFlags } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { backendFlag, checkFits, gpuMemoryFlag, openEngines, type Backend } from './engines';
import { LineLog, prepareOutDir, writeFileAtomic } from './run-files';
import {
  CHECKPOINT,
  FAULT_CHECKPOINT,
  loadInitWeights,
  loadResume,
  statePathOf,
  type ResumeSource,
} from './checkpoint-files';
import { CELL_FILE, type CellFile } from './ablation-side-files';
import { lockRunFolder } from './run-lock';
import { parseSetFlags } from '../config/knob-flags';
import { configFromCli, presetFlag } from '../lessons/preset-flags';
import { ConfigError, mergeConfig, type RunConfig } from '../config/config';
import { GpuError } from '../gpu/gpu-errors';
import { CheckpointError } from '../model/safetensors-file';
import type { RunCheckpoint } from '../config/checkpoint-run';
import { Trainer } from '../rl/trainer';
import { CustomCodeError } from '../rl/custom/custom-code-errors';
import { nodeSandbox } from '../rl/custom/sandbox-node';
import { CODE_FILE_FLAGS, codeSets, readCodeFiles } from './code-files';
import { EXIT, runTraining } from './run-training';

export const TRAIN_FLAGS: Record<string, FlagSpec> = {
  preset: presetFlag('the run starts from it, e.g. sort-easy, cot-discovery'),
  variant: {
    kind: 'value',
    doc: 'one of the preset\'s comparison variants, by its label (e.g. --preset dead-groups --variant "partial reward")',
  },
  config: { kind: 'value', doc: 'a JSON file of knob → value (a saved config.json works)' },
  set: commonFlag('set', 'e.g. --set lr=0.003'),
  steps: commonFlag('steps', 'overrides the steps knob; with --resume, the total to reach'),
  seed: commonFlag('seed', "the run's (overrides the seed knob)"),
  out: commonFlag(
    'out',
    "a folder: config.json, metrics.jsonl, checkpoint.safetensors (+ .state.safetensors); with --resume, default the resumed run's folder",
  ),
  resume: {
    kind: 'value',
    doc: 'continue a saved run: a run folder (its checkpoint.safetensors) or a checkpoint file written by rlvr train; weights, AdamW moments, step, level and random streams carry over; --set may change knobs (e.g. a lower lr after a fault)',
  },
  init: {
    kind: 'value',
    doc: 'start a fresh run (its own config and seed) from the weights of a checkpoint written by rlvr train, e.g. a base model kept by --checkpoint-levels (checkpoint-level1.safetensors); its warm start counts as done, and a KL anchor (klBeta > 0) holds these weights from the first step',
  },
  backend: commonFlag('backend', 'with --resume, default the engine that trained the checkpoint'),
  'gpu-memory': {
    kind: 'value',
    doc: 'GiB of GPU buffers the run may use (default 4); a run that needs more is refused before it starts',
  },
  json: commonFlag('json', 'one line per step instead of a progress bar'),
  'checkpoint-every': {
    kind: 'value',
    doc: 'also write checkpoint.safetensors every N steps (default 0: at the end, on a fault and on Ctrl-C)',
  },
  'checkpoint-at': {
    kind: 'value',
    doc: 'also write checkpoint-step<N>.safetensors at these RL steps, a comma-separated list (e.g. 100,300): the jump-ahead points of a lesson',
  },
  'checkpoint-levels': {
    kind: 'switch',
    doc: 'also write checkpoint-level<L>.safetensors each time the curriculum first reaches level L (the weights it starts level L with)',
  },
  cell: {
    kind: 'value',
    doc: 'the ablation cell this run belongs to (a label; rlvr sweep sets it): written to cell.json beside config.json, where rlvr report groups runs by it',
  },
  ...CODE_FILE_FLAGS,
};

function withOverride(config: RunConfig, key: 'steps' | 'seed', raw: string | undefined): RunConfig {
  if (raw === undefined) return config;
  try {
    return mergeConfig(config, { [key]: raw });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`--${key}: ${e.message}`);
    throw e;
  }
}

/** The --config file's text; any reason it cannot be read (missing, a directory, no permission) is named. */
function readConfigFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`--config: cannot read ${path}: ${(e as Error).message}`);
  }
}

function freshConfig(f: ParsedFlags): RunConfig {
  const configFile = f.config === undefined ? undefined : readConfigFile(String(f.config));
  let config = asCliError(
    () =>
      configFromCli({
        preset: f.preset as string | undefined,
        variant: f.variant as string | undefined,
        configFile,
        sets: [...codeSets(readCodeFiles(f), true), ...((f.set as string[] | undefined) ?? [])],
      }),
    ConfigError,
  );
  config = withOverride(config, 'steps', f.steps as string | undefined);
  return withOverride(config, 'seed', f.seed as string | undefined);
}

/** Knobs that cannot change when a run resumes: its random streams and its model. */
const FIXED_ON_RESUME = (key: string) => key === 'seed' || key === 'task' || key.startsWith('model.');

function resumedConfig(source: ResumeSource, f: ParsedFlags): RunConfig {
  if (f.preset !== undefined || f.config !== undefined) {
    throw new CliError(
      '--resume continues a saved run with its own config: change knobs with --set, not --preset or --config',
    );
  }
  if (f.seed !== undefined)
    throw new CliError('--seed cannot change on --resume: the run continues the random streams of its seed');
  // A fixed estimator file may continue the run it faulted.
  const sets = asCliError(
    () => parseSetFlags([...codeSets(readCodeFiles(f), true), ...((f.set as string[] | undefined) ?? [])]),
    ConfigError,
  );
  for (const key of Object.keys(sets)) {
    if (FIXED_ON_RESUME(key))
      throw new CliError(
        `--set ${key}: cannot change on --resume (the seed, the task and the model are the saved run's)`,
      );
  }
  let config: RunConfig;
  try {
    config = mergeConfig(source.run.config, sets);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`--set ${e.knob}: ${e.message}`);
    throw e;
  }
  config = withOverride(config, 'steps', f.steps as string | undefined);
  if (config.steps <= source.run.trainedSteps) {
    throw new CliError(
      `--steps: the run is at step ${source.run.trainedSteps} and steps is ${config.steps}; ` +
        'give --steps above it to continue (--steps is the total to reach, not the number of further steps)',
    );
  }
  return config;
}

/** Keeps the lines of a resumed run's metrics.jsonl up to its checkpoint's step (a crash may have written more). */
function trimMetrics(path: string, step: number): void {
  if (!existsSync(path)) return writeFileAtomic(path, '');
  const kept = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => {
      try {
        const o = JSON.parse(line);
        return (
          o !== null &&
          typeof o === 'object' &&
          (o.warmStart !== undefined || (Number.isInteger(o.step) && o.step <= step))
        );
      } catch {
        return false;
      }
    });
  writeFileAtomic(path, kept.map((l) => l + '\n').join(''));
}

/** A comma-separated list of positive step numbers, e.g. "100,270"; a bad entry is named. */
function stepListFlag(f: ParsedFlags, name: string): Set<number> {
  const raw = f[name];
  if (raw === undefined) return new Set();
  const steps = new Set<number>();
  for (const part of String(raw).split(',')) {
    const t = part.trim();
    if (!/^[1-9][0-9]{0,8}$/.test(t))
      throw new CliError(
        `--${name} must be a comma-separated list of positive step numbers (e.g. 100,300), got "${part}" in "${String(raw)}"`,
      );
    steps.add(Number(t));
  }
  return steps;
}

/**
 * The engine a run goes on: --backend, else the one that trained the resumed checkpoint (the two
 * engines agree only to rounding, so a resumed run matches the uninterrupted one on its own
 * engine), else the GPU. Switching engines on --resume is allowed and said.
 */
function resumedBackend(asked: Backend | null, resume: ResumeSource | null, err: (s: string) => void): Backend {
  const saved = resume?.point.engine ?? null;
  if (asked === null) return saved ?? 'gpu';
  if (saved && saved !== asked)
    err(
      `note: ${resume!.path} was trained on the ${saved} engine; continuing on the ${asked} engine, so the metrics from here differ in rounding from a run that stayed on ${saved}`,
    );
  return asked;
}

export async function trainCommand(
  argv: string[],
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const f = parseFlags(argv, TRAIN_FLAGS, 'train');
  // Everything that can be refused is, before anything is created or opened.
  const askedBackend = f.backend === undefined ? null : backendFlag(f);
  const memoryBytes = gpuMemoryFlag(f);
  const checkpointEvery = intFlag(f, 'checkpoint-every', 0, 0, 10_000_000);
  const checkpointAt = stepListFlag(f, 'checkpoint-at');
  const resume = f.resume === undefined ? null : loadResume(String(f.resume));
  if (resume?.note) err(`note: ${resume.note}`);
  const backend = resumedBackend(askedBackend, resume, err);
  const config = resume ? resumedConfig(resume, f) : freshConfig(f);
  if (f.init !== undefined && resume)
    throw new CliError(
      "--init starts a fresh run from a checkpoint's weights; --resume continues a run: give one of them",
    );
  const init = f.init === undefined ? null : loadInitWeights(String(f.init), config);
  const steps = config.steps;
  if (steps <= 0)
    throw new CliError(
      '--steps: a headless run needs a positive number of steps (the steps knob is 0 = until stopped)',
    );
  if (f.out === undefined && !resume)
    throw new CliError('--out is required (the folder for config.json, metrics.jsonl and the checkpoints)');
  const dir = f.out === undefined ? dirname(resume!.path) : stringFlag(f, 'out');
  prepareOutDir(dir, '--out', [
    'config.json',
    'metrics.jsonl',
    CHECKPOINT,
    statePathOf(CHECKPOINT),
    FAULT_CHECKPOINT,
    statePathOf(FAULT_CHECKPOINT),
  ]);
  const unlock = lockRunFolder(dir, err);
  try {
    return await trainInFolder(
      f,
      { dir, config, resume, init, backend, memoryBytes, checkpointEvery, checkpointAt },
      out,
      err,
    );
  } finally {
    unlock();
  }
}

interface TrainPlan {
  dir: string;
  config: RunConfig;
  resume: ResumeSource | null;
  /** --init: the weights a fresh run starts from. */
  init: RunCheckpoint | null;
  backend: ReturnType<typeof backendFlag>;
  memoryBytes: number;
  checkpointEvery: number;
  /** --checkpoint-at: RL steps after which checkpoint-step<N>.safetensors is written. */
  checkpointAt: ReadonlySet<number>;
}

/** The run, once its flags are checked and its folder is its own. */
async function trainInFolder(
  f: ParsedFlags,
  plan: TrainPlan,
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const { dir, config, resume, init, backend, memoryBytes, checkpointEvery, checkpointAt } = plan;
  const engines = await openEngines(backend, memoryBytes);
  try {
    checkFits(engines, config);
    let trainer: Trainer;
    try {
      trainer = await Trainer.create(config, engines.make, {
        ...(resume ? { initial: resume.run, resume: resume.point } : init ? { initial: init } : {}),
        sandbox: nodeSandbox,
      });
    } catch (e) {
      if (e instanceof CustomCodeError) throw new CliError(e.message);
      if (e instanceof CheckpointError) throw new CliError(`--resume ${resume?.path}: ${e.message}`);
      if (e instanceof RangeError && resume) throw new CliError(`--resume ${resume.path}: ${e.message}`);
      if (e instanceof GpuError) {
        err(`error: ${e.message}`);
        return EXIT.gpu;
      }
      throw e;
    }
    try {
      // The folder is written only now: a start refused above (bad code, a checkpoint that
      // does not fit) leaves an earlier run's config.json and metrics.jsonl as they were.
      writeFileAtomic(join(dir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
      writeCellFile(dir, f);
      const metricsPath = join(dir, 'metrics.jsonl');
      if (resume && resolve(dir) === resolve(dirname(resume.path))) trimMetrics(metricsPath, resume.run.trainedSteps);
      else writeFileAtomic(metricsPath, '');
      const metrics = new LineLog(metricsPath, err);
      return await runTraining(trainer, {
        config,
        dir,
        metrics,
        engines,
        resume,
        initFrom: f.init === undefined ? null : String(f.init),
        checkpointEvery,
        checkpointAt,
        levels: Boolean(f['checkpoint-levels']),
        json: Boolean(f.json),
        out,
        err,
      });
    } finally {
      trainer.destroy();
    }
  } finally {
    engines.close();
  }
}

/** cell.json names the run's ablation cell (rlvr sweep); a folder reused outside an ablation must not keep an old one. */
function writeCellFile(dir: string, f: ParsedFlags): void {
  if (f.cell === undefined) {
    rmSync(join(dir, CELL_FILE), { force: true });
    return;
  }
  const cell: CellFile = {
    cell: String(f.cell),
    ...(f.preset !== undefined ? { preset: String(f.preset) } : {}),
    ...(f.variant !== undefined ? { variant: String(f.variant) } : {}),
  };
  writeFileAtomic(join(dir, CELL_FILE), JSON.stringify(cell) + '\n');
}
