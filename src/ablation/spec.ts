// An ablation spec: a preset, the cells to compare (the preset and some of its variants, and/or a
// grid of knob values) and the seeds. Pure, so `rlvr sweep` and the page build the same cells,
// with the same labels and configs, from the same spec.

import { quoteInput, shortText } from '../core/quote';
import { ConfigError, curriculumLevels, mergeConfig, type RunConfig } from '../config/config';
import { parseSetFlags } from '../config/knob-flags';
import { configFromCli } from '../lessons/preset-flags';
import { findKnob, formatValue, type KnobValue } from '../config/knobs';
import { getPreset, presetConfig, type PresetSolvedRule } from '../lessons/presets';

export interface AblationSpec {
  preset: string;
  /** Variant labels run beside the preset itself (the first cell). */
  variants: readonly string[];
  /** knob → values (as a user types them), in order; the cells are every combination. */
  grid: readonly (readonly [string, readonly string[]])[];
  seeds: readonly number[];
  steps: number;
  /** `key=value` overrides applied to every cell before its own values (e.g. "evalEvery=25"). */
  sets: readonly string[];
  solved: PresetSolvedRule | null;
  /** Metrics to compare, the main one first. */
  metrics: readonly string[];
  /**
   * The checkpoint every run starts from (its weights; each run keeps its own config and seed),
   * or null for random weights: by default the preset's `init` (a path under the site root,
   * which rlvr sweep reads from public/), or the file given to `rlvr sweep --init`.
   */
  init: string | null;
}

export interface AblationCellSpec {
  /** "clip-higher", "symmetric clip", "lr=0.01", "symmetric clip, lr=0.01". */
  label: string;
  /** A folder name for its runs, unique within the ablation. */
  dir: string;
  variant?: string;
  /** The grid values of the cell, knob → value as given. */
  set: Readonly<Record<string, string>>;
}

/** The most cells one sweep may have, and the most runs (cells × seeds): past them it is surely a typo. */
export const MAX_ABLATION_CELLS = 1000;
export const MAX_ABLATION_RUNS = 100_000;
/** The most seeds a --seeds list may name counting repeats (so "0-9999,0-9999,…" stays fast). */
const MAX_SEEDS_NAMED = 1_000_000;

const count = (n: number): string => n.toLocaleString('en-US');

/** "0-3,7" → [0, 1, 2, 3, 7]; duplicates dropped, order kept. Every seed is one the seed knob allows. */
export function parseSeedList(text: string): number[] {
  const { min, max } = findKnob('seed') as { min: number; max: number };
  const ranges: [number, number][] = [];
  let named = 0;
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) throw new ConfigError('seeds', `seeds must be a list like 0-3 or 0,2,5; got ${quoteInput(text)}`);
    for (const digits of [m[1], m[2]]) {
      if (digits !== undefined && !(Number(digits) >= min && Number(digits) <= max)) {
        throw new ConfigError(
          'seeds',
          `seeds: ${shortText(digits)} is not a seed: a seed is an integer in [${min}, ${max}]`,
        );
      }
    }
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new ConfigError('seeds', `a seed range must go up (${shortText(part)})`);
    if (b - a > 10000)
      throw new ConfigError('seeds', `a seed range of more than 10,000 seeds is surely a typo (${shortText(part)})`);
    named += b - a + 1;
    if (named > MAX_SEEDS_NAMED)
      throw new ConfigError(
        'seeds',
        `seeds: the list names more than ${count(MAX_SEEDS_NAMED)} seeds (repeats counted); a sweep has at most ${count(MAX_ABLATION_RUNS)} runs`,
      );
    ranges.push([a, b]);
  }
  const seen = new Set<number>();
  const out: number[] = [];
  for (const [a, b] of ranges) {
    for (let s = a; s <= b; s++) {
      if (!seen.has(s)) {
        seen.add(s);
        out.push(s);
      }
    }
  }
  if (out.length === 0) throw new ConfigError('seeds', `give at least one seed; got ${quoteInput(text)}`);
  if (out.length > MAX_ABLATION_RUNS)
    throw new ConfigError(
      'seeds',
      `seeds: ${count(out.length)} seeds; a sweep has at most ${count(MAX_ABLATION_RUNS)} runs (cells × seeds)`,
    );
  return out;
}

/** `["lr=0.003,0.01", "epsHigh=0.2,0.28"]` → [["lr", ["0.003", "0.01"]], …]. */
export function parseGridFlags(flags: readonly string[]): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const f of flags) {
    const eq = f.indexOf('=');
    const key = eq > 0 ? f.slice(0, eq).trim() : '';
    const values = f
      .slice(eq + 1)
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (!key || values.length === 0)
      throw new ConfigError(
        'grid',
        `--grid expects knob=value,value (e.g. --grid epsHigh=0.2,0.28), got ${quoteInput(f)}`,
      );
    if (out.some(([k]) => k === key)) throw new ConfigError('grid', `--grid names ${shortText(key)} twice`);
    out.push([key, values]);
  }
  return out;
}

/** A folder name from a label: letters, digits and . = + - kept, anything else one "-". */
export function cellDirName(label: string): string {
  return label.replace(/[^A-Za-z0-9.=+-]+/g, '-').replace(/^-+|-+$/g, '') || 'cell';
}

/** The cells of a spec: (the preset, then each variant) × every grid combination, in that order. */
export function ablationCells(spec: Pick<AblationSpec, 'preset' | 'variants' | 'grid'>): AblationCellSpec[] {
  const heads: (string | undefined)[] = spec.variants.length ? [undefined, ...spec.variants] : [undefined];
  let combos: Record<string, string>[] = [{}];
  for (const [key, values] of spec.grid) combos = combos.flatMap((c) => values.map((v) => ({ ...c, [key]: v })));
  const cells: AblationCellSpec[] = [];
  const dirs = new Set<string>();
  for (const variant of heads) {
    for (const set of combos) {
      const parts = Object.entries(set).map(([k, v]) => `${k}=${v}`);
      const head = variant ?? (spec.variants.length || parts.length === 0 ? spec.preset : undefined);
      const label = [...(head === undefined ? [] : [head]), ...parts].join(', ');
      let dir = cellDirName(label);
      for (let i = 2; dirs.has(dir); i++) dir = `${cellDirName(label)}-${i}`;
      dirs.add(dir);
      cells.push({ label, dir, ...(variant !== undefined ? { variant } : {}), set });
    }
  }
  return cells;
}

/** The `--set` list of one cell: the spec's overrides, then the cell's grid values. */
export function cellSets(spec: Pick<AblationSpec, 'sets'>, cell: AblationCellSpec): string[] {
  return [...spec.sets, ...Object.entries(cell.set).map(([k, v]) => `${k}=${v}`)];
}

/** The validated config of one run: exactly what `rlvr train` builds from the same flags. */
export function ablationRunConfig(spec: AblationSpec, cell: AblationCellSpec, seed: number): RunConfig {
  const config = configFromCli({ preset: spec.preset, variant: cell.variant, sets: cellSets(spec, cell) });
  return mergeConfig(mergeConfig(config, { steps: spec.steps }), { seed });
}

/**
 * What "solved" means when the spec does not say: with a curriculum, held-out pass@1 reaching
 * its target at the final level; without, held-out pass@1 ≥ 0.9; nothing without evaluations.
 */
export function defaultSolvedRule(config: RunConfig): PresetSolvedRule | null {
  if (config.evalEvery <= 0) return null;
  if (config.curriculum !== 'off') {
    return { metric: 'eval/pass@1_greedy', target: config.curriculumTarget, level: curriculumLevels(config)[1] };
  }
  return { metric: 'eval/pass@1_greedy', target: 0.9 };
}

/** Metrics compared by default: the level first with a curriculum, then held-out pass@1, reward, entropy. */
export function defaultAblationMetrics(config: RunConfig): string[] {
  return [
    ...(config.curriculum !== 'off' ? ['level'] : []),
    ...(config.evalEvery > 0 ? ['eval/pass@1_greedy'] : []),
    'reward',
    'entropy',
  ];
}

export interface AblationSpecOptions {
  variants?: readonly string[];
  grid?: readonly (readonly [string, readonly string[]])[];
  seeds?: readonly number[];
  steps?: number;
  sets?: readonly string[];
  solved?: PresetSolvedRule | null;
  metrics?: readonly string[];
  init?: string | null;
}

/**
 * The spec of an ablation on a preset: what is given, else the preset's own `ablation` (its
 * variants or grid, seeds, steps, solved rule and metrics) and its `init`, else defaults. Given
 * variants or a grid replace the preset's cells. Every run's config is validated here, so a typo in a knob or
 * a value fails before anything runs.
 */
export function ablationSpec(preset: string, options: AblationSpecOptions = {}): AblationSpec {
  const p = getPreset(preset);
  const a = p.ablation;
  const ownCells = options.variants === undefined && options.grid === undefined;
  const variants = [...(ownCells ? (a?.variants ?? []) : (options.variants ?? []))];
  const grid = ownCells
    ? Object.entries(a?.grid ?? {}).map(
        ([k, vs]) => [k, vs.map((v) => formatValue(v as KnobValue))] as [string, string[]],
      )
    : (options.grid ?? []).map(([k, vs]) => [k, [...vs]] as [string, string[]]);
  if (variants.length === 0 && grid.length === 0) {
    throw new ConfigError(
      'ablation',
      `preset ${preset} declares no ablation: give --grid knob=a,b or --variant LABEL${p.variants?.length ? ` (its variants: ${p.variants.map((v) => JSON.stringify(v.label)).join(', ')})` : ''}`,
    );
  }
  checkPerRunKnobs(grid, options.sets ?? []);
  const seeds = [...(options.seeds ?? Array.from({ length: a?.seeds ?? 4 }, (_, i) => i))];
  checkSize(variants.length, grid, seeds.length);
  const base = configFromCli({ preset, sets: options.sets ?? [] });
  const steps = options.steps ?? a?.steps ?? (base.steps > 0 ? base.steps : 0);
  if (!Number.isInteger(steps) || steps < 1)
    throw new ConfigError(
      'steps',
      `an ablation needs a positive number of steps per run; preset ${preset} sets none, so give --steps`,
    );
  const spec: AblationSpec = {
    preset,
    variants,
    grid,
    seeds,
    steps,
    sets: [...(options.sets ?? [])],
    solved: options.solved !== undefined ? options.solved : (a?.solved ?? defaultSolvedRule(base)),
    metrics: [...(options.metrics ?? a?.metrics ?? defaultAblationMetrics(base))],
    init: options.init !== undefined ? options.init : (p.init ?? null),
  };
  // Every cell's config is valid, and no two cells run the same one (0.001 and 1e-3, a variant twice).
  const byConfig = new Map<string, AblationCellSpec>();
  for (const cell of ablationCells(spec)) {
    let config: RunConfig;
    try {
      config = ablationRunConfig(spec, cell, seeds[0]);
    } catch (e) {
      if (e instanceof ConfigError) throw new ConfigError(e.knob, `cell "${shortText(cell.label)}": ${e.message}`);
      throw e;
    }
    const key = JSON.stringify(config);
    const twin = byConfig.get(key);
    if (twin) {
      const sameVariant = twin.variant === cell.variant;
      const fix =
        twin.label === cell.label ? 'give each once' : sameVariant ? 'give each value once' : 'drop one of them';
      throw new ConfigError(
        sameVariant ? 'grid' : 'variant',
        `cells "${shortText(twin.label)}" and "${shortText(cell.label)}" run the same config: ${fix}`,
      );
    }
    byConfig.set(key, cell);
  }
  return spec;
}

/**
 * The cells that put your estimator beside a preset's (rlvr sweep --estimator-file, the page's
 * "vs. your estimator"): estimator ∈ {the preset's (GRPO when it is custom already), custom};
 * undefined when the preset's own ablation already compares estimators (its cells stand).
 */
export function versusCustomGrid(preset: string): [string, string[]][] | undefined {
  if (getPreset(preset).ablation?.grid?.estimator) return undefined;
  const own = presetConfig(preset).estimator;
  return [['estimator', [own === 'custom' ? 'grpo' : own, 'custom']]];
}

/**
 * The sweep gives every run its seed (--seeds) and its steps (--steps), after the cell's own
 * values: a grid or --set over either would be silently overridden, so it is refused.
 */
function checkPerRunKnobs(grid: readonly (readonly [string, readonly string[]])[], sets: readonly string[]): void {
  const why = (key: string, example: string): string | null =>
    key === 'seed'
      ? `the sweep runs every cell once per seed: give them with --seeds (e.g. --seeds ${example})`
      : key === 'steps'
        ? 'every cell runs the same number of steps: give it with --steps (to compare budgets, read the curves of the longer runs at the shorter budget)'
        : null;
  for (const [key, values] of grid) {
    const w = why(key, values.join(','));
    if (w) throw new ConfigError(key, `--grid ${key}: ${w}`);
  }
  for (const [key, value] of Object.entries(parseSetFlags(sets))) {
    const w = why(key, value);
    if (w) throw new ConfigError(key, `--set ${key}: ${w}`);
  }
}

/** Refuses a sweep past MAX_ABLATION_CELLS cells or MAX_ABLATION_RUNS runs, before any cell is built. */
function checkSize(variants: number, grid: readonly (readonly [string, readonly string[]])[], seeds: number): void {
  const heads = variants > 0 ? variants + 1 : 1;
  const cells = grid.reduce((n, [, values]) => n * values.length, heads);
  if (cells > MAX_ABLATION_CELLS) {
    const factors = [
      ...(heads > 1 ? [`${heads} (the preset and its variants)`] : []),
      ...grid.map(([k, vs]) => `${shortText(k)} ${count(vs.length)}`),
    ];
    throw new ConfigError(
      'grid',
      `--grid: ${count(cells)} cells (${factors.join(' × ')}); a sweep has at most ${count(MAX_ABLATION_CELLS)}: give fewer values`,
    );
  }
  if (cells * seeds > MAX_ABLATION_RUNS) {
    throw new ConfigError(
      'seeds',
      `${count(cells)} cells × ${count(seeds)} seeds = ${count(cells * seeds)} runs; a sweep has at most ${count(MAX_ABLATION_RUNS)}: give fewer seeds or cells`,
    );
  }
}
