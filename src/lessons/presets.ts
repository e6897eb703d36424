// Presets: small, named diffs on the default config. Each is also a lesson for a lecturer:
// a one-sentence summary, numbered guide steps (each may point at what it talks about), what
// measured runs did (so a class can tell whether its run is on track), the 3–4 charts the lesson
// is about, one-click comparison variants, and optional trained checkpoints to jump ahead.
//
// Initial pass rates quoted in the lessons were measured with a uniform random policy over the task
// vocabulary (what a freshly initialised model is close to), with the task library itself.
//
// The table is table/ (one file a lesson, table/index.ts gives their order), on shared recipes
// (recipes.ts); what a preset holds is types.ts.

import { quoteInput } from '../core/quote';
import { ConfigError, defaultConfig, mergeConfig, type RunConfig } from '../config/config';
import { PRESET_TABLE } from './table';
import type { Preset } from './types';

export * from './types';

export const PRESETS: readonly Preset[] = PRESET_TABLE;

export const PRESET_NAMES: readonly string[] = PRESETS.map((p) => p.name);

/** The preset with this name; an unknown name is a ConfigError listing the names. */
export function getPreset(name: string): Preset {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) {
    throw new ConfigError('preset', `preset must be one of ${PRESET_NAMES.join(', ')}; got ${quoteInput(name)}`);
  }
  return preset;
}

const cache = new Map<string, RunConfig>();

/** The validated config of a preset (a fresh copy each call). */
export function presetConfig(name: string): RunConfig {
  let config = cache.get(name);
  if (!config) {
    config = mergeConfig(defaultConfig(), getPreset(name).set);
    cache.set(name, config);
  }
  return { ...config };
}

/**
 * The lesson whose own settings `config` has, with any seed and step budget (a checkpoint of
 * that lesson, wherever it came from); undefined when none has them.
 */
export function lessonOfConfig(config: RunConfig): string | undefined {
  const key = (c: RunConfig) => JSON.stringify({ ...c, seed: 0, steps: 0 });
  const want = key(config);
  return PRESET_NAMES.find((name) => key(presetConfig(name)) === want);
}

/** The config of one of a preset's variants (by label). */
export function variantConfig(name: string, label: string): RunConfig {
  const preset = getPreset(name);
  const variant = (preset.variants ?? []).find((v) => v.label === label);
  if (!variant) {
    const labels = (preset.variants ?? []).map((v) => JSON.stringify(v.label));
    throw new ConfigError(
      'variant',
      `preset ${name} has ${labels.length ? `variants ${labels.join(', ')}` : 'no variants'}; got ${quoteInput(label)}`,
    );
  }
  return mergeConfig(presetConfig(name), variant.set);
}
