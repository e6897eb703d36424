// A run's checkpoints on disk: `<name>.safetensors` (the weights, Hugging Face GPT-2 names, the
// run config in the metadata) and, beside it, `<name>.state.safetensors` (what --resume needs
// besides the weights: src/rl/trainer-state.ts). The state names its weights by checksum.
//
// The two files are committed as one pair. Both are written to temporary files first; then the
// state in place is renamed aside (`.<name>.state.safetensors.previous`), the new state renamed
// in, and the new weights renamed in last: that rename is the commit. A process killed anywhere
// before it leaves the old weights with either the old state or, beside the new one, the old
// state set aside; --resume takes whichever state was saved with the weights it finds. So the
// last checkpoint that was whole stays resumable, whatever step the crash came at. The next
// write after such a cut (a resumed run's) keeps that set-aside state until its own weights are
// in, so kills in a row leave a resumable pair too (checkpoint-kills.test.ts).

import { existsSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { asCliError, CliError } from '../core/flags';
import { removeQuietly, writeTempFile } from './run-files';
import { NotARunCheckpoint, readRunCheckpoint, type RunCheckpoint } from '../config/checkpoint-run';
import { ConfigError, modelConfigOf, taskParamsOf, type RunConfig } from '../config/config';
import { getTask } from '../tasks/registry';
import { CheckpointError } from '../model/safetensors-file';
import { readTrainerStateFile, writeTrainerStateFile, type SavedResumePoint } from '../rl/trainer-state';
import type { Trainer } from '../rl/trainer';

export const CHECKPOINT = 'checkpoint.safetensors';
export const FAULT_CHECKPOINT = 'checkpoint-before-fault.safetensors';

/** The state file that belongs to a checkpoint file. */
export function statePathOf(checkpointPath: string): string {
  return checkpointPath.replace(/\.safetensors$/, '') + '.state.safetensors';
}

/** Where the state of the pair in place waits while a new pair is committed (gone once it is). */
export function previousStatePathOf(checkpointPath: string): string {
  return join(dirname(checkpointPath), `.${basename(statePathOf(checkpointPath))}.previous`);
}

/**
 * Puts the weights `weights` at `path` and their state `state` beside it as one pair (the
 * order is in this file's header). On an error the pair that was there is left as it was.
 */
export function commitCheckpointPair(path: string, state: Uint8Array, weights: Uint8Array): void {
  const statePath = statePathOf(path);
  const previous = previousStatePathOf(path);
  const tmpState = writeTempFile(statePath, state);
  let tmpWeights: string;
  try {
    tmpWeights = writeTempFile(path, weights);
  } catch (e) {
    removeQuietly(tmpState);
    throw e;
  }
  // A write cut short between its renames left the state of the weights in place set aside,
  // and a state that is not theirs in place: that set-aside state is the one to keep until the
  // new weights are in (setting the state in place aside over it would lose the only state the
  // weights have: a second kill would leave a run that cannot be resumed).
  const keepPrevious =
    existsSync(previous) && existsSync(path) && !stateFits(statePath, path) && stateFits(previous, path);
  let setAside = false;
  let stateIn = false;
  try {
    if (!keepPrevious && existsSync(statePath)) {
      renameSync(statePath, previous);
      setAside = true;
    }
    renameSync(tmpState, statePath);
    stateIn = true;
    renameSync(tmpWeights, path);
  } catch (e) {
    // Put the old pair back: its state (when one was set aside), or no state beside no weights
    // (with keepPrevious, the old weights' state is still set aside, where --resume finds it).
    try {
      if (setAside) renameSync(previous, statePath);
      else if (stateIn && !keepPrevious) unlinkSync(statePath);
    } catch {
      // --resume still finds the set-aside state
    }
    removeQuietly(tmpState);
    removeQuietly(tmpWeights);
    throw e;
  }
  removeQuietly(previous);
}

/** Whether the state file at `statePath` was saved with the weights at `path` (any problem: no). */
function stateFits(statePath: string, path: string): boolean {
  try {
    const run = readRunCheckpoint(readFileSync(path), path);
    readTrainerStateFile(readFileSync(statePath), run.params, statePath);
    return true;
  } catch {
    return false;
  }
}

/** Writes the trainer's state and weights as `name` in `dir`, one pair; returns the checkpoint's path. */
export async function saveCheckpoint(trainer: Trainer, dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  const [params, point] = await Promise.all([trainer.engine.readParams(), trainer.resumePoint()]);
  commitCheckpointPair(
    path,
    writeTrainerStateFile(point, params, trainer.engine.kind),
    await trainer.checkpoint(params),
  );
  return path;
}

export interface ResumeSource {
  /** The checkpoint file resumed from. */
  path: string;
  run: RunCheckpoint;
  /** Its state; `engine` is the backend that trained it (null in files written before it was recorded). */
  point: SavedResumePoint;
  /** Said to the user when the state came from a checkpoint write cut short. */
  note?: string;
}

/**
 * A checkpoint file a run wrote (`flag` names the command-line flag that gave it; `need` says
 * what the command needs, for a file that is a model but not a run's); every problem is a
 * CliError naming the file.
 */
export function readCheckpointArg(
  path: string,
  flag: string,
  need = 'a checkpoint written by rlvr train (or the playground) is needed',
): RunCheckpoint {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new CliError(`${flag}: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return readRunCheckpoint(bytes, `${flag} ${path}`);
  } catch (e) {
    if (e instanceof NotARunCheckpoint) throw new CliError(`${e.message}; ${need}`);
    if (e instanceof CheckpointError || e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
}

/** The resume point in `statePath` if it was saved with the weights of `run` (at `path`); a CliError naming the file otherwise. */
function readState(statePath: string, path: string, run: RunCheckpoint): SavedResumePoint {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(statePath);
  } catch (e) {
    throw new CliError(
      `--resume ${path}: its trainer state ${statePath} cannot be read (${(e as Error).message}); ` +
        'only checkpoints written by rlvr train (at the end, with --checkpoint-every, on Ctrl-C or a fault) can be resumed',
    );
  }
  return asCliError(() => readTrainerStateFile(bytes, run.params, `--resume ${statePath}`), CheckpointError);
}

/**
 * Reads what `--resume PATH` names: a run folder (its checkpoint.safetensors) or a checkpoint
 * file, with the state saved with those weights (beside it, or set aside by a checkpoint write
 * that was cut short). Every problem is a CliError naming the file.
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
    throw new CliError(
      `--resume ${arg}: there is no ${path}` +
        (existsSync(fault)
          ? `; the run stopped at a fault: resume from ${fault}`
          : ' (a run folder written by rlvr train, or a checkpoint file)'),
    );
  }
  const run = readCheckpointArg(
    path,
    '--resume',
    'only a checkpoint written by rlvr train (or the playground) can be resumed',
  );
  const statePath = statePathOf(path);
  let point: SavedResumePoint;
  let note: string | undefined;
  try {
    point = readState(statePath, path, run);
  } catch (e) {
    const previous = previousStatePathOf(path);
    if (!existsSync(previous)) throw e;
    try {
      point = readState(previous, path, run);
    } catch {
      throw e;
    }
    note = `the last checkpoint write in ${dirname(path)} was cut short; resuming from the state saved with these weights (${previous})`;
  }
  if (point.state.stepCount !== run.trainedSteps) {
    throw new CliError(
      `--resume ${path}: the checkpoint says trainedSteps ${run.trainedSteps}, its state file step ${point.state.stepCount}`,
    );
  }
  return { path, run, point, ...(note ? { note } : {}) };
}

/**
 * The weights `--init PATH` starts a fresh run from (a base model kept by --checkpoint-levels, say):
 * the checkpoint must hold the model `config` builds (same task vocabulary, positions, width,
 * layers and heads), so that only the weights, not the run's shape, come from the file.
 */
export function loadInitWeights(path: string, config: RunConfig): RunCheckpoint {
  const run = readCheckpointArg(path, '--init');
  const want = modelConfigOf(config);
  const have = run.layout.config;
  for (const key of ['vocabSize', 'nPositions', 'nEmbd', 'nLayer', 'nHead'] as const) {
    if (want[key] !== have[key]) {
      throw new CliError(
        `--init ${path}: its model has ${key} ${have[key]}, this run's config builds ${want[key]}; ` +
          `give the checkpoint's task and model.* knobs (its config: task ${run.config.task})`,
      );
    }
  }
  const vocab = getTask(config.task).vocab(taskParamsOf(config));
  if (vocab.join('\u0000') !== run.vocab.join('\u0000')) {
    throw new CliError(
      `--init ${path}: its vocabulary (${run.vocab.length} tokens of task ${run.config.task}) is not this run's; give the checkpoint's task knobs`,
    );
  }
  return run;
}
