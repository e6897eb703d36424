// A .safetensors checkpoint as the playground loads it: weights plus the run config stored in
// its metadata (`run_config`, written by Trainer.checkpoint with trainedSteps and level).

import { ConfigError, validateConfig, type RunConfig } from '../config';
import { CheckpointError, readSafetensors } from '../model/safetensors';

export interface LoadedCheckpoint {
  config: RunConfig;
  params: Float32Array;
  /** Where the run stood when it was saved. */
  resume: { step: number; level: number };
}

/** Keys the trainer adds to the run config in a checkpoint (not knobs). */
const EXTRA_KEYS = ['trainedSteps', 'level', 'init'];

/** Reads a checkpoint; throws CheckpointError (or ConfigError naming the knob) with a readable message. */
export function loadCheckpoint(bytes: Uint8Array, fileName = 'checkpoint.safetensors'): LoadedCheckpoint {
  let ck;
  try {
    ck = readSafetensors(bytes);
  } catch (e) {
    if (e instanceof CheckpointError) throw new CheckpointError(`${fileName}: ${e.message}`);
    throw e;
  }
  if (!ck.runConfig || typeof ck.runConfig !== 'object') {
    throw new CheckpointError(`${fileName} has no run config in its metadata (run_config): the playground needs it to know the task`);
  }
  const saved = { ...(ck.runConfig as Record<string, unknown>) };
  const step = Number.isInteger(saved.trainedSteps) ? (saved.trainedSteps as number) : 0;
  for (const k of EXTRA_KEYS) delete saved[k];
  let config: RunConfig;
  try {
    config = validateConfig(saved);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(e.knob, `${fileName}: run_config: ${e.message}`, e.related);
    throw e;
  }
  const rawLevel = (ck.runConfig as Record<string, unknown>).level;
  const level = typeof rawLevel === 'number' ? rawLevel : config.curriculum === 'off' ? Number(config[`task.${config.curriculumParam}`]) : config.curriculumStart;
  return { config, params: ck.params, resume: { step, level } };
}
