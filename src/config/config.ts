// The run config: one flat object of knob values, validated against the knob table.
//
// Everything that builds a config (UI form, URL, preset, CLI flags, JSON file, checkpoint
// metadata) goes through `validateConfig`, which fills defaults, coerces strings (URLs and
// flags carry text), checks types, ranges and enum values, and then the rules between knobs.
// Errors are `ConfigError`s whose `knob` names the offending key and whose message gives the
// allowed values (docs/architecture.md, "Conventions"). The config's type is in run-config.ts,
// single knob values in knob-values.ts, diffs between configs in config-diff.ts.

import { isTaskName, TASK_NAMES, type TaskName } from '../tasks/registry';
import { checkKnobRules } from './knob-rules';
import { findKnob, knobsFor, STATIC_KNOBS, TASK_PREFIX, type KnobSpec, type KnobValue } from './knobs';
import { ConfigError, type RawConfig, type RunConfig } from './run-config';
import { asConfig, defaultCurriculumParam, intSpecs, parseKnobValue, showRaw, unknownKeyError } from './knob-values';

export * from './run-config';
export * from './knob-values';
export * from './config-diff';
export * from './config-views';

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

// ── validation ─────────────────────────────────────────────────────────────────────────

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
  checkKnobRules(config);
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
