// Parameter parsing and validation, driven by each task's spec table.

import {
  TaskParamError,
  type ParamSpec,
  type ParamValue,
  type Task,
  type TaskInstance,
  type TaskParams,
} from './types';

/**
 * A row of a task's spec table for an int parameter, read as the row of its table in docs/tasks.md:
 * name, default, inclusive range [min, max], meaning.
 */
export function intParam(name: string, defaultValue: number, [min, max]: [number, number], doc: string): ParamSpec {
  return { name, kind: 'int', default: defaultValue, min, max, doc };
}

/** A row of a task's spec table for an enum parameter: name, the allowed values (the first is the default), meaning. */
export function enumParam(name: string, values: readonly [string, ...string[]], doc: string): ParamSpec {
  return { name, kind: 'enum', default: values[0], values, doc };
}

/** How a raw value is quoted in an error message: numbers bare, everything else as JSON. */
function show(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** "[2, 16]" */
export function rangeText(spec: ParamSpec): string {
  return `[${spec.min ?? '-inf'}, ${spec.max ?? 'inf'}]`;
}

/** "block, interleaved" or the spec's compact description. */
export function allowedText(spec: ParamSpec): string {
  return spec.allowed ?? (spec.values ?? []).join(', ');
}

/** Parses one value against its spec (numbers may arrive as strings from URLs and flags). */
export function parseParamValue(taskName: string, spec: ParamSpec, raw: unknown): ParamValue {
  const where = `${taskName}.${spec.name}`;
  if (spec.kind === 'int') {
    let n: number | undefined;
    if (typeof raw === 'number') n = raw;
    else if (typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw)) n = Number(raw);
    const ok =
      n !== undefined &&
      Number.isInteger(n) &&
      (spec.min === undefined || n >= spec.min) &&
      (spec.max === undefined || n <= spec.max);
    if (!ok) {
      throw new TaskParamError(spec.name, `${where} must be an integer in ${rangeText(spec)}, got ${show(raw)}`);
    }
    return n as number;
  }
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  if (text === undefined || !(spec.values ?? []).includes(text)) {
    throw new TaskParamError(spec.name, `${where} must be one of ${allowedText(spec)}, got ${show(raw)}`);
  }
  return text;
}

/**
 * Fills defaults, coerces and validates raw parameters (from a URL, CLI flags or a preset).
 * Unknown names are an error that lists the allowed ones.
 */
export function parseParams<P extends TaskParams>(
  task: Task<P, TaskInstance>,
  raw: Readonly<Record<string, unknown>> = {},
): P {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new TaskParamError('params', `${task.name} params must be an object of name → value, got ${show(raw)}`);
  }
  const names = task.params.map((s) => s.name);
  for (const key of Object.keys(raw)) {
    if (!names.includes(key)) {
      throw new TaskParamError(key, `${task.name} has no parameter "${key}"; allowed: ${names.join(', ')}`);
    }
  }
  const out: TaskParams = {};
  for (const spec of task.params) {
    const value = raw[spec.name];
    out[spec.name] = value === undefined ? spec.default : parseParamValue(task.name, spec, value);
  }
  const params = out as P;
  task.checkParams?.(params);
  return params;
}

/** Validates a complete parameter object (e.g. built in code); returns a clean copy. */
export function validateParams<P extends TaskParams>(task: Task<P, TaskInstance>, params: P): P {
  return parseParams(task, params);
}

/** The defaults of a task, as a parameter object. */
export function defaultParams<P extends TaskParams>(task: Task<P, TaskInstance>): P {
  return parseParams(task, {});
}
