// Finished run folders on disk → an ablation summary (summary.json, summary.md). Shared by
// `rlvr sweep` (over its own output) and `rlvr report` (over folders from anywhere), so the same
// folders give the same summary whichever command wrote it.
//
// A run folder is any folder holding config.json and metrics.jsonl (what `rlvr train` writes).
// Runs are grouped into cells by the cell.json beside them (`train --cell`, set by sweep and by
// the --emit-jobs commands) or, without one, by how their configs differ. An ablation.json at
// the top of a given folder (written by sweep and --emit-jobs) gives the cells' order, what they
// set, and the solved rule and metrics.

import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { CliError } from '../core/flags';
import { configEntries, formatValue, type KnobValue } from '../config';
import { getPreset, PRESET_NAMES, type Preset, type PresetSolvedRule } from '../lessons';
import {
  defaultAblationMetrics,
  defaultSolvedRule,
  summarizeAblation,
  type AblationCell,
  type AblationCellSpec,
  type AblationSpec,
  type AblationStats,
  type SeedRun,
} from '../ablation';
import { readMetricsJsonl, type MetricsNotes } from '../ablation/seed-runs';
import { ablationMarkdown } from '../ablation/report';
import {
  ABLATION_FILE,
  CELL_FILE,
  findRunFolders,
  parseAblationFile,
  parseCellFile,
  parseRunConfigFile,
  readJsonFile,
  readTextFile,
  type AblationFile,
  type CellFile,
} from './ablation-side-files';
import type { RunConfig } from '../config';

export { ABLATION_FILE, findRunFolders, type AblationFile };

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
  /** Where it is, and the folder given that it was found under. */
  dir?: string;
  root?: string;
  config: RunConfig;
  cell?: CellFile;
  run: SeedRun;
}

/** One run folder, every file checked; what was left out of its metrics goes to `warnings`. */
function readRunFolder(dir: string, id: string, warnings: string[]): RunFolder {
  const config = parseRunConfigFile(readJsonFile(join(dir, 'config.json')), join(dir, 'config.json'));
  const cellPath = join(dir, CELL_FILE);
  const cell = existsSync(cellPath) ? parseCellFile(readJsonFile(cellPath), cellPath) : undefined;
  const metricsPath = join(dir, 'metrics.jsonl');
  const text = readTextFile(metricsPath);
  let read: { run: SeedRun; notes: MetricsNotes };
  try {
    read = readMetricsJsonl(config.seed, text, id);
  } catch (e) {
    throw new CliError(`${metricsPath} ${(e as Error).message}`);
  }
  warnings.push(...metricsWarnings(id, read.notes));
  return { id, config, ...(cell ? { cell } : {}), run: read.run };
}

/** "lr=0.01/seed-1: 2 values of reward are not finite numbers (step 2: Infinity, step 3: null); they are left out". */
function metricsWarnings(id: string, notes: MetricsNotes): string[] {
  const out: string[] = [];
  for (const [step, times] of notes.repeated)
    out.push(`${id}: step ${step} is in metrics.jsonl ${times} times; the last one is used`);
  for (const [metric, bad] of notes.nonFinite) {
    const shown = bad
      .slice(0, 3)
      .map(
        (b) =>
          `step ${b.step}: ${b.raw === undefined ? 'nothing' : typeof b.raw === 'number' ? String(b.raw) : JSON.stringify(b.raw).slice(0, 20)}`,
      );
    const more = bad.length > 3 ? `, … ${bad.length - 3} more` : '';
    out.push(
      `${id}: ${bad.length} value${bad.length === 1 ? ' of ' + metric + ' is' : 's of ' + metric + ' are'} not ${bad.length === 1 ? 'a finite number' : 'finite numbers'} (${shown.join(', ')}${more}); ${bad.length === 1 ? 'it is' : 'they are'} left out`,
    );
  }
  return out;
}

/** The log a job array's task wrote for run `cellIndex`, `seedIndex` of a sweep (rlvr sweep --slurm): DIR/logs/job-<i>.log, i from 1 in job order. */
export function jobLogPath(root: string, spec: AblationFile, cellIndex: number, seedIndex: number): string {
  return join(root, JOB_LOG_DIR, `job-${cellIndex * spec.seeds.length + seedIndex + 1}.log`);
}

export const JOB_LOG_DIR = 'logs';

/** "; its job's log DIR/logs/job-3.log ends: …" when a job array left one for this run, else "". */
function jobLogNote(root: string | undefined, spec: AblationFile, dir: string | undefined): string {
  if (root === undefined || dir === undefined) return '';
  for (const [ci, cell] of spec.cells.entries()) {
    for (const [si, seed] of spec.seeds.entries()) {
      if (resolve(join(root, cell.dir, `seed-${seed}`)) !== resolve(dir)) continue;
      const log = jobLogPath(root, spec, ci, si);
      if (!existsSync(log)) return '';
      let tail: string;
      try {
        tail = readFileSync(log, 'utf8')
          .split(/[\r\n]+/)
          .map((l) => l.trim())
          .filter(Boolean)
          .slice(-3)
          .join(' ↵ ');
      } catch (e) {
        tail = `(cannot read it: ${(e as Error).message})`;
      }
      return `; its job's log ${log} ends: ${tail.length > 400 ? `…${tail.slice(-400)}` : tail || '(empty)'}`;
    }
  }
  return '';
}

/** Runs of the sweep's ablation.json with no run folder: a job that failed before its first step, or never ran. */
function missingRunWarnings(root: string, spec: AblationFile, folders: readonly RunFolder[]): string[] {
  const found = new Set(folders.map((f) => (f.dir === undefined ? '' : resolve(f.dir))));
  const out: string[] = [];
  for (const cell of spec.cells) {
    for (const seed of spec.seeds) {
      const dir = join(root, cell.dir, `seed-${seed}`);
      if (found.has(resolve(dir))) continue;
      out.push(
        `cell "${cell.label}" seed ${seed}: no run in ${dir} (its job failed before step 1, or has not run)${jobLogNote(root, spec, dir)}`,
      );
    }
  }
  return out;
}

/** Labels for runs without a cell.json: the knobs (other than seed and steps) whose values differ among them. */
function configDifferenceLabels(runs: readonly RunFolder[]): { labels: string[]; sets: Record<string, string>[] } {
  const keys = new Set<string>();
  const entries = runs.map((r) => configEntries(r.config) as Record<string, KnobValue | undefined>);
  for (const e of entries) for (const k of Object.keys(e)) keys.add(k);
  const differing = [...keys]
    .filter((k) => k !== 'seed' && k !== 'steps' && new Set(entries.map((e) => JSON.stringify(e[k]))).size > 1)
    .sort();
  const sets = entries.map((e) =>
    Object.fromEntries(differing.map((k) => [k, e[k] === undefined ? '–' : formatValue(e[k]!)])),
  );
  const labels = sets.map(
    (s) =>
      Object.entries(s)
        .map(([k, v]) => `${k}=${v}`)
        .join(', ') || 'all runs',
  );
  return { labels, sets };
}

/** Runs of different tasks in one summary: said once, with the counts. */
function mixWarnings(folders: readonly RunFolder[]): string[] {
  const tasks = new Map<string, number>();
  for (const f of folders) tasks.set(f.config.task, (tasks.get(f.config.task) ?? 0) + 1);
  if (tasks.size < 2) return [];
  const counts = [...tasks].map(([t, n]) => `${t}: ${n} run${n === 1 ? '' : 's'}`).join(', ');
  return [`the runs are of different tasks (${counts}): their metrics are not comparable`];
}

/** Runs below a sweep's folder that are not of one of its cells (a run added by hand, a cell since removed). */
function strayWarnings(
  spec: AblationFile,
  folders: readonly RunFolder[],
  labelOf: ReadonlyMap<RunFolder, string>,
): string[] {
  const known = new Set(spec.cells.map((c) => c.label));
  const stray = new Map<string, string[]>();
  for (const f of folders) {
    const label = labelOf.get(f)!;
    if (known.has(label)) continue;
    stray.set(label, [...(stray.get(label) ?? []), f.id]);
  }
  if (stray.size === 0) return [];
  const n = [...stray.values()].reduce((a, ids) => a + ids.length, 0);
  const list = [...stray]
    .map(
      ([label, ids]) =>
        `cell "${label}": ${ids.slice(0, 5).join(', ')}${ids.length > 5 ? `, … ${ids.length - 5} more` : ''}`,
    )
    .join('; ');
  return [`${n} run${n === 1 ? ' is' : 's are'} not of a cell of ${ABLATION_FILE} (${list})`];
}

export interface SummaryOverrides {
  solved?: PresetSolvedRule | null;
  metrics?: readonly string[];
  /** Which pairs to compare (default: every pair up to 4 cells, else each with the first). */
  compare?: 'all-pairs' | 'baseline';
}

export interface FolderSummary {
  summary: AblationSummaryFile;
  markdown: string;
  /** Things a person should know (duplicate seeds, runs that stopped early). */
  warnings: string[];
  runs: number;
  /** The runs as the statistics read them, one cell per method or combination (the recorded curves' input). */
  cells: AblationCell[];
}

const plainCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The summary of every run folder below `roots`. */
export function summarizeRunFolders(roots: readonly string[], overrides: SummaryOverrides = {}): FolderSummary {
  const warnings: string[] = [];
  const { folders, spec, specRoot } = collectRunFolders(roots, warnings);
  const missing = spec && specRoot !== undefined ? missingRunWarnings(specRoot, spec, folders) : [];
  warnings.push(...missing);
  if (folders.length === 0) {
    throw new CliError(
      `no run folders (config.json + metrics.jsonl) below ${roots.join(', ')}${missing.length ? ` (${missing.length} runs of its ${ABLATION_FILE} have none; the first: ${missing[0]})` : ''}`,
    );
  }
  warnings.push(...mixWarnings(folders));
  const cells = groupCells(folders, spec, warnings);
  const { presetName, preset, solved, metrics } = solvedAndMetrics(folders, spec, overrides, warnings);

  const stats = summarizeAblation(cells, {
    metrics,
    solved,
    ...(overrides.compare ? { compare: overrides.compare } : {}),
  });
  const seeds = spec ? [...spec.seeds] : undefined;
  const title = `Ablation: ${presetName ?? `${folders.length} runs`}`;
  const question = preset?.ablation?.question;
  const summary: AblationSummaryFile = {
    format: 'rlvr-ablation-summary',
    version: 1,
    title,
    ...(presetName !== undefined ? { preset: presetName } : {}),
    ...(question ? { question } : {}),
    ...(seeds ? { seeds, steps: spec!.steps } : {}),
    ...stats,
  };
  const lines = [
    ...(question ? [`**Question.** ${question}`, ''] : []),
    `${cells.length} cells × ${seeds ? `seeds ${seeds.join(', ')}` : 'the seeds found'}${spec ? ` × ${spec.steps} steps` : ''}: ${folders.length} runs.` +
      `${spec?.sets.length ? ` Every cell also sets ${spec.sets.join(', ')}.` : ''}`,
    ...(preset?.ablation
      ? [
          '',
          `**What the literature claims.** ${preset.ablation.literature}`,
          '',
          `**How to read it.** ${preset.ablation.reading}`,
        ]
      : []),
  ];
  return { summary, markdown: ablationMarkdown(stats, { title, lines }), warnings, runs: folders.length, cells };
}

/** Every run folder below `roots`, each read once, and the first ablation.json among them (with its folder). */
function collectRunFolders(
  roots: readonly string[],
  warnings: string[],
): { folders: RunFolder[]; spec?: AblationFile; specRoot?: string } {
  const folders: RunFolder[] = [];
  let spec: AblationFile | undefined;
  let specRoot: string | undefined;
  // A folder given twice, or inside another one given, is read once: a run counts once.
  const realRoots = new Map<string, string>();
  const realRuns = new Map<string, string>();
  for (const root of roots) {
    if (!existsSync(root) || !statSync(root).isDirectory()) throw new CliError(`${root}: not a folder`);
    const realRoot = realpathSync(root);
    if (realRoots.has(realRoot)) {
      warnings.push(`${root} is given twice (as ${realRoots.get(realRoot)}): read once`);
      continue;
    }
    realRoots.set(realRoot, root);
    const specPath = join(root, ABLATION_FILE);
    if (existsSync(specPath)) {
      const found = parseAblationFile(readJsonFile(specPath), specPath);
      if (spec)
        warnings.push(`${specPath}: a second ablation.json; the cells' order and the solved rule come from the first`);
      else {
        spec = found;
        specRoot = root;
      }
    }
    for (const dir of findRunFolders(root, warnings)) {
      const rel = relative(root, dir).split(sep).join('/') || '.';
      const id = roots.length > 1 ? `${root.replace(/\/+$/, '')}/${rel}` : rel;
      const real = realpathSync(dir);
      const first = realRuns.get(real);
      if (first !== undefined) {
        warnings.push(`${id}: the same run folder as ${first}; counted once`);
        continue;
      }
      realRuns.set(real, id);
      folders.push({ ...readRunFolder(dir, id, warnings), dir, root });
    }
  }
  return { folders, spec, specRoot };
}

/**
 * The runs grouped into cells, in ablation.json's order (then by label), each by seed; runs of
 * no cell of the spec, repeated seeds and unfinished runs go to `warnings`.
 */
function groupCells(folders: readonly RunFolder[], spec: AblationFile | undefined, warnings: string[]): AblationCell[] {
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
  if (spec) warnings.push(...strayWarnings(spec, folders, labelOf));
  const specOrder = new Map((spec?.cells ?? []).map((c, i) => [c.label, i]));
  const labels = [...new Set(folders.map((f) => labelOf.get(f)!))].sort((a, b) => {
    const ia = specOrder.get(a) ?? Infinity;
    const ib = specOrder.get(b) ?? Infinity;
    return ia !== ib ? ia - ib : plainCompare(a, b);
  });
  const cells: AblationCell[] = labels.map((label) => {
    const members = folders
      .filter((f) => labelOf.get(f) === label)
      .sort((a, b) => a.run.seed - b.run.seed || plainCompare(a.id, b.id));
    const seen = new Set<number>();
    for (const m of members) {
      if (seen.has(m.run.seed))
        warnings.push(
          `cell "${label}" has seed ${m.run.seed} more than once (${m.id}): repeated seeds are not independent samples`,
        );
      seen.add(m.run.seed);
      if (spec && m.run.lastStep < spec.steps) {
        warnings.push(
          `${m.id}: unfinished, stopped at step ${m.run.lastStep} of ${spec.steps} (counted as unsolved from then on; ` +
            `continue it: rlvr train --resume ${m.dir} --steps ${spec.steps})${jobLogNote(m.root, spec, m.dir)}`,
        );
      }
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
  return cells;
}

/** The solved rule and metrics: given, else the spec's, else the preset's ablation, else defaults. */
function solvedAndMetrics(
  folders: readonly RunFolder[],
  spec: AblationFile | undefined,
  overrides: SummaryOverrides,
  warnings: string[],
): { presetName?: string; preset?: Preset; solved: PresetSolvedRule | null; metrics: string[] } {
  const presetName = spec?.preset ?? folders.find((f) => f.cell?.preset)?.cell?.preset;
  const preset = presetName !== undefined && PRESET_NAMES.includes(presetName) ? getPreset(presetName) : undefined;
  const first = folders[0].config;
  const solved =
    overrides.solved !== undefined
      ? overrides.solved
      : spec
        ? spec.solved
        : (preset?.ablation?.solved ?? defaultSolvedRule(first));
  const recorded = new Set(folders.flatMap((f) => Object.keys(f.run.series)));
  const wanted = overrides.metrics ?? spec?.metrics ?? preset?.ablation?.metrics ?? defaultAblationMetrics(first);
  const metrics = wanted.filter((m) => recorded.has(m));
  for (const m of wanted) if (!recorded.has(m)) warnings.push(`no run recorded ${m}: left out`);
  if (solved && !recorded.has(solved.metric))
    warnings.push(`no run recorded ${solved.metric}, so none can be solved (is evalEvery 0?)`);
  return { presetName, preset, solved, metrics };
}

/** Writes summary.json and summary.md into `dir`. */
export function writeSummary(dir: string, s: FolderSummary): void {
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(s.summary, null, 1) + '\n');
  writeFileSync(join(dir, 'summary.md'), s.markdown);
}

/** "eval/pass@1_greedy>=0.9" → a solved rule; `level` from --solved-level. */
export function parseSolvedFlag(
  raw: string | undefined,
  level: string | undefined,
): PresetSolvedRule | null | undefined {
  if (raw === undefined) {
    if (level !== undefined) throw new CliError('--solved-level needs --solved METRIC>=TARGET');
    return undefined;
  }
  if (raw === 'none') return null;
  const m = /^\s*([^\s>=]+)\s*>=\s*([-+0-9.eE]+)\s*$/.exec(raw);
  if (!m || !Number.isFinite(Number(m[2])))
    throw new CliError(`--solved expects METRIC>=TARGET (e.g. eval/pass@1_greedy>=0.9) or none, got "${raw}"`);
  const rule: PresetSolvedRule = { metric: m[1], target: Number(m[2]) };
  if (level === undefined) return rule;
  const l = Number(level);
  if (!Number.isInteger(l)) throw new CliError(`--solved-level must be an integer, got "${level}"`);
  return { ...rule, level: l };
}
