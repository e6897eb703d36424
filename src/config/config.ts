// The run config: one flat object of knob values, validated against the knob table.
//
// Everything that builds a config (UI form, URL, preset, CLI flags, JSON file, checkpoint
// metadata) goes through `validateConfig`, which fills defaults, coerces strings (URLs and
// flags carry text), checks types, ranges and enum values, and then the rules between knobs.
// Errors are `ConfigError`s whose `knob` names the offending key and whose message gives the
// allowed values (docs/architecture.md, "Conventions"). The config's type is in run-config.ts,
// single knob values in knob-values.ts, diffs between configs in config-diff.ts.

import { DEFAULT_MODEL, ModelConfigError, validateModelConfig, type ModelConfig } from '../model/config';
import { parseParams } from '../tasks/params';
import { getTask, isTaskName, TASK_NAMES, type TaskName } from '../tasks/registry';
import { TaskParamError, type TaskParams } from '../tasks/types';
import {
  findKnob,
  formatValue,
  GROUP_ESTIMATORS,
  knobsFor,
  STATIC_KNOBS,
  TASK_PREFIX,
  type KnobSpec,
  type KnobValue,
} from './knobs';
import { ConfigError, type RawConfig, type RunConfig } from './run-config';
import { asConfig, defaultCurriculumParam, intSpecs, parseKnobValue, showRaw, unknownKeyError } from './knob-values';

export * from './run-config';
export * from './knob-values';
export * from './config-diff';

// ── defaults ───────────────────────────────────────────────────────────────────────────

const STATIC_DEFAULTS: Record<string, KnobValue> = Object.fromEntries(
  (STATIC_KNOBS as readonly KnobSpec[]).map((k) => [k.key, k.default]),
);

/** The default config for a task (default task: groupmul), every knob at its documented default. */
export function defaultConfig(task: TaskName | string = STATIC_DEFAULTS.task as string): RunConfig {
  if (!isTaskName(task)) {
    throw new ConfigError('task', `task must be one of ${TASK_NAMES.join(', ')}; got ${showRaw(task)}`);
  }
  const out: Record<string, KnobValue> = {};
  for (const k of knobsFor(task)) out[k.key] = k.default;
  out.task = task;
  const cp = defaultCurriculumParam(task);
  out.curriculumParam = cp.name;
  out.curriculumStart = cp.min ?? 0;
  return asConfig(out);
}

/**
 * The same config on another task: the `task.<param>` knobs become the new task's defaults, and
 * a curriculum parameter the new task lacks is replaced by the new task's default one.
 * (The UI's task selector and layered configs use this.)
 */
export function withTask(config: RunConfig, task: TaskName | string): RunConfig {
  if (!isTaskName(task)) {
    throw new ConfigError('task', `task must be one of ${TASK_NAMES.join(', ')}; got ${showRaw(task)}`);
  }
  if (task === config.task) return { ...config };
  const fresh = defaultConfig(task);
  const out: Record<string, KnobValue> = {};
  for (const [k, v] of Object.entries(config)) if (!k.startsWith(TASK_PREFIX)) out[k] = v;
  for (const [k, v] of Object.entries(fresh)) if (k.startsWith(TASK_PREFIX)) out[k] = v;
  out.task = task;
  const spec = intSpecs(task).find((p) => p.name === config.curriculumParam);
  if (!spec) {
    out.curriculumParam = fresh.curriculumParam;
    out.curriculumStart = fresh.curriculumStart;
  } else if (config.curriculumStart < (spec.min ?? 0)) {
    // Same parameter name, narrower range (groupmul length starts at 1, sort length at 2).
    out.curriculumStart = spec.min ?? 0;
  }
  return orderConfig(asConfig(out));
}

/** Same values, keys in table order (stable JSON, stable diffs). */
function orderConfig(config: RunConfig): RunConfig {
  const out: Record<string, KnobValue> = {};
  for (const k of knobsFor(config.task)) out[k.key] = config[k.key as keyof RunConfig] as KnobValue;
  return asConfig(out);
}

// ── derived views for the engine ───────────────────────────────────────────────────────

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

// ── validation ─────────────────────────────────────────────────────────────────────────

function taskParamError(config: RunConfig, e: unknown): ConfigError {
  if (e instanceof TaskParamError) {
    const key = TASK_PREFIX + e.param;
    const message = e.message.startsWith(`${config.task}.`)
      ? TASK_PREFIX + e.message.slice(config.task.length + 1)
      : e.message;
    const others = getTask(config.task)
      .params.map((p) => TASK_PREFIX + p.name)
      .filter((k) => k !== key);
    return new ConfigError(key, message, others);
  }
  throw e;
}

function checkTaskParams(config: RunConfig, params: TaskParams): void {
  try {
    parseParams(getTask(config.task), params);
  } catch (e) {
    throw taskParamError(config, e);
  }
}

/** The rules between knobs; throws the first violation as a ConfigError. */
function checkCrossRules(c: RunConfig): void {
  const fail = (knob: string, message: string, related: readonly string[] = []): never => {
    throw new ConfigError(knob, message, related);
  };
  const taskKeys = Object.keys(c).filter((k) => k.startsWith(TASK_PREFIX));
  const task = getTask(c.task);
  checkTaskParams(c, taskParamsOf(c));

  // Model: divisibility (the kernels read 4 channels at a time) and the derived sizes.
  if (c['model.nEmbd'] % c['model.nHead'] !== 0) {
    fail('model.nEmbd', `model.nEmbd (${c['model.nEmbd']}) must be divisible by model.nHead (${c['model.nHead']})`, [
      'model.nHead',
    ]);
  }
  if (c['model.nEmbd'] % 4 !== 0) fail('model.nEmbd', `model.nEmbd must be a multiple of 4, got ${c['model.nEmbd']}`);
  try {
    validateModelConfig(modelConfigOf(c));
  } catch (e) {
    if (e instanceof ModelConfigError) fail('model.nEmbd', e.message, ['model.nHead', 'model.nLayer', ...taskKeys]);
    throw e;
  }

  const n = c.batchPrompts * c.groupSize;
  if (c.minibatches > n || n % c.minibatches !== 0) {
    fail(
      'minibatches',
      `minibatches must divide batchPrompts·groupSize = ${n} (so every sequence is trained), got ${c.minibatches}`,
      ['batchPrompts', 'groupSize'],
    );
  }
  if (GROUP_ESTIMATORS.includes(c.estimator) && c.groupSize < 2) {
    fail(
      'groupSize',
      `groupSize must be at least 2 with estimator ${c.estimator} (a completion is compared with its group peers), got ${c.groupSize}`,
      ['estimator'],
    );
  }
  if (c.estimator === 'passk' && c.passK > c.groupSize) {
    fail(
      'passK',
      `passK must be an integer in [1, groupSize] = [1, ${c.groupSize}] with estimator passk, got ${c.passK}`,
      ['groupSize', 'estimator'],
    );
  }
  if (c.estimator === 'mapp' && c.mappPool < c.batchPrompts) {
    fail(
      'mappPool',
      `mappPool must be at least batchPrompts (${c.batchPrompts}) with estimator mapp, got ${c.mappPool}`,
      ['batchPrompts', 'estimator'],
    );
  }
  if (c.dualClip !== 0 && c.dualClip <= 1) {
    fail('dualClip', `dualClip must be 0 (off) or a number in (1, 100], got ${formatValue(c.dualClip)}`);
  }
  const completion = task.shape(taskParamsOf(c)).completionLength;
  if (c.overlongBuffer >= completion) {
    fail(
      'overlongBuffer',
      `overlongBuffer must be 0 (off) or less than the completion length (${completion} for this task), got ${c.overlongBuffer}`,
      taskKeys,
    );
  }
  if (c.sftData === 'base' && !task.baseCompletion) {
    fail('sftData', `sftData = base needs a task with base completions (maze); ${c.task} has none: use answers`, [
      'task',
    ]);
  }
  if (c.refSync === 'curriculum' && c.curriculum === 'off') {
    fail(
      'refSync',
      'refSync = curriculum needs a curriculum (curriculum = pass-rate); use none or every, or turn the curriculum on',
      ['curriculum'],
    );
  }

  if (c.curriculum !== 'off') {
    const ints = task.params.filter((p) => p.kind === 'int');
    const spec = ints.find((p) => p.name === c.curriculumParam);
    if (!spec) {
      fail(
        'curriculumParam',
        `curriculumParam must be one of ${ints.map((p) => p.name).join(', ')} (the integer parameters of ${c.task}); got ${showRaw(c.curriculumParam)}`,
        ['task', 'curriculum'],
      );
      return;
    }
    const end = c[`task.${spec.name}`] as number;
    const lo = spec.min ?? 0;
    if (c.curriculumStart < lo || c.curriculumStart > end) {
      fail(
        'curriculumStart',
        `curriculumStart must be an integer in [${lo}, task.${spec.name}] = [${lo}, ${end}], got ${c.curriculumStart}`,
        [`task.${spec.name}`, 'curriculumParam', 'curriculum'],
      );
    }
    // Every level must be a valid task whose sequences and vocabulary fit the model (sized at the end).
    const endParams = taskParamsOf(c);
    const endVocab = task.vocab(endParams);
    const endShape = task.shape(endParams);
    for (let level = c.curriculumStart; level < end; level++) {
      const params = taskParamsAtLevel(c, level);
      try {
        parseParams(task, params);
      } catch (e) {
        const err = taskParamError(c, e);
        fail(
          'curriculumStart',
          `curriculumStart ${c.curriculumStart}: at ${c.curriculumParam} = ${level}, ${err.message}`,
          ['curriculumParam', 'curriculum', ...taskKeys],
        );
      }
      const vocab = task.vocab(params);
      const shape = task.shape(params);
      if (vocab.some((t, i) => endVocab[i] !== t)) {
        fail(
          'curriculumParam',
          `curriculumParam ${c.curriculumParam} changes the vocabulary in a way the model cannot follow (level ${level})`,
          ['curriculum', ...taskKeys],
        );
      }
      if (shape.promptLength + shape.completionLength > endShape.promptLength + endShape.completionLength) {
        fail(
          'curriculumParam',
          `curriculumParam ${c.curriculumParam}: level ${level} has longer sequences than the end point`,
          ['curriculum', ...taskKeys],
        );
      }
    }
  }
}

/**
 * Fills defaults, coerces and validates a raw config (from a form, URL, preset, file or flags).
 * `raw.task` picks the task (default groupmul); missing knobs take that task's defaults. Throws
 * ConfigError naming the knob: bad type/range/value, unknown key (naming the closest known one),
 * or a broken rule between knobs.
 */
export function validateConfig(input: RawConfig | RunConfig): RunConfig {
  const raw = input as RawConfig;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError('config', `a run config must be an object of knob → value, got ${showRaw(raw)}`);
  }
  const task = (
    raw.task === undefined ? STATIC_DEFAULTS.task : parseKnobValue(findKnob('task')!, raw.task)
  ) as TaskName;
  const knobs = knobsFor(task);
  const known = new Set(knobs.map((k) => k.key));
  for (const key of Object.keys(raw)) {
    if (!known.has(key) && raw[key] !== undefined) throw unknownKeyError(key, task);
  }
  const defaults = defaultConfig(task);
  const out: Record<string, KnobValue> = {};
  for (const k of knobs) {
    const v = raw[k.key];
    out[k.key] = v === undefined ? (defaults[k.key as keyof RunConfig] as KnobValue) : parseKnobValue(k, v);
  }
  const config = asConfig(out);
  checkCrossRules(config);
  return config;
}

/** validateConfig that returns the error instead of throwing. */
export function tryValidateConfig(
  raw: RawConfig | RunConfig,
): { ok: true; config: RunConfig } | { ok: false; error: ConfigError } {
  try {
    return { ok: true, config: validateConfig(raw) };
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, error: e };
    throw e;
  }
}

/**
 * Applies overrides on top of a valid config. If the overrides change the task, the base's task
 * parameters are first replaced by the new task's defaults (withTask), so a preset for one task
 * can be re-pointed at another.
 */
export function mergeConfig(base: RunConfig, input: RawConfig | Partial<RunConfig>): RunConfig {
  const overrides = input as RawConfig;
  let start = base;
  if (overrides.task !== undefined) {
    const task = parseKnobValue(findKnob('task')!, overrides.task) as TaskName;
    start = withTask(base, task);
  }
  return validateConfig({ ...start, ...overrides });
}
