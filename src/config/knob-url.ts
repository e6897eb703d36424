// The knobs in a URL: a config as the query-string entries of the knobs that differ from a base
// config, and such entries read back over that base. The page's whole URL (its lesson as
// `preset=`, its view and zoom) is src/lessons/page-url.ts, on this codec.
//
// A task different from the base's is written as `task=`, and the task parameters are then
// compared with that task's defaults (withTask). Floats are written with JavaScript's shortest
// round-trip representation, so reading the entries of a valid config over the same base gives
// that config exactly.
//
// Reading never throws: a bad or unknown entry is reported in `errors` (naming the knob and the
// allowed values) and the base value is kept for it.

import {
  ConfigError,
  parseKnobValue,
  unknownKeyError,
  validateConfig,
  withTask,
  configEntries,
  type RunConfig,
} from './config';
import { findKnob, formatValue, knobsFor, type KnobValue } from './knobs';
import type { TaskName } from '../tasks/registry';

export interface UrlError {
  knob: string;
  message: string;
}

/** Adds a ConfigError to `errors` as a UrlError; anything else is thrown on. */
export function reportUrlError(errors: UrlError[], e: unknown): void {
  if (e instanceof ConfigError) errors.push({ knob: e.knob, message: e.message });
  else throw e;
}

/** `key=value` (URI-encoded) for every knob whose value in `config` differs from `base`, in table order. */
export function knobSearchParts(config: RunConfig, base: RunConfig): string[] {
  const rebased = configEntries(withTask(base, config.task));
  const values = configEntries(config);
  const parts: string[] = [];
  for (const knob of knobsFor(config.task)) {
    const v = values[knob.key] as KnobValue;
    const differs = knob.key === 'task' ? config.task !== base.task : v !== rebased[knob.key];
    if (differs) parts.push(`${encodeURIComponent(knob.key)}=${encodeURIComponent(formatValue(v))}`);
  }
  return parts;
}

/** The values of `entries` (a query string's key → value pairs, knobs only) that parse, by knob; the others reported. */
function knobOverrides(entries: readonly (readonly [string, string])[], base: RunConfig, errors: UrlError[]) {
  const overrides = new Map<string, KnobValue>();
  for (const [key, raw] of entries) {
    if (key === 'task') continue;
    if (key.trim() === '') {
      // "=x" or "&=&": nothing to name but the entry itself.
      if (raw !== '')
        errors.push({ knob: 'url', message: `a URL entry has no knob name: ${JSON.stringify(`=${raw}`)} is ignored` });
      continue;
    }
    const knob = findKnob(key, base.task);
    try {
      if (!knob) throw unknownKeyError(key, base.task);
      overrides.set(key, parseKnobValue(knob, raw));
    } catch (e) {
      overrides.delete(key);
      reportUrlError(errors, e);
    }
  }
  return overrides;
}

/**
 * The config of knob entries (a query string's key → value pairs, knobs only) read over `base`;
 * never throws: a bad entry is reported in `errors` and the base value kept.
 */
export function knobEntriesToConfig(
  entries: readonly (readonly [string, string])[],
  base: RunConfig,
): { config: RunConfig; errors: UrlError[] } {
  const errors: UrlError[] = [];
  const taskRaw = entries.filter(([k]) => k === 'task').pop();
  if (taskRaw) {
    try {
      base = withTask(base, parseKnobValue(findKnob('task')!, taskRaw[1]) as TaskName);
    } catch (e) {
      reportUrlError(errors, e);
    }
  }

  // Each value on its own: type, range, allowed values.
  const overrides = knobOverrides(entries, base, errors);

  // Then the rules between knobs: drop the latest override among the knobs the broken rule
  // involves (or, failing that, the latest override) until the config is valid. The base is.
  for (;;) {
    try {
      return { config: validateConfig({ ...base, ...Object.fromEntries(overrides) }), errors };
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      if (overrides.size === 0) throw e; // unreachable: presets and defaults are valid
      reportUrlError(errors, e);
      const involved = new Set([e.knob, ...e.related]);
      const keys = [...overrides.keys()];
      const key = keys.filter((k) => involved.has(k)).pop() ?? keys.pop()!;
      overrides.delete(key);
    }
  }
}
