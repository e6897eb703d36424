// Views of a run config the engine and the checks need: its task parameters (at the curriculum's
// end point or at one level), the curriculum's levels and the model config it implies.

import { DEFAULT_MODEL, type ModelConfig } from '../model/model-config';
import { getTask } from '../tasks/registry';
import type { TaskParams } from '../tasks/types';
import type { RunConfig } from './run-config';

/** The task parameters of a config (`task.length` → `length`), with the curriculum at its end point. */
export function taskParamsOf(config: RunConfig): TaskParams {
  const out: TaskParams = {};
  for (const spec of getTask(config.task).params) out[spec.name] = config[`task.${spec.name}`];
  return out;
}

/**
 * The curriculum's levels [start, end]: a run starts at curriculumStart and ends at the
 * configured task.<curriculumParam>; with the curriculum off there is one level, the end.
 */
export function curriculumLevels(config: RunConfig): [number, number] {
  const spec = getTask(config.task).params.find((p) => p.name === config.curriculumParam);
  const end = Number(config[`task.${config.curriculumParam}`] ?? spec?.default ?? 0);
  return config.curriculum === 'off' ? [end, end] : [config.curriculumStart, end];
}

/** The task parameters at one curriculum level (curriculumParam set to `level`); the configured ones when the curriculum is off. */
export function taskParamsAtLevel(config: RunConfig, level: number): TaskParams {
  if (config.curriculum === 'off') return taskParamsOf(config);
  return { ...taskParamsOf(config), [config.curriculumParam]: level };
}

/**
 * The model config: C, L, NH from the knobs; vocab size and positions derived from the task at
 * its configured parameters (the curriculum's end point, which has the longest sequences and
 * the largest vocabulary; every level's vocabulary is a prefix of it, checked by validateConfig).
 */
export function modelConfigOf(config: RunConfig): ModelConfig {
  const task = getTask(config.task);
  const params = taskParamsOf(config);
  const shape = task.shape(params);
  return {
    ...DEFAULT_MODEL,
    vocabSize: task.vocab(params).length,
    nPositions: shape.promptLength + shape.completionLength,
    nEmbd: config['model.nEmbd'],
    nLayer: config['model.nLayer'],
    nHead: config['model.nHead'],
    initStd: config['model.initStd'],
  };
}
