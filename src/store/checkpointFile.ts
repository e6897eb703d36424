// A .safetensors checkpoint as the playground loads it: weights plus the run config stored in
// its metadata (`run_config`, written by Trainer.checkpoint with trainedSteps and level).
// Everything is checked before the page touches its current model: the run config as a whole
// (knobs, trainedSteps, level), and that the weights are the model that config builds. A file
// that fails any check is refused with a message naming what is wrong, and loses nothing.

import { checkpointRun, ConfigError, modelConfigOf, type RunConfig } from '../config';
import { buildLayout } from '../model/layout';
import { CheckpointError, readSafetensors } from '../model/safetensors';

export interface LoadedCheckpoint {
  config: RunConfig;
  params: Float32Array;
  /** Where the run stood when it was saved. */
  resume: { step: number; level: number };
}

/** Reads a checkpoint; throws CheckpointError (or ConfigError naming the field) with a readable message. */
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
  const run = checkpointRun(ck.runConfig, `${fileName}: run_config`);
  // The page builds the model from the run config: the weights must be exactly that model.
  const model = modelConfigOf(run.config);
  const needed = buildLayout(model).numParams;
  const have = ck.layout.config;
  if (ck.params.length !== needed || have.vocabSize !== model.vocabSize || have.nPositions !== model.nPositions) {
    throw new ConfigError(
      'model',
      `${fileName}: the weights (${ck.params.length.toLocaleString('en-US')} parameters: vocab ${have.vocabSize}, ${have.nPositions} positions, ` +
        `width ${have.nEmbd}, ${have.nLayer} layers) are not the model its run config builds (${needed.toLocaleString('en-US')} parameters: ` +
        `vocab ${model.vocabSize}, ${model.nPositions} positions, width ${model.nEmbd}, ${model.nLayer} layers)`,
    );
  }
  return { config: run.config, params: ck.params, resume: { step: run.trainedSteps, level: run.level } };
}
