// Finished run folders on disk → an ablation summary (summary.json, summary.md). Shared by
// `rlvr sweep` (over its own output) and `rlvr report` (over folders from anywhere), so the same
// folders give the same summary whichever command wrote it.
//
// A run folder is any folder holding config.json and metrics.jsonl (what `rlvr train` writes).
// Runs are grouped into cells by the cell.json beside them (`train --cell`, set by sweep and by
// the --emit-jobs commands) or, without one, by how their configs differ. An ablation.json at
// the top of a given folder (written by sweep and --emit-jobs) gives the cells' order, what they
// set, and the solved rule and metrics.

import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CliError } from '../core/flags';
import { CELL_FILE, type CellFile } from './train-commands';
import {
  configEntries, defaultAblationMetrics, defaultSolvedRule, formatValue, getPreset, PRESET_NAMES,
  type AblationCellSpec, type AblationSpec, type KnobValue, type PresetSolvedRule, type RunConfig,
} from '../config';
import { summarizeAblation, type AblationCell, type AblationStats, type SeedRun } from '../rl/ablation-stats';
import { seedRunFromMetricsJsonl } from '../rl/ablation-runs';
import { ablationMarkdown } from '../rl/ablation-report';

export const ABLATION_FILE = 'ablation.json';

/** ablation.json: the spec of a sweep and its cells, written before any run starts. */
export interface AblationFile extends AblationSpec {
  format: 'rlvr-ablation';
  version: 1;
  cells: AblationCellSpec[];
}

export function ablationFile(spec: AblationSpec, cells: AblationCellSpec[]): AblationFile {
  return { format: 'rlvr-ablation', version: 1, ...spec, cells };
}

/** summary.json: the statistics and what they were computed over. */
export interface AblationSummaryFile extends AblationStats {
  format: 'rlvr-ablation-summary';
  version: 1;
  title: string;
  preset?: string;
  question?: string;
  /** The seeds and step budget asked for (from ablation.json), when known. */
  seeds?: number[];
  steps?: number;
}

interface RunFolder {
  /** The run's id in the summary: its path below the folder it was found under. */
  id: string;
  config: RunConfig;
  cell?: CellFile;
  run: SeedRun;
}

/** Folders holding config.json and metrics.jsonl below `root` (not descending into a run, dot folders or node_modules). */
export function findRunFolders(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (existsSync(join(dir, 'config.json')) && existsSync(join(dir, 'metrics.jsonl'))) {
      out.push(dir);
      return;
    }
    for (const name of readdirSync(dir).sort()) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
    }
  };
  walk(root);
  return out;
}

function readJson<T>(path: string): T {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (e) {
    throw new CliError(`${path}: ${(e as Error).message}`);
  }
}

function readRunFolder(dir: string, id: string): RunFolder {
  const config = readJson<RunConfig>(join(dir, 'config.json'));
  const cellPath = join(dir, CELL_FILE);
  const cell = existsSync(cellPath) ? readJson<CellFile>(cellPath) : undefined;
  let run: SeedRun;
  try {
    run = seedRunFromMetricsJsonl(config.seed, readFileSync(join(dir, 'metrics.jsonl'), 'utf8'), id);
  } catch (e) {
    throw new CliError(`${dir}: ${(e as Error).message}`);
  }
  return { id, config, ...(cell ? { cell } : {}), run };
}

/** Labels for runs without a cell.json: the knobs (other than seed and steps) whose values differ among them. */
function configDifferenceLabels(runs: readonly RunFolder[]): { labels: string[]; sets: Record<string, string>[] } {
  const keys = new Set<string>();
  const entries = runs.map((r) => configEntries(r.config) as Record<string, KnobValue | undefined>);
  for (const e of entries) for (const k of Object.keys(e)) keys.add(k);
  const differing = [...keys].filter((k) => k !== 'seed' && k !== 'steps' && new Set(entries.map((e) => JSON.stringify(e[k]))).size > 1).sort();
  const sets = entries.map((e) => Object.fromEntries(differing.map((k) => [k, e[k] === undefined ? '–' : formatValue(e[k]!)])));
  const labels = sets.map((s) => Object.entries(s).map(([k, v]) => `${k}=${v}`).join(', ') || 'all runs');
  return { labels, sets };
}

export interface SummaryOverrides {
  solved?: PresetSolvedRule | null;
  metrics?: readonly string[];
}

export interface FolderSummary {
  summary: AblationSummaryFile;
  markdown: string;
  /** Things a person should know (duplicate seeds, runs that stopped early). */
  warnings: string[];
  runs: number;
}

const plainCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The summary of every run folder below `roots`. */
export function summarizeRunFolders(roots: readonly string[], overrides: SummaryOverrides = {}): FolderSummary {
  const warnings: string[] = [];
  const folders: RunFolder[] = [];
  let spec: AblationFile | undefined;
  for (const root of roots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError(`${root}: not a folder`);
    const specPath = join(root, ABLATION_FILE);
    if (existsSync(specPath)) {
      const found = readJson<AblationFile>(specPath);
      if (found.format !== 'rlvr-ablation') throw new CliError(`${specPath}: not an ablation spec written by rlvr sweep`);
      if (spec) warnings.push(`${specPath}: a second ablation.json; the cells' order and the solved rule come from the first`);
      else spec = found;
    }
    for (const dir of findRunFolders(root)) {
      const rel = relative(root, dir).split(sep).join('/') || '.';
      folders.push(readRunFolder(dir, roots.length > 1 ? `${root.replace(/\/+$/, '')}/${rel}` : rel));
    }
  }
  if (folders.length === 0) throw new CliError(`no run folders (config.json + metrics.jsonl) below ${roots.join(', ')}`);

  // Cells: by cell.json label, else by config difference among the runs without one.
  const loose = folders.filter((f) => !f.cell);
  const diff = configDifferenceLabels(loose);
  const labelOf = new Map<RunFolder, string>();
  const looseSet = new Map<string, Record<string, string>>();
  folders.forEach((f) => {
    if (f.cell) labelOf.set(f, f.cell.cell);
  });
  loose.forEach((f, i) => {
    labelOf.set(f, diff.labels[i]);
    looseSet.set(diff.labels[i], diff.sets[i]);
  });
  const specOrder = new Map((spec?.cells ?? []).map((c, i) => [c.label, i]));
  const labels = [...new Set(folders.map((f) => labelOf.get(f)!))].sort((a, b) => {
    const ia = specOrder.get(a) ?? Infinity;
    const ib = specOrder.get(b) ?? Infinity;
    return ia !== ib ? ia - ib : plainCompare(a, b);
  });
  const cells: AblationCell[] = labels.map((label) => {
    const members = folders.filter((f) => labelOf.get(f) === label).sort((a, b) => a.run.seed - b.run.seed || plainCompare(a.id, b.id));
    const seen = new Set<number>();
    for (const m of members) {
      if (seen.has(m.run.seed)) warnings.push(`cell "${label}" has seed ${m.run.seed} more than once (${m.id}): repeated seeds are not independent samples`);
      seen.add(m.run.seed);
      if (spec && m.run.lastStep < spec.steps) warnings.push(`${m.id}: stopped at step ${m.run.lastStep} of ${spec.steps} (counted as unsolved from then on)`);
    }
    const specCell = spec?.cells.find((c) => c.label === label);
    const variant = specCell?.variant ?? members.find((m) => m.cell?.variant)?.cell?.variant;
    const set = specCell ? specCell.set : looseSet.get(label);
    return {
      label,
      runs: members.map((m) => m.run),
      ...(set && Object.keys(set).length ? { set } : {}),
      ...(variant !== undefined ? { variant } : {}),
    };
  });

  // The solved rule and metrics: given, else the spec's, else the preset's ablation, else defaults.
  const presetName = spec?.preset ?? folders.find((f) => f.cell?.preset)?.cell?.preset;
  const preset = presetName !== undefined && PRESET_NAMES.includes(presetName) ? getPreset(presetName) : undefined;
  const first = folders[0].config;
  const solved = overrides.solved !== undefined ? overrides.solved : spec ? spec.solved : preset?.ablation?.solved ?? defaultSolvedRule(first);
  const recorded = new Set(folders.flatMap((f) => Object.keys(f.run.series)));
  const wanted = overrides.metrics ?? spec?.metrics ?? preset?.ablation?.metrics ?? defaultAblationMetrics(first);
  const metrics = wanted.filter((m) => recorded.has(m));
  for (const m of wanted) if (!recorded.has(m)) warnings.push(`no run recorded ${m}: left out`);
  if (solved && !recorded.has(solved.metric)) warnings.push(`no run recorded ${solved.metric}, so none can be solved (is evalEvery 0?)`);

  const stats = summarizeAblation(cells, { metrics, solved });
  const seeds = spec ? [...spec.seeds] : undefined;
  const title = `Ablation: ${presetName ?? `${folders.length} runs`}`;
  const question = preset?.ablation?.question;
  const summary: AblationSummaryFile = {
    format: 'rlvr-ablation-summary', version: 1, title,
    ...(presetName !== undefined ? { preset: presetName } : {}),
    ...(question ? { question } : {}),
    ...(seeds ? { seeds, steps: spec!.steps } : {}),
    ...stats,
  };
  const lines = [
    ...(question ? [`**Question.** ${question}`, ''] : []),
    `${cells.length} cells × ${seeds ? `seeds ${seeds.join(', ')}` : 'the seeds found'}${spec ? ` × ${spec.steps} steps` : ''}: ${folders.length} runs.` +
      `${spec?.sets.length ? ` Every cell also sets ${spec.sets.join(', ')}.` : ''}`,
    ...(preset?.ablation ? ['', `**What the literature claims.** ${preset.ablation.literature}`, '', `**How to read it.** ${preset.ablation.reading}`] : []),
  ];
  return { summary, markdown: ablationMarkdown(stats, { title, lines }), warnings, runs: folders.length };
}

/** Writes summary.json and summary.md into `dir`. */
export function writeSummary(dir: string, s: FolderSummary): void {
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(s.summary, null, 1) + '\n');
  writeFileSync(join(dir, 'summary.md'), s.markdown);
}

/** "eval/pass@1_greedy>=0.9" → a solved rule; `level` from --solved-level. */
export function parseSolvedFlag(raw: string | undefined, level: string | undefined): PresetSolvedRule | null | undefined {
  if (raw === undefined) {
    if (level !== undefined) throw new CliError('--solved-level needs --solved METRIC>=TARGET');
    return undefined;
  }
  if (raw === 'none') return null;
  const m = /^\s*([^\s>=]+)\s*>=\s*([-+0-9.eE]+)\s*$/.exec(raw);
  if (!m || !Number.isFinite(Number(m[2]))) throw new CliError(`--solved expects METRIC>=TARGET (e.g. eval/pass@1_greedy>=0.9) or none, got "${raw}"`);
  const rule: PresetSolvedRule = { metric: m[1], target: Number(m[2]) };
  if (level === undefined) return rule;
  const l = Number(level);
  if (!Number.isInteger(l)) throw new CliError(`--solved-level must be an integer, got "${level}"`);
  return { ...rule, level: l };
}
