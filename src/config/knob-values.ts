// Knob values one at a time: a raw value parsed against its knob, a raw value quoted for an
// error message, an unknown key named with the closest known one, and the curriculum's default
// parameter of a task.

import { quoteInput, shortText } from '../core/quote';
import { getTask, type TaskName } from '../tasks/registry';
import type { ParamSpec } from '../tasks/types';
import { allowedText, knobsFor, TASK_PREFIX, type KnobSpec, type KnobValue } from './knobs';
import { MAX_CODE_LENGTH } from './user-code';
import { ConfigError, type RunConfig } from './run-config';

/** A filled record of knob values, typed as a RunConfig (callers validate or build it from one). */
export function asConfig(values: Record<string, KnobValue>): RunConfig {
  return values as unknown as RunConfig;
}

/** A config as a plain key → value record. */
export function configEntries(config: RunConfig): Readonly<Record<string, KnobValue | undefined>> {
  return config as unknown as Record<string, KnobValue | undefined>;
}

/** How a raw value is quoted in an error message: numbers and booleans bare, the rest as JSON. */
export function showRaw(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return quoteInput(value);
  try {
    return shortText(JSON.stringify(value) ?? String(value));
  } catch {
    return shortText(String(value));
  }
}

const INT_RE = /^[-+]?\d+$/;
const FLOAT_RE = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

/**
 * Parses one value against its knob. Strings are accepted for every kind (URLs and flags carry
 * text); throws ConfigError naming the knob and its allowed values.
 */
export function parseKnobValue(knob: KnobSpec, raw: unknown): KnobValue {
  const text = typeof raw === 'string' ? raw.trim() : undefined;
  switch (knob.kind) {
    case 'int':
    case 'float': {
      const int = knob.kind === 'int';
      let n: number | undefined;
      if (typeof raw === 'number') n = raw;
      else if (text !== undefined && (int ? INT_RE : FLOAT_RE).test(text)) n = Number(text);
      if (
        n === undefined ||
        !(int ? Number.isSafeInteger(n) : Number.isFinite(n)) ||
        n < (knob.min ?? -Infinity) ||
        n > (knob.max ?? Infinity)
      ) {
        throw new ConfigError(
          knob.key,
          `${knob.key} must be ${int ? 'an integer' : 'a number'} in ${allowedText(knob)}, got ${showRaw(raw)}`,
        );
      }
      return n + 0; // -0 → 0
    }
    case 'enum': {
      if (text === undefined || !(knob.values ?? []).includes(text)) {
        throw new ConfigError(knob.key, `${knob.key} must be one of ${allowedText(knob)}; got ${showRaw(raw)}`);
      }
      return text;
    }
    case 'bool': {
      if (typeof raw === 'boolean') return raw;
      if (text === 'true' || text === '1') return true;
      if (text === 'false' || text === '0') return false;
      throw new ConfigError(knob.key, `${knob.key} must be true or false, got ${showRaw(raw)}`);
    }
    case 'code': {
      // Kept exactly as written (not trimmed): the code that runs is the code that was read.
      if (typeof raw !== 'string' || raw.length > MAX_CODE_LENGTH) {
        const got = typeof raw === 'string' ? `${raw.length.toLocaleString('en-US')} characters` : showRaw(raw);
        throw new ConfigError(knob.key, `${knob.key} must be ${allowedText(knob)}; got ${got}`);
      }
      return raw;
    }
  }
}

/** Edit distance, case-insensitive (for "did you mean"). */
function distance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** The known key closest to `key` (ties: the first in table order). */
export function closestKey(key: string, keys: readonly string[]): string {
  let best = keys[0];
  let bestD = Infinity;
  // Knob keys are short: the start of a very long key is as good a guess, and stays fast.
  const typed = key.slice(0, 64);
  for (const k of keys) {
    const d = distance(typed, k);
    if (d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}

/** The error for a key that is not a knob of a config for `task` (names the closest known key). */
export function unknownKeyError(key: string, task: TaskName): ConfigError {
  const keys = knobsFor(task).map((k) => k.key);
  const near = closestKey(key, keys);
  if (key.startsWith(TASK_PREFIX)) {
    const own = keys.filter((k) => k.startsWith(TASK_PREFIX));
    return new ConfigError(
      key,
      `${shortText(key)} is not a parameter of task ${task}; its parameters: ${own.join(', ')} (did you mean ${near}?)`,
    );
  }
  return new ConfigError(key, `unknown knob ${quoteInput(key)}; did you mean ${near}?`);
}

export function intSpecs(task: TaskName): ParamSpec[] {
  return getTask(task).params.filter((p) => p.kind === 'int');
}

/** The integer task parameter a curriculum moves by default: the task's first one. */
export function defaultCurriculumParam(task: TaskName): ParamSpec {
  return intSpecs(task)[0];
}
