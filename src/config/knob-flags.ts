// Config from the command line's knob layers: repeated `--set key=value`, a `--config FILE.json`,
// each over a base config. The lesson layer beneath them (`--preset`, `--variant`) and the whole
// CLI invocation are src/lessons/preset-flags.ts.
//
// Layers, later wins: base < config file < --set. A layer that changes the task starts that
// task from its defaults (withTask). The result is validated once, so a file and flags may fix
// each other's cross-field constraints; errors name the knob and where its value came from.

import { quoteInput, shortText } from '../core/quote';
import { ConfigError, parseKnobValue, showRaw, validateConfig, withTask, type RunConfig } from './config';
import { findKnob } from './knobs';
import type { TaskName } from '../tasks/registry';

/** `["lr=0.01", "task.length=4"]` → `{lr: "0.01", "task.length": "4"}`; the last of a repeated key wins. */
export function parseSetFlags(sets: readonly string[]): Record<string, string> {
  // No prototype: `--set __proto__=1` stays an (unknown) key instead of vanishing.
  const out: Record<string, string> = Object.create(null);
  for (const s of sets) {
    const eq = s.indexOf('=');
    const key = eq > 0 ? s.slice(0, eq).trim() : '';
    if (!key) throw new ConfigError(s, `--set expects key=value (e.g. --set lr=0.003), got ${quoteInput(s)}`);
    // Code is kept exactly as given (a file's text, to the last newline); other values are trimmed.
    const value = s.slice(eq + 1);
    out[key] = findKnob(key)?.kind === 'code' ? value : value.trim();
  }
  return out;
}

/** A config file (its JSON text, or the parsed object) as a fresh flat object of key → value. */
export function parseConfigFile(file: string | Readonly<Record<string, unknown>>): Record<string, unknown> {
  let obj: unknown = file;
  if (typeof file === 'string') {
    try {
      obj = JSON.parse(file);
    } catch (e) {
      throw new ConfigError('config', `the config file is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) {
    throw new ConfigError('config', `the config file must hold a JSON object of knob → value, got ${showRaw(obj)}`);
  }
  return { ...(obj as Record<string, unknown>) };
}

/**
 * The validated config of `base` < the config file's knobs < the --set values (parsed by
 * parseSetFlags); throws ConfigError naming the knob and where its value came from.
 */
export function layerConfig(
  base: RunConfig,
  file: Readonly<Record<string, unknown>>,
  sets: Readonly<Record<string, string>>,
): RunConfig {
  const raw: Record<string, unknown> = { ...file, ...sets };
  const source = (knob: string): string =>
    knob in sets
      ? ` (from --set ${shortText(knob)}=${shortText(sets[knob])})`
      : knob in file
        ? ' (from the config file)'
        : '';
  try {
    if (raw.task !== undefined) base = withTask(base, parseKnobValue(findKnob('task')!, raw.task) as TaskName);
    return validateConfig({ ...base, ...raw });
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(e.knob, e.message + source(e.knob));
    throw e;
  }
}
