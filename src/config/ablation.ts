// An ablation spec: a preset, the cells to compare (the preset and some of its variants, and/or a
// grid of knob values) and the seeds. Pure, so `rlvr sweep` and the page build the same cells,
// with the same labels and configs, from the same spec.

import { ConfigError, curriculumLevels, mergeConfig, type RunConfig } from './config';
import { configFromCli } from './cli';
import { formatValue, type KnobValue } from './knobs';
import { getPreset, presetConfig, type PresetSolvedRule } from './presets';

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

/** "0-3,7" → [0, 1, 2, 3, 7]; duplicates dropped, order kept. */
export function parseSeedList(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (!m) throw new ConfigError('seeds', `seeds must be a list like 0-3 or 0,2,5; got ${JSON.stringify(text)}`);
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    if (b < a) throw new ConfigError('seeds', `a seed range must go up (${part})`);
    if (b - a > 10000) throw new ConfigError('seeds', `a seed range of more than 10,000 seeds is surely a typo (${part})`);
    for (let s = a; s <= b; s++) if (!out.includes(s)) out.push(s);
  }
  if (out.length === 0) throw new ConfigError('seeds', `give at least one seed; got ${JSON.stringify(text)}`);
  return out;
}

/** `["lr=0.003,0.01", "epsHigh=0.2,0.28"]` → [["lr", ["0.003", "0.01"]], …]. */
export function parseGridFlags(flags: readonly string[]): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const f of flags) {
    const eq = f.indexOf('=');
    const key = eq > 0 ? f.slice(0, eq).trim() : '';
    const values = f.slice(eq + 1).split(',').map((v) => v.trim()).filter(Boolean);
    if (!key || values.length === 0) throw new ConfigError('grid', `--grid expects knob=value,value (e.g. --grid epsHigh=0.2,0.28), got ${JSON.stringify(f)}`);
    if (out.some(([k]) => k === key)) throw new ConfigError('grid', `--grid names ${key} twice`);
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
  return [...(config.curriculum !== 'off' ? ['level'] : []), ...(config.evalEvery > 0 ? ['eval/pass@1_greedy'] : []), 'reward', 'entropy'];
}

export interface AblationSpecOptions {
  variants?: readonly string[];
  grid?: readonly (readonly [string, readonly string[]])[];
  seeds?: readonly number[];
  steps?: number;
  sets?: readonly string[];
  solved?: PresetSolvedRule | null;
  metrics?: readonly string[];
}

/**
 * The spec of an ablation on a preset: what is given, else the preset's own `ablation` (its
 * variants or grid, seeds, steps, solved rule and metrics), else defaults. Given variants or a
 * grid replace the preset's cells. Every run's config is validated here, so a typo in a knob or
 * a value fails before anything runs.
 */
export function ablationSpec(preset: string, options: AblationSpecOptions = {}): AblationSpec {
  const p = getPreset(preset);
  const a = p.ablation;
  const ownCells = options.variants === undefined && options.grid === undefined;
  const variants = [...(ownCells ? a?.variants ?? [] : options.variants ?? [])];
  const grid = ownCells
    ? Object.entries(a?.grid ?? {}).map(([k, vs]) => [k, vs.map((v) => formatValue(v as KnobValue))] as [string, string[]])
    : (options.grid ?? []).map(([k, vs]) => [k, [...vs]] as [string, string[]]);
  if (variants.length === 0 && grid.length === 0) {
    throw new ConfigError('ablation', `preset ${preset} declares no ablation: give --grid knob=a,b or --variant LABEL${p.variants?.length ? ` (its variants: ${p.variants.map((v) => JSON.stringify(v.label)).join(', ')})` : ''}`);
  }
  const seeds = [...(options.seeds ?? Array.from({ length: a?.seeds ?? 4 }, (_, i) => i))];
  const base = configFromCli({ preset, sets: options.sets ?? [] });
  const steps = options.steps ?? a?.steps ?? (base.steps > 0 ? base.steps : 0);
  if (!Number.isInteger(steps) || steps < 1) throw new ConfigError('steps', `an ablation needs a positive number of steps per run; preset ${preset} sets none, so give --steps`);
  const spec: AblationSpec = {
    preset, variants, grid, seeds, steps, sets: [...(options.sets ?? [])],
    solved: options.solved !== undefined ? options.solved : a?.solved ?? defaultSolvedRule(base),
    metrics: [...(options.metrics ?? a?.metrics ?? defaultAblationMetrics(base))],
  };
  for (const cell of ablationCells(spec)) {
    try {
      ablationRunConfig(spec, cell, seeds[0]);
    } catch (e) {
      if (e instanceof ConfigError) throw new ConfigError(e.knob, `cell "${cell.label}": ${e.message}`);
      throw e;
    }
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
