// Config from the command line: `--preset NAME`, `--config FILE.json`, repeated `--set key=value`.
//
// Layers, later wins: defaults < preset < config file < --set. A layer that changes the task
// starts that task from its defaults (withTask). The result is validated once, so a file and
// flags may fix each other's cross-field constraints; errors name the knob and where its value
// came from.

import { quoteInput, shortText } from '../core/quote';
import {
  ConfigError,
  defaultConfig,
  parseKnobValue,
  showRaw,
  validateConfig,
  withTask,
  type RunConfig,
} from './config';
import { findKnob } from './knobs';
import { presetConfig, variantConfig } from './presets';
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

export interface CliConfigOptions {
  /** A preset name (--preset). */
  preset?: string;
  /** One of the preset's comparison variants, by its label (--variant). */
  variant?: string;
  /**
   * The config file: its JSON text, or the parsed object. A flat object of knob → value; it may
   * name a `preset` (the --preset flag wins over it). A saved run config is a valid file.
   */
  configFile?: string | Readonly<Record<string, unknown>>;
  /** The --set values, as given ("key=value"). */
  sets?: readonly string[];
}

function parseFile(file: string | Readonly<Record<string, unknown>>): Record<string, unknown> {
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

/** The validated RunConfig of a CLI invocation; throws ConfigError naming the knob. */
export function configFromCli(options: CliConfigOptions): RunConfig {
  const file = options.configFile === undefined ? {} : parseFile(options.configFile);
  const sets = parseSetFlags(options.sets ?? []);
  const filePreset = file.preset;
  delete file.preset;
  if (filePreset !== undefined && typeof filePreset !== 'string') {
    throw new ConfigError('preset', `the config file's preset must be a preset name, got ${showRaw(filePreset)}`);
  }
  const preset = options.preset ?? filePreset;
  if (options.variant !== undefined && preset === undefined) {
    throw new ConfigError(
      'variant',
      `--variant needs a preset (--preset NAME), got --variant ${quoteInput(options.variant)} alone`,
    );
  }
  let base =
    preset === undefined
      ? defaultConfig()
      : options.variant === undefined
        ? presetConfig(preset)
        : variantConfig(preset, options.variant);

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
