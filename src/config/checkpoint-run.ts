// The run config a checkpoint carries in its metadata (run_config: the knobs, plus the
// trainer's trainedSteps and level), validated as a whole: the CLI's eval and --resume use this,
// and the page's checkpoint import can too. A value out of range is named, never clamped.

import { ConfigError, validateConfig, type RunConfig } from './config';
import { findKnob } from './knobs';
import { getTask } from '../tasks/registry';

export interface CheckpointRun {
  /** The knobs (validated; trainer-only keys removed). */
  config: RunConfig;
  /** RL steps the weights have been trained for. */
  trainedSteps: number;
  /** The curriculum level the run was at (the value of curriculumParam). */
  level: number;
}

/** Keys the trainer adds to the knobs in a checkpoint's run config. */
export const CHECKPOINT_EXTRA_KEYS = ['trainedSteps', 'level', 'init'] as const;

/** The levels a run with this config can be at: [curriculumStart, end] with a curriculum, else the end only. */
export function levelRange(config: RunConfig): [number, number] {
  const spec = getTask(config.task).params.find((p) => p.name === config.curriculumParam);
  const end = Number(config[`task.${config.curriculumParam}`] ?? spec?.default ?? 0);
  return config.curriculum === 'off' ? [end, end] : [config.curriculumStart, end];
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
      throw new ConfigError('trainedSteps', `${where}: trainedSteps must be an integer in [0, ${maxSteps}], got ${JSON.stringify(rawSteps)}`);
    }
    trainedSteps = rawSteps as number;
  }
  const [lo, hi] = levelRange(config);
  let level = config.curriculum === 'off' ? hi : lo;
  if (rawLevel !== undefined) {
    if (!Number.isSafeInteger(rawLevel) || (rawLevel as number) < lo || (rawLevel as number) > hi) {
      const range = lo === hi ? `${lo} (curriculum off: task.${config.curriculumParam})` : `an integer in [curriculumStart, task.${config.curriculumParam}] = [${lo}, ${hi}]`;
      throw new ConfigError('level', `${where}: level must be ${range}, got ${JSON.stringify(rawLevel)}`, ['curriculumStart', `task.${config.curriculumParam}`]);
    }
    level = rawLevel as number;
  }
  return { config, trainedSteps, level };
}
