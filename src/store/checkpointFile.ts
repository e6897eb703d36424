// A .safetensors checkpoint as the playground loads it: weights plus the run config stored in
// its metadata (`run_config`, written by Trainer.checkpoint with trainedSteps and level).
// readRunCheckpoint checks everything before the page touches its current model: the run config
// as a whole (knobs, trainedSteps, level), and that the weights are the model that config
// builds. A file that fails any check is refused with a message naming what is wrong, and loses
// nothing.

import { readRunCheckpoint, type RunConfig } from '../config';

export interface LoadedCheckpoint {
  config: RunConfig;
  params: Float32Array;
  /** Where the run stood when it was saved. */
  resume: { step: number; level: number };
}

/** Reads a checkpoint; throws CheckpointError (or ConfigError naming the field) with a readable message. */
export function loadCheckpoint(bytes: Uint8Array, fileName = 'checkpoint.safetensors'): LoadedCheckpoint {
  const run = readRunCheckpoint(bytes, fileName);
  return { config: run.config, params: run.params, resume: { step: run.trainedSteps, level: run.level } };
}
