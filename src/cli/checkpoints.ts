// A run's checkpoints on disk: `<name>.safetensors` (the weights, Hugging Face GPT-2 names, the
// run config in the metadata) and, beside it, `<name>.state.safetensors` (what --resume needs
// besides the weights: src/rl/trainer-state.ts). The state is written first, then the weights,
// each atomically, and each names the other's weights by checksum, so a crash between the two
// writes cannot pair the wrong files.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { asCliError, CliError } from '../core/flags';
import { writeFileAtomic } from './files';
import { readRunCheckpoint, type RunCheckpoint } from '../config/checkpoint-run';
import { ConfigError } from '../config/config';
import { CheckpointError } from '../model/safetensors-file';
import { readTrainerStateFile, writeTrainerStateFile, type ResumePoint } from '../rl/trainer-state';
import type { Trainer } from '../rl/trainer';

export const CHECKPOINT = 'checkpoint.safetensors';
export const FAULT_CHECKPOINT = 'checkpoint-before-fault.safetensors';

/** The state file that belongs to a checkpoint file. */
export function statePathOf(checkpointPath: string): string {
  return checkpointPath.replace(/\.safetensors$/, '') + '.state.safetensors';
}

/** Writes the trainer's state and weights as `name` in `dir`; returns the checkpoint's path. */
export async function saveCheckpoint(trainer: Trainer, dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  const [params, point] = await Promise.all([trainer.engine.readParams(), trainer.resumePoint()]);
  writeFileAtomic(statePathOf(path), writeTrainerStateFile(point, params));
  writeFileAtomic(path, await trainer.checkpoint(params));
  return path;
}

export interface ResumeSource {
  /** The checkpoint file resumed from. */
  path: string;
  run: RunCheckpoint;
  point: ResumePoint;
}

/** A checkpoint file a run wrote (`flag` names the command-line flag that gave it); every problem is a CliError naming the file. */
export function readCheckpointArg(path: string, flag: string): RunCheckpoint {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new CliError(`${flag}: cannot read ${path}: ${(e as Error).message}`);
  }
  return asCliError(() => readRunCheckpoint(bytes, `${flag} ${path}`), CheckpointError, ConfigError);
}

/**
 * Reads what `--resume PATH` names: a run folder (its checkpoint.safetensors) or a checkpoint
 * file, with the state file beside it. Every problem is a CliError naming the file.
 */
export function loadResume(arg: string): ResumeSource {
  let path = arg;
  try {
    if (statSync(arg).isDirectory()) path = join(arg, CHECKPOINT);
  } catch (e) {
    throw new CliError(`--resume ${arg}: cannot read it (${(e as Error).message})`);
  }
  if (!existsSync(path)) {
    const fault = join(dirname(path), FAULT_CHECKPOINT);
    throw new CliError(`--resume ${arg}: there is no ${path}` +
      (existsSync(fault) ? `; the run stopped at a fault: resume from ${fault}` : ' (a run folder written by rlvr train, or a checkpoint file)'));
  }
  const run = readCheckpointArg(path, '--resume');
  const statePath = statePathOf(path);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(statePath);
  } catch (e) {
    throw new CliError(`--resume ${path}: its trainer state ${statePath} cannot be read (${(e as Error).message}); ` +
      'only checkpoints written by rlvr train (at the end, with --checkpoint-every, on Ctrl-C or a fault) can be resumed');
  }
  const point = asCliError(() => readTrainerStateFile(bytes, run.params, `--resume ${statePath}`), CheckpointError);
  if (point.state.stepCount !== run.trainedSteps) {
    throw new CliError(`--resume ${path}: the checkpoint says trainedSteps ${run.trainedSteps}, its state file step ${point.state.stepCount}`);
  }
  return { path, run, point };
}
