// The leaderboard of a suite (docs/leaderboard.md): one row per method, one column per task, each
// cell the method's solve rate, median steps to solve and final value, and each row's verdict
// against GRPO in words. Pure: it reads each task's AblationStats (./summary.ts, compared with
// the baseline only, so Holm's adjustment runs over the methods) and writes Markdown.

import { metricName } from '../config/metric-names';
import { BASELINE_LABEL, type SuiteMethod, type SuiteTask } from './methods-suite';
import { formatSteps, formatValue, ruleText, type AblationStats, type CellSummary, type Comparison } from './summary';

export interface LeaderboardTask {
  task: SuiteTask;
  stats: AblationStats;
  seeds: readonly number[];
  steps: number;
  /** Methods that do not apply to the task, with why. */
  skipped: readonly { label: string; why: string }[];
  /** Every run's --set beyond the preset (the task's and the command's). */
  sets: readonly string[];
}

export interface LeaderboardInput {
  suite: string;
  methods: readonly SuiteMethod[];
  tasks: readonly LeaderboardTask[];
  /** The commands that ran it (and re-run it), as typed. */
  commands: readonly string[];
  /** Lines said before the table (e.g. that the budgets were overridden). */
  notes?: readonly string[];
  /** The recorded-curves files written with it (--curves-out), one per task. */
  curves?: readonly string[];
}

function pText(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
}

function cellOf(stats: AblationStats, label: string): CellSummary | undefined {
  return stats.cells.find((c) => c.label === label && c.runs.length > 0);
}

/** The comparison of `label` with GRPO of this kind (and metric, for finals). */
function versusBaseline(
  stats: AblationStats,
  label: string,
  kind: 'solve' | 'final',
  metric?: string,
): Comparison | undefined {
  return stats.comparisons.find(
    (c) =>
      c.kind === kind &&
      (kind === 'solve' || c.metric === metric) &&
      ((c.a === BASELINE_LABEL && c.b === label) || (c.b === BASELINE_LABEL && c.a === label)),
  );
}

/** +1 when the method beats GRPO, −1 when GRPO beats it, 0 when not told apart. */
function direction(c: Comparison | undefined, label: string): -1 | 0 | 1 {
  if (!c) return 0;
  const methodIsA = c.a === label;
  if (c.verdict === 'a-faster' || c.verdict === 'a-higher') return methodIsA ? 1 : -1;
  if (c.verdict === 'b-faster' || c.verdict === 'b-higher') return methodIsA ? -1 : 1;
  return 0;
}

/** The primary metric of a task: the first compared metric the runs recorded. */
function primaryMetric(t: LeaderboardTask): string | undefined {
  return t.stats.metrics[0];
}

/** A table cell: "5/6 solved, median 150 steps; pass@1 0.94", with any difference from GRPO in bold. */
export function leaderboardCell(t: LeaderboardTask, label: string): string {
  const skip = t.skipped.find((s) => s.label === label);
  if (skip) return `not run: ${skip.why}`;
  const cell = cellOf(t.stats, label);
  if (!cell) return 'no runs';
  const parts: string[] = [];
  if (cell.solve) {
    const s = cell.solve;
    parts.push(`${s.solved}/${s.n} solved${s.median !== null ? `, median ${formatSteps(s.median)} steps` : ''}`);
  }
  const m = primaryMetric(t);
  if (m && cell.finals[m]) parts.push(`${metricName(m)} ${formatValue(cell.finals[m].mean)}`);
  let text = parts.join('; ');
  if (label !== BASELINE_LABEL) {
    const solve = versusBaseline(t.stats, label, 'solve');
    const final = m ? versusBaseline(t.stats, label, 'final', m) : undefined;
    const marks: string[] = [];
    const ds = direction(solve, label);
    if (ds !== 0) marks.push(`**${ds > 0 ? 'faster' : 'slower'}** (${pText(solve!.pAdjusted!)})`);
    const df = direction(final, label);
    if (df !== 0) marks.push(`**${df > 0 ? 'higher' : 'lower'}** (${pText(final!.pAdjusted!)})`);
    if (marks.length) text += ` — ${marks.join(', ')}`;
  }
  return text;
}

/** The row's verdict: "faster than GRPO on sorting (p = 0.01 after Holm), no different elsewhere". */
export function leaderboardVerdict(input: Pick<LeaderboardInput, 'tasks'>, label: string): string {
  if (label === BASELINE_LABEL) return 'the baseline';
  const claims: string[] = [];
  const quiet: string[] = [];
  const tooFew: string[] = [];
  const absent: string[] = [];
  for (const t of input.tasks) {
    if (t.skipped.some((s) => s.label === label) || !cellOf(t.stats, label) || !cellOf(t.stats, BASELINE_LABEL)) {
      absent.push(t.task.title);
      continue;
    }
    const m = primaryMetric(t);
    const solve = versusBaseline(t.stats, label, 'solve');
    const final = m ? versusBaseline(t.stats, label, 'final', m) : undefined;
    const here: string[] = [];
    const ds = direction(solve, label);
    if (ds !== 0)
      here.push(
        `${ds > 0 ? 'faster' : 'slower'} than GRPO on ${t.task.title} (${pText(solve!.pAdjusted!)} after Holm)`,
      );
    const df = direction(final, label);
    if (df !== 0)
      here.push(
        `${df > 0 ? 'higher' : 'lower'} final ${metricName(m!)} than GRPO on ${t.task.title} (${pText(final!.pAdjusted!)} after Holm)`,
      );
    // Seeds too few for any p below the level (2 against 2: the smallest p is 0.33) tell nothing either way.
    const cannot = (c: Comparison | undefined) =>
      c !== undefined && (c.verdict === 'too-few-seeds' || (c.minP !== null && c.minP >= t.stats.alpha));
    if (here.length) claims.push(...here);
    else if ([solve, final].some(cannot)) tooFew.push(t.task.title);
    else quiet.push(t.task.title);
  }
  const out: string[] = [];
  if (claims.length) out.push(...claims);
  if (quiet.length) {
    out.push(
      claims.length
        ? `no different elsewhere${absent.length || tooFew.length ? ` (${quiet.join(', ')})` : ''}`
        : `no different from GRPO on ${quiet.length === 1 ? quiet[0] : `any task (${quiet.join(', ')})`}`,
    );
  }
  if (tooFew.length) out.push(`too few seeds to tell on ${tooFew.join(', ')}`);
  if (absent.length) out.push(`not run on ${absent.join(', ')}`);
  const text = out.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** How to see the runs' curves: the files written with the board, or how to write them. */
function curvesSection(files: readonly string[]): string[] {
  const loaded =
    "In the page, the ablation panel's *Load the leaderboard's recorded runs* button draws the shipped ones (and " +
    "*Load a curves file…* a file of your own): each method's mean curve of the main metric and of the reward " +
    'with its 95% band over seeds, dashed and marked as recorded, GRPO against the methods picked, also over a live ' +
    "ablation's charts.";
  const what =
    'The curves of these runs, per method and seed (held-out evaluations as recorded, the reward averaged down to ' +
    '100 points a run), ';
  return [
    '## Recorded curves',
    '',
    files.length
      ? `${what}are in ${files.map((f) => `\`${f}\``).join(', ')}. ${loaded}`
      : `${what}are written by the same command with \`--curves-out DIR\` (\`DIR/leaderboard-<task>.json\`). ${loaded}`,
    '',
  ];
}

/** docs/leaderboard.md. */
export function leaderboardMarkdown(input: LeaderboardInput): string {
  const lines: string[] = [];
  const seedsAll = [...new Set(input.tasks.flatMap((t) => t.seeds))].sort((a, b) => a - b);
  lines.push('# Leaderboard: RLVR estimators against GRPO', '');
  lines.push(
    `<!-- Generated by \`rlvr sweep --suite ${input.suite}\` (src/ablation/leaderboard.ts) from the runs' own folders (or a task's recorded curves, as its note says). Do not edit by hand: run the first command below again. -->`,
    '',
  );
  lines.push(
    'Every method is run with the same recipe, seeds and budget as GRPO on each task, and compared with GRPO ' +
      "over seeds: steps to solve (a run that never solves counts as censored at its budget; Gehan's rank test, " +
      'Kaplan–Meier "solved by step t" in each task\'s summary) and the final value of the task\'s main metric ' +
      "(difference of means). Both are exact two-sided permutation tests over seeds, with Holm's adjustment over " +
      'the methods of a task; a difference is claimed only at p < 0.05 after it. "No different" means these seeds ' +
      'cannot tell the method from GRPO, not that they are equal.',
    '',
  );
  for (const n of input.notes ?? []) lines.push(`**Note.** ${n}`, '');

  lines.push('## Results', '');
  lines.push(`| method | ${input.tasks.map((t) => escapeCell(t.task.title)).join(' | ')} | verdict |`);
  lines.push(`|---|${input.tasks.map(() => '---|').join('')}---|`);
  for (const m of input.methods) {
    const cells = input.tasks.map((t) => escapeCell(leaderboardCell(t, m.label)));
    lines.push(`| ${escapeCell(m.label)} | ${cells.join(' | ')} | ${escapeCell(leaderboardVerdict(input, m.label))} |`);
  }
  lines.push('');
  lines.push(
    'Each cell: seeds solved of those run, the median steps to solve when at least half solved, and the mean final value ' +
      "of the task's main metric; **bold** marks a difference from GRPO at p < 0.05 after Holm's adjustment.",
    '',
  );

  lines.push('## Methods', '');
  lines.push('| method | what it sets on the recipe | source |', '|---|---|---|');
  for (const m of input.methods) {
    const set =
      Object.entries(m.set)
        .map(([k, v]) => `\`${k}=${v}\``)
        .join(', ') || '(nothing: the recipe)';
    lines.push(`| ${escapeCell(m.label)} | ${escapeCell(set)} | ${escapeCell(m.source)} |`);
  }
  lines.push('', 'The papers and the formulas: [methods.md](methods.md), [estimators.md](estimators.md).', '');

  lines.push('## Protocol', '');
  lines.push(
    '| task | preset | also set | steps | seeds | solved when | main metric |',
    '|---|---|---|---|---|---|---|',
  );
  for (const t of input.tasks) {
    const rule = t.stats.solved ? ruleText(t.stats.solved) : 'none';
    const m = primaryMetric(t);
    lines.push(
      `| ${escapeCell(t.task.title)} | \`${t.task.preset}\` | ${escapeCell(
        t.sets
          .filter((s) => !s.startsWith('customEstimator='))
          .map((s) => `\`${s}\``)
          .join(', ') || '–',
      )} | ${formatSteps(t.steps)} | ${t.seeds.join(', ')} | ${escapeCell(rule)} | ${m ? metricName(m) : '–'} |`,
    );
  }
  lines.push('');
  lines.push(
    `Seeds ${seedsAll.join(', ')}. Held-out evaluation is the trainer's (greedy pass@1 on the task's held-out prompts, every \`evalEvery\` steps). ` +
      "A run that starts from a shipped base model starts from the preset's own (`init`).",
    '',
  );
  lines.push('```sh', ...input.commands, '```', '');

  lines.push(...curvesSection(input.curves ?? []));

  lines.push('## Per task', '');
  for (const t of input.tasks) {
    lines.push(`### ${t.task.title}`, '');
    for (const v of t.stats.verdict) lines.push(`- ${v}`);
    for (const s of t.skipped) lines.push(`- ${s.label}: not run (${s.why}).`);
    lines.push('');
  }
  return lines.join('\n');
}
