// Config from the command line: `--preset NAME` (and `--variant LABEL`), `--config FILE.json`,
// repeated `--set key=value`.
//
// Layers, later wins: defaults < preset < config file < --set. The preset is this layer's; the
// file and the --set values are the knob layers of src/config/knob-flags.ts, which validate the result
// once and name the knob and where its value came from.

import { quoteInput } from '../core/quote';
import { commonFlag } from '../core/common-flags';
import type { FlagSpec } from '../core/flags';
import { ConfigError, defaultConfig, showRaw, type RunConfig } from '../config/config';
import { layerConfig, parseConfigFile, parseSetFlags } from '../config/knob-flags';
import { presetConfig, PRESET_NAMES, variantConfig } from './presets';

/** The shared `--preset` flag (src/core/common-flags.ts) with its closed list, the lessons' names. */
export function presetFlag(note?: string): FlagSpec {
  return { ...commonFlag('preset', note), values: PRESET_NAMES };
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

/** The validated RunConfig of a CLI invocation; throws ConfigError naming the knob. */
export function configFromCli(options: CliConfigOptions): RunConfig {
  const file = options.configFile === undefined ? {} : parseConfigFile(options.configFile);
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
  const base =
    preset === undefined
      ? defaultConfig()
      : options.variant === undefined
        ? presetConfig(preset)
        : variantConfig(preset, options.variant);
  return layerConfig(base, file, sets);
}
