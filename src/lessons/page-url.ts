// The page's URL: the lesson (`preset=`), the knobs that differ from it (the knob codec,
// src/config/knob-url.ts), and the page's own state (view, zoom, a lesson's trained model).
//
// Only values that differ from the base config are written: the preset's config when a preset
// is named (`preset=` comes first), else the defaults. searchToConfig(configToSearch(c, p)).config
// equals c exactly for every valid config.
//
// Reading never throws: a bad or unknown entry is reported in `errors` (naming the knob and the
// allowed values) and the base value is kept for it.

import { defaultConfig, type RunConfig } from '../config/config';
import { knobEntriesToConfig, knobSearchParts, reportUrlError, type UrlError } from '../config/knob-url';
import { getPreset, presetConfig } from './presets';

export interface UrlState {
  config: RunConfig;
  /** The preset named in the URL, when it named a known one. */
  preset?: string;
  errors: UrlError[];
}

const PRESET_KEY = 'preset';

/** The lesson the page opens on when the URL says nothing at all. */
export const LANDING_PRESET = 'start-here';
/** `preset=none`: the plain defaults (an empty query string means the landing lesson). */
const NO_PRESET = 'none';

/** Keys of the page's own state (not knobs): which view, and the lecture zoom. */
const VIEW_KEY = 'view';
const ZOOM_KEY = 'zoom';
/** A lesson's trained model to load on opening (its label in the trained menu): a shared link to a jump ahead. */
const TRAINED_KEY = 'trained';
const PAGE_KEYS = new Set([VIEW_KEY, ZOOM_KEY, TRAINED_KEY]);

export interface PageState {
  view?: 'lecture' | 'dashboard';
  zoom?: boolean;
  /** The label of one of the lesson's trained models (checked against the preset where it is loaded). */
  trained?: string;
}

/** The config a URL's values are relative to. */
function baseFor(preset: string | undefined): RunConfig {
  return preset === undefined ? defaultConfig() : presetConfig(preset);
}

/**
 * The query string (without "?") of a config: `preset=<name>` if given, then every knob whose
 * value differs from the base, in table order. "" for the default config without a preset.
 */
export function configToSearch(config: RunConfig, preset?: string): string {
  const base = baseFor(preset === undefined ? undefined : getPreset(preset).name);
  const parts: string[] = [];
  if (preset !== undefined) parts.push(`${PRESET_KEY}=${encodeURIComponent(preset)}`);
  parts.push(...knobSearchParts(config, base));
  // The bare defaults must not read back as the landing lesson.
  if (parts.length === 0) parts.push(`${PRESET_KEY}=${NO_PRESET}`);
  return parts.join('&');
}

/** The query string of a config with the page's state appended (the lecture view and no zoom are not written). */
export function pageSearch(config: RunConfig, preset: string | undefined, page: PageState): string {
  const parts = [configToSearch(config, preset)];
  if (page.view === 'dashboard') parts.push(`${VIEW_KEY}=dashboard`);
  if (page.zoom) parts.push(`${ZOOM_KEY}=1`);
  if (page.trained) parts.push(`${TRAINED_KEY}=${encodeURIComponent(page.trained)}`);
  return parts.join('&');
}

/** The page's state in a query string; a bad value is reported like a bad knob. */
export function searchToPage(search: string): { page: PageState; errors: UrlError[] } {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const page: PageState = {};
  const errors: UrlError[] = [];
  const view = params.get(VIEW_KEY);
  if (view !== null) {
    if (view === 'lecture' || view === 'dashboard') page.view = view;
    else
      errors.push({ knob: VIEW_KEY, message: `view must be one of lecture, dashboard; got ${JSON.stringify(view)}` });
  }
  const zoom = params.get(ZOOM_KEY);
  if (zoom !== null) {
    if (zoom === '1' || zoom === '0') page.zoom = zoom === '1';
    else errors.push({ knob: ZOOM_KEY, message: `zoom must be 0 or 1; got ${JSON.stringify(zoom)}` });
  }
  const trained = params.get(TRAINED_KEY);
  if (trained !== null && trained !== '') page.trained = trained;
  return { page, errors };
}

/** Reads a query string (with or without "?"); never throws. */
export function searchToConfig(search: string): UrlState {
  const errors: UrlError[] = [];
  const entries = [...new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)].filter(
    ([k]) => !PAGE_KEYS.has(k),
  );

  let preset: string | undefined;
  let base = defaultConfig();
  // An empty query string opens the landing lesson; "preset=none" is the plain defaults.
  const presetRaw =
    entries.length === 0 ? [PRESET_KEY, LANDING_PRESET] : entries.filter(([k]) => k === PRESET_KEY).pop();
  if (presetRaw && presetRaw[1] !== NO_PRESET) {
    try {
      preset = getPreset(presetRaw[1]).name;
      base = presetConfig(preset);
    } catch (e) {
      reportUrlError(errors, e);
    }
  }

  const knobs = knobEntriesToConfig(
    entries.filter(([k]) => k !== PRESET_KEY),
    base,
  );
  errors.push(...knobs.errors);
  return preset === undefined ? { config: knobs.config, errors } : { config: knobs.config, preset, errors };
}
