// Config slice: the config being edited (always valid), the preset it started from, and the
// messages of rejected edits and URL values.

import type { StateCreator } from 'zustand';
import { ConfigError, defaultConfig, findKnob, mergeConfig, type RunConfig, type UrlError } from '../config';
import { presetConfig } from '../lessons';
import type { AppState } from './store';

export interface ConfigSlice {
  config: RunConfig;
  /** The preset the config started from (the URL writes values relative to it). */
  preset: string | undefined;
  /** knob key → why the last edit of it was refused (the config kept its previous value). */
  knobErrors: Record<string, string>;
  /** Bad values found in the URL at load (the defaults were used for them). */
  urlErrors: UrlError[];
  /** Sets one knob from a control's raw value; returns the error message, if refused. */
  setKnob(key: string, raw: unknown): string | undefined;
  /** Clears the error shown under a knob (e.g. after the control reverted). */
  clearKnobError(key: string): void;
  /** Loads a preset's config (undefined: the defaults, no preset). */
  choosePreset(name: string | undefined): void;
  /** Replaces the whole config (URL, import, sweep). */
  setConfig(config: RunConfig, preset: string | undefined): void;
  setUrlErrors(errors: UrlError[]): void;
}

function without(o: Record<string, string>, key: string): Record<string, string> {
  if (!(key in o)) return o;
  const out = { ...o };
  delete out[key];
  return out;
}

export const createConfigSlice: StateCreator<AppState, [], [], ConfigSlice> = (set, get) => ({
  config: defaultConfig(),
  preset: undefined,
  knobErrors: {},
  urlErrors: [],

  setKnob(key, raw) {
    const { config, knobErrors } = get();
    try {
      if (!findKnob(key, config.task)) throw new ConfigError(key, `unknown knob "${key}"`);
      const next = mergeConfig(config, { [key]: raw });
      set({ config: next, knobErrors: without(knobErrors, key) });
      return undefined;
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      set({ knobErrors: { ...knobErrors, [key]: e.message } });
      return e.message;
    }
  },

  clearKnobError(key) {
    set({ knobErrors: without(get().knobErrors, key) });
  },

  choosePreset(name) {
    set({ config: name === undefined ? defaultConfig() : presetConfig(name), preset: name, knobErrors: {} });
  },

  setConfig(config, preset) {
    set({ config, preset, knobErrors: {} });
  },

  setUrlErrors(errors) {
    set({ urlErrors: errors });
  },
});
