// The run config a checkpoint carries in its metadata (run_config: the knobs, plus the
// trainer's trainedSteps and level), written and read here only: checkpointRunConfig writes it,
// checkpointRun validates it as a whole, readRunCheckpoint reads a whole checkpoint file (the
// CLI's eval and --resume; the page's checkpoint import can too). A value out of range is named,
// never clamped.

import { ConfigError, curriculumLevels, modelConfigOf, validateConfig, type RunConfig } from './config';
import { findKnob } from './knobs';
import { buildLayout, type ParamLayout } from '../model/layout';
import { CheckpointError, readingFile, readSafetensors, type Checkpoint } from '../model/safetensors';

export interface CheckpointRun {
  /** The knobs (validated; trainer-only keys removed). */
  config: RunConfig;
  /** RL steps the weights have been trained for. */
  trainedSteps: number;
  /** The curriculum level the run was at (the value of curriculumParam). */
  level: number;
}

/** Keys a checkpoint's run config holds besides the knobs (`init`: files of older versions). */
export const CHECKPOINT_EXTRA_KEYS = ['trainedSteps', 'level', 'init'] as const;

/** The run config as a checkpoint stores it: the knobs and where the run stood. */
export function checkpointRunConfig(
  config: RunConfig,
  at: { trainedSteps: number; level: number },
): Record<string, unknown> {
  return { ...config, trainedSteps: at.trainedSteps, level: at.level };
}

/**
 * Validates a checkpoint's run config. `where` prefixes the messages (e.g. the file name).
 * Throws ConfigError whose `knob` is the offending key (a knob, `trainedSteps` or `level`).
 */
export function checkpointRun(raw: unknown, where = 'run_config'): CheckpointRun {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError('run_config', `${where}: the run config must be a JSON object of knob → value`);
  }
  const saved: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  const { trainedSteps: rawSteps, level: rawLevel } = saved;
  for (const k of CHECKPOINT_EXTRA_KEYS) delete saved[k];
  let config: RunConfig;
  try {
    config = validateConfig(saved);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(e.knob, `${where}: ${e.message}`, e.related);
    throw e;
  }
  const maxSteps = findKnob('steps')!.max!;
  let trainedSteps = 0;
  if (rawSteps !== undefined) {
    if (!Number.isSafeInteger(rawSteps) || (rawSteps as number) < 0 || (rawSteps as number) > maxSteps) {
      throw new ConfigError(
        'trainedSteps',
        `${where}: trainedSteps must be an integer in [0, ${maxSteps}], got ${JSON.stringify(rawSteps)}`,
      );
    }
    trainedSteps = rawSteps as number;
  }
  const [lo, hi] = curriculumLevels(config);
  let level = config.curriculum === 'off' ? hi : lo;
  if (rawLevel !== undefined) {
    if (!Number.isSafeInteger(rawLevel) || (rawLevel as number) < lo || (rawLevel as number) > hi) {
      const range =
        lo === hi
          ? `${lo} (curriculum off: task.${config.curriculumParam})`
          : `an integer in [curriculumStart, task.${config.curriculumParam}] = [${lo}, ${hi}]`;
      throw new ConfigError('level', `${where}: level must be ${range}, got ${JSON.stringify(rawLevel)}`, [
        'curriculumStart',
        `task.${config.curriculumParam}`,
      ]);
    }
    level = rawLevel as number;
  }
  return { config, trainedSteps, level };
}

/** A checkpoint file that is a model but not a run's (rlvr init, or another tool): nothing names its task or knobs. */
export class NotARunCheckpoint extends CheckpointError {}

/** A checkpoint a run wrote: its weights and its validated run config. */
export interface RunCheckpoint extends CheckpointRun {
  layout: ParamLayout;
  params: Float32Array;
  vocab: string[];
}

/**
 * Reads a checkpoint file a run wrote (rlvr train, the page), checked as a whole before anything
 * uses it: the file, its run config (knobs, trainedSteps, level) and that the weights are the
 * model that config builds. `where` (the file's name) prefixes the messages; throws
 * CheckpointError, or ConfigError naming the knob (`model` for weights of another model).
 */
export function readRunCheckpoint(bytes: Uint8Array, where: string): RunCheckpoint {
  const ck: Checkpoint = readingFile(where, () => readSafetensors(bytes));
  if (!ck.runConfig || typeof ck.runConfig !== 'object') {
    throw new NotARunCheckpoint(
      `${where} has no run config in its metadata (run_config): it was not written by a run (rlvr train or the playground)`,
    );
  }
  // `rlvr init` records only its seed ({init: {seed}}): no knobs to validate, nothing to continue.
  const keys = Object.keys(ck.runConfig);
  if (keys.length === 1 && keys[0] === 'init') {
    throw new NotARunCheckpoint(
      `${where} was written by rlvr init: weights only, with no run config (task, knobs, steps trained)`,
    );
  }
  const run = checkpointRun(ck.runConfig, `${where}: run_config`);
  const model = modelConfigOf(run.config);
  const needed = buildLayout(model).numParams;
  const have = ck.layout.config;
  if (ck.params.length !== needed || have.vocabSize !== model.vocabSize || have.nPositions !== model.nPositions) {
    throw new ConfigError(
      'model',
      `${where}: the weights (${ck.params.length.toLocaleString('en-US')} parameters: vocab ${have.vocabSize}, ${have.nPositions} positions, ` +
        `width ${have.nEmbd}, ${have.nLayer} layers) are not the model its run config builds (${needed.toLocaleString('en-US')} parameters: ` +
        `vocab ${model.vocabSize}, ${model.nPositions} positions, width ${model.nEmbd}, ${model.nLayer} layers)`,
    );
  }
  return { ...run, layout: ck.layout, params: ck.params, vocab: ck.vocab };
}
