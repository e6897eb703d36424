// How a Trainer starts or continues (trainer.ts, Trainer.create): the model and engine a run is
// built on, the checks a saved state must pass before this config may continue it, and the
// MaPP posterior it restores.

import type { RunConfig } from '../config/config';
import { curriculumLevels, modelConfigOf } from '../config/config';
import { initParams } from '../model/init';
import { buildLayout, type ParamLayout } from '../model/layout';
import { CheckpointError } from '../model/safetensors-file';
import { disposeRunCode, loadRunCode, type RunCode } from './custom/custom-code';
import type { MakeEngine, PolicyEngine } from './engine';
import { MappPosterior } from '../estimators/mapp';
import { lossSettings, type LossSettings } from './settings';
import type { TrainerState } from './trainer-state';
import type { TrainerOptions } from './trainer-types';

/**
 * The model from the config's seed or the `initial` weights (refused when too small for the
 * task), the run's own code, and the engine that runs the model.
 */
export async function startEngine(
  config: RunConfig,
  makeEngine: MakeEngine,
  options: TrainerOptions,
): Promise<{ layout: ParamLayout; settings: LossSettings; code: RunCode; engine: PolicyEngine }> {
  const { initial } = options;
  const needed = modelConfigOf(config);
  const layout = initial?.layout ?? buildLayout(needed);
  const have = layout.config;
  if (have.vocabSize < needed.vocabSize || have.nPositions < needed.nPositions) {
    throw new RangeError(
      `the model (vocab ${have.vocabSize}, positions ${have.nPositions}) is too small for this task configuration ` +
        `(vocab ${needed.vocabSize}, positions ${needed.nPositions})`,
    );
  }
  const params = initial?.params ?? initParams(layout, config.seed);
  const settings = lossSettings(config);
  // The run's own code first: a syntax error is refused before any GPU memory is taken.
  const code = await loadRunCode(config, options.sandbox);
  let engine: PolicyEngine;
  try {
    engine = await makeEngine(layout, params, settings);
  } catch (e) {
    disposeRunCode(code);
    throw e;
  }
  return { layout, settings, code, engine };
}

/**
 * Refuses a saved state this config cannot continue: a level outside its curriculum, a step
 * past its end, or another estimator (with or without MaPP's posterior).
 */
export function checkResumable(c: RunConfig, s: TrainerState): void {
  const [lo, hi] = curriculumLevels(c);
  if (s.level < lo || s.level > hi) {
    throw new CheckpointError(
      `trainer state: level ${s.level} is outside this config's levels [${lo}, ${hi}] (curriculumStart, task.${c.curriculumParam})`,
    );
  }
  if (s.stepCount > c.steps && c.steps > 0) {
    throw new CheckpointError(
      `trainer state: the run is at step ${s.stepCount}, past steps = ${c.steps}; raise --steps to continue it`,
    );
  }
  if ((c.estimator === 'mapp') !== (s.mapp !== null)) {
    throw new CheckpointError(
      `trainer state: saved ${s.mapp ? 'with' : 'without'} a MaPP posterior, but this config's estimator is ${c.estimator}; the estimator cannot change on resume`,
    );
  }
}

/** The posteriors saved; the options (mappBonus) of this config's posterior `mapp`. */
export function restoredMapp(mapp: MappPosterior, saved: NonNullable<TrainerState['mapp']>): MappPosterior {
  try {
    return MappPosterior.fromJSON({ options: mapp.options, posteriors: saved.posteriors });
  } catch (e) {
    throw new CheckpointError(`trainer state: mapp: ${(e as Error).message}`);
  }
}
