// The files `rlvr report` reads besides metrics.jsonl, read as a whole before anything uses them:
// ablation.json (rlvr sweep's spec), cell.json (a run's cell, `train --cell`), config.json (a
// run's config), and the walk that finds run folders. Each file is any bytes a user or a crash
// may have left: what is not what rlvr wrote is a CliError naming the file and the field; a
// link that loops or leads nowhere is skipped with a warning.

import { existsSync, readdirSync, readFileSync, realpathSync, statSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../core/flags';
import { findKnob, showRaw, validateConfig, ConfigError, type RunConfig } from '../config';
import type { AblationCellSpec, AblationSpec } from '../ablation/spec';

export const ABLATION_FILE = 'ablation.json';

/** ablation.json: the spec of a sweep and its cells, written before any run starts. */
export interface AblationFile extends AblationSpec {
  format: 'rlvr-ablation';
  version: 1;
  cells: AblationCellSpec[];
}

/** The file beside config.json naming a run's ablation cell (rlvr sweep, rlvr report). */
export const CELL_FILE = 'cell.json';
export interface CellFile {
  cell: string;
  preset?: string;
  variant?: string;
}

/** "ENOENT: no such file or directory" from a file error (without the path Node appends). */
export function errorReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const message = String(err?.message ?? e)
    .replace(/^[A-Z]+: /, '')
    .replace(/, \w+ '.*'$/, '');
  return err?.code ? `${err.code}: ${message}` : message;
}

/** A text file's content; one that is not a plain file (a folder, a named pipe) or cannot be read is named. */
export function readTextFile(path: string): string {
  try {
    // A named pipe would block the read for ever; a folder cannot be read.
    if (!statSync(path).isFile()) throw new CliError(`${path}: not a file`);
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${path}: cannot read it (${errorReason(e)})`);
  }
}

/** A JSON file's value (readTextFile's errors, or "not JSON"). */
export function readJsonFile(path: string): unknown {
  const text = readTextFile(path);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path}: not JSON (${(e as Error).message})`);
  }
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isStringList = (x: unknown): x is string[] => Array.isArray(x) && x.every((v) => typeof v === 'string');

/** cell.json: {"cell": LABEL, "preset"?: NAME, "variant"?: LABEL}. */
export function parseCellFile(raw: unknown, path: string): CellFile {
  if (!isObject(raw)) throw new CliError(`${path}: must be a JSON object {"cell": LABEL, …}, got ${showRaw(raw)}`);
  if (typeof raw.cell !== 'string' || raw.cell.trim() === '') {
    throw new CliError(`${path}: "cell" must be a non-empty string (the run's cell label), got ${showRaw(raw.cell)}`);
  }
  for (const k of ['preset', 'variant'] as const) {
    if (raw[k] !== undefined && typeof raw[k] !== 'string')
      throw new CliError(`${path}: "${k}" must be a string, got ${showRaw(raw[k])}`);
  }
  return {
    cell: raw.cell,
    ...(raw.preset !== undefined ? { preset: raw.preset as string } : {}),
    ...(raw.variant !== undefined ? { variant: raw.variant as string } : {}),
  };
}

/** ablation.json, every field checked (report reads the cells, seeds, steps, solved rule and metrics). */
export function parseAblationFile(raw: unknown, path: string): AblationFile {
  if (!isObject(raw) || raw.format !== 'rlvr-ablation')
    throw new CliError(`${path}: not an ablation spec written by rlvr sweep (its "format" must be "rlvr-ablation")`);
  const fail = (field: string, what: string): never => {
    throw new CliError(`${path}: "${field}" must be ${what}, got ${showRaw(raw[field])}`);
  };
  const { min, max } = findKnob('seed') as { min: number; max: number };
  if (raw.version !== 1) fail('version', '1 (the version this playground writes)');
  if (typeof raw.preset !== 'string' || raw.preset === '') fail('preset', 'a preset name');
  if (!isStringList(raw.variants)) fail('variants', 'a list of variant labels');
  const grid = raw.grid;
  if (
    !Array.isArray(grid) ||
    !grid.every((g) => Array.isArray(g) && g.length === 2 && typeof g[0] === 'string' && isStringList(g[1]))
  )
    fail('grid', 'a list of [knob, [value, …]]');
  const seeds = raw.seeds;
  if (
    !Array.isArray(seeds) ||
    seeds.length === 0 ||
    !seeds.every((s) => Number.isSafeInteger(s) && s >= min && s <= max)
  )
    fail('seeds', `a list of seeds (integers in [${min}, ${max}])`);
  if (!Number.isSafeInteger(raw.steps) || (raw.steps as number) < 1) fail('steps', 'a whole number of steps ≥ 1');
  if (!isStringList(raw.sets)) fail('sets', 'a list of knob=value');
  const solved = raw.solved;
  const goodSolved =
    solved === null ||
    (isObject(solved) &&
      typeof solved.metric === 'string' &&
      typeof solved.target === 'number' &&
      Number.isFinite(solved.target) &&
      (solved.level === undefined || Number.isSafeInteger(solved.level)));
  if (!goodSolved) fail('solved', 'null or {metric, target, level?} (a metric name, a number, a curriculum level)');
  if (!isStringList(raw.metrics)) fail('metrics', 'a list of metric names');
  const cells = raw.cells;
  const goodCell = (c: unknown) =>
    isObject(c) &&
    typeof c.label === 'string' &&
    typeof c.dir === 'string' &&
    isObject(c.set) &&
    Object.values(c.set).every((v) => typeof v === 'string') &&
    (c.variant === undefined || typeof c.variant === 'string');
  if (!Array.isArray(cells) || !cells.every(goodCell)) fail('cells', 'a list of {label, dir, set}');
  // Files written before runs could start from a checkpoint have no "init": random weights.
  if (raw.init !== undefined && raw.init !== null && typeof raw.init !== 'string')
    fail('init', 'null or the checkpoint every run started from');
  return { ...raw, init: raw.init ?? null } as unknown as AblationFile;
}

/** config.json: a run config, validated as rlvr train wrote it (errors name the file and the knob). */
export function parseRunConfigFile(raw: unknown, path: string): RunConfig {
  try {
    return validateConfig(raw as RunConfig);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`${path}: ${e.message}`);
    throw e;
  }
}

function isRunFolder(dir: string): boolean {
  return existsSync(join(dir, 'config.json')) && existsSync(join(dir, 'metrics.jsonl'));
}

/**
 * Folders holding config.json and metrics.jsonl below `root` (not descending into a run, dot
 * folders or node_modules), each real folder once. Links are followed; one back to a folder
 * being searched (a loop), one to a folder found already, one to nothing and a folder that
 * cannot be listed are skipped, each with a line in `warnings`.
 */
export function findRunFolders(root: string, warnings: string[] = []): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const walk = (dir: string, ancestors: readonly string[]) => {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (e) {
      warnings.push(`skipped ${dir}: ${errorReason(e)}`);
      return;
    }
    if (ancestors.includes(real))
      return void warnings.push(`skipped ${dir}: a link to a folder searched already (a loop)`);
    if (seen.has(real)) return void warnings.push(`skipped ${dir}: a link to a folder found already (counted once)`);
    seen.add(real);
    if (isRunFolder(dir)) return void out.push(dir);
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      return void warnings.push(`skipped ${dir}: cannot list it (${errorReason(e)})`);
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(dir, name);
      let isDir: boolean;
      try {
        isDir = statSync(p).isDirectory();
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        let link = false;
        try {
          link = lstatSync(p).isSymbolicLink();
        } catch {
          // gone meanwhile
        }
        warnings.push(`skipped ${p}: ${link && code === 'ENOENT' ? 'a link to nothing' : errorReason(e)}`);
        continue;
      }
      if (isDir) walk(p, [...ancestors, real]);
    }
  };
  walk(root, []);
  return out;
}
