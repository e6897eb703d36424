// `rlvr sweep --suite methods`: the fixed protocol behind docs/leaderboard.md. Each task of the
// suite (src/ablation/methods-suite.ts) is an ordinary ablation folder DIR/<task>/ whose cells are
// the methods, GRPO first; all their runs go through one job queue (`--jobs J`), then each task
// gets its summary (every method against GRPO, Holm over the methods) and the suite its
// leaderboard. With --emit-jobs it prints the runs' train commands instead; the same command
// run again afterwards finds them finished and only writes the summaries and the leaderboard.
// With --curves-out it also writes each task's recorded curves for the page (./suite-curves.ts),
// and a task it does not run joins the board from its curves file there, when one holds the
// protocol's runs (src/ablation/recorded-board.ts): tasks run in different sessions share a board.

import { join } from 'node:path';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { asCliError, helpText, intFlag, parseFlags, stringFlag, type FlagSpec, type ParsedFlags } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { ConfigError } from '../config';
import {
  getSuite,
  leaderboardMarkdown,
  parseSeedList,
  suiteMethods,
  suiteTaskPlan,
  suiteTasks,
  SUITE_NAMES,
  parseRecordedCurves,
  recordedBoardTask,
  recordedMismatch,
  RecordedCurvesError,
  type AblationCell,
  type LeaderboardTask,
  type Suite,
  type SuiteOptions,
  type SuiteTaskPlan,
} from '../ablation';
import { ABLATION_FILE, ablationFile, summarizeRunFolders, writeSummary } from './ablation-folders';
import { checkSweepFolder } from './sweep-folder-check';
import { curvesFileName, writeSuiteCurves } from './suite-curves';
import { codeSets, readCodeFiles } from './code-files';
import { loadInitWeights } from './checkpoint-files';
import { prepareOutDir, writeFileAtomic } from './run-files';
import { DEFAULT_JOB_PREFIX, isFinished, jobQueueFlags, shellQuote, siteFilePath, sweepJobs } from './sweep-command';
import { runSweepJobs, type SweepIo, type SweepJob } from './sweep-runner';
import { ablationRunConfig } from '../ablation/spec';
import { heldOutWarning } from '../rl/held-out';
import { getTask } from '../tasks/registry';

export const SUITE_FLAGS: Record<string, FlagSpec> = {
  suite: {
    kind: 'value',
    doc: `the suite to run: ${SUITE_NAMES.join(', ')} (every estimator against GRPO on fixed tasks, seeds and budgets; docs/leaderboard.md)`,
    values: SUITE_NAMES,
  },
  tasks: {
    kind: 'value',
    doc: 'only these tasks of the suite, comma-separated (e.g. sorting,s3-chains; default: all)',
  },
  methods: {
    kind: 'value',
    doc: 'only these methods, comma-separated, by their labels (GRPO, the baseline, is always run; default: all)',
  },
  seeds: commonFlag('seeds', "the same for every task, e.g. 0-5 (default: the suite's, 0-5)"),
  steps: commonFlag(
    'steps',
    "one budget for every task instead of each task's own (for a quick look; the leaderboard says so)",
  ),
  set: commonFlag('set', "for every run, after the task's own; a knob a method sets is refused"),
  jobs: commonFlag('jobs'),
  out: commonFlag(
    'out',
    "the suite folder: DIR/<task>/ is each task's ablation folder (ablation.json, <method>/seed-<s>/, summary.json, summary.md)",
  ),
  backend: commonFlag('backend', 'passed to every run'),
  leaderboard: {
    kind: 'value',
    doc: 'where to write the leaderboard (default DIR/leaderboard.md; the shipped one is docs/leaderboard.md)',
  },
  'curves-out': {
    kind: 'value',
    doc: "a folder for each task's recorded curves, leaderboard-<task>.json, that the page's ablation view loads (the shipped ones are in public/reference); a task of the suite this command does not run joins the board from its file there, when that holds the same protocol's runs",
  },
  'emit-jobs': commonFlag(
    'emit-jobs',
    'run the same command without it afterwards for the summaries and the leaderboard',
  ),
  cli: {
    kind: 'value',
    doc: 'the command prefix of --emit-jobs lines (default "npm run --silent rlvr --", run from the repository root)',
  },
  'estimator-file': {
    kind: 'value',
    doc: 'your estimator (a .js or .ts file defining advantages(batch)): one more method, "your estimator", put through the same protocol',
  },
};

function listFlag(v: unknown): string[] | undefined {
  if (v === undefined) return undefined;
  const items = String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}

/** The command as a person would type it again (the code file by its path). */
function typedCommand(argv: readonly string[]): string {
  return `npm run rlvr -- sweep ${argv
    .filter((a) => a !== '--emit-jobs')
    .map(shellQuote)
    .join(' ')}`;
}

/** Whether `rlvr sweep` was given --suite: then main.ts runs suiteCommand instead of sweepCommand. */
export function isSuiteArgv(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--suite' || a.startsWith('--suite='));
}

export async function suiteCommand(argv: string[], io: SweepIo): Promise<number> {
  if (argv.includes('--help')) {
    io.out(helpText('sweep --suite', SUITE_FLAGS));
    return 0;
  }
  const f = parseFlags(argv, SUITE_FLAGS, 'sweep --suite');
  const suite = asCliError(() => getSuite(stringFlag(f, 'suite')), ConfigError);
  const { outDir, backend, parallel } = jobQueueFlags(f);
  const code = readCodeFiles(f);
  const steps = f.steps === undefined ? undefined : intFlag(f, 'steps', undefined, 1, 10_000_000);
  const options = {
    tasks: listFlag(f.tasks),
    methods: listFlag(f.methods),
    seeds: f.seeds === undefined ? undefined : asCliError(() => parseSeedList(String(f.seeds)), ConfigError),
    steps,
    sets: (f.set as string[] | undefined) ?? [],
    customSets: codeSets(code, false),
  };
  const plans = suitePlans(suite, options);
  const jobsByTask = prepareTaskFolders(outDir, plans, backend);
  const all = [...jobsByTask.values()].flat();

  if (f['emit-jobs']) return emitSuiteJobs(f, io, all, plans);

  const todo = [...jobsByTask.entries()].flatMap(([p, jobs]) => jobs.filter((j) => !isFinished(j, p.spec)));
  const skipped = all.length - todo.length;
  io.err(
    `suite ${suite.name}: ${plans.map((p) => `${p.task.id} ${p.cells.length} methods × ${p.spec.seeds.length} seeds × ${p.spec.steps} steps`).join('; ')} = ` +
      `${all.length} runs, ${todo.length} to run${skipped ? ` (${skipped} already finished)` : ''}, ${parallel} at once`,
  );
  const ran = await runSweepJobs(io, todo, parallel);
  if (ran.stopped) {
    io.err(
      `stopped: ${ran.complete} of ${todo.length} runs finished in ${ran.wall.toFixed(0)} s. Run the same command again to do the rest (finished runs are kept).`,
    );
    return 130;
  }

  const summarized = summarizeSuiteTasks(io, outDir, plans);
  const recorded =
    f['curves-out'] === undefined ? [] : readRecordedTasks(io, String(f['curves-out']), suite, options, plans);
  const boardTasks = inSuiteOrder(suite, [...summarized.map((t) => t.board), ...recorded.map((r) => r.board)]);
  const methods = suiteMethods(suite, options.methods);
  if (code.estimator !== undefined)
    methods.push({
      label: 'your estimator',
      set: { estimator: 'custom' },
      source: `your --estimator-file (${String(f['estimator-file'])})`,
    });
  const notes = boardNotes(suite, plans, steps, recorded);
  const written =
    f['curves-out'] === undefined
      ? []
      : writeSuiteCurves(String(f['curves-out']), suite, summarized, typedCommand(argv), steps);
  const board = leaderboardMarkdown({
    suite: suite.name,
    methods,
    tasks: boardTasks,
    commands: [...new Set([typedCommand(argv), ...recorded.map((r) => r.command)])],
    notes,
    curves: inSuiteOrder(suite, [
      ...written.map((path, i) => ({ task: summarized[i].plan.task, path })),
      ...recorded.map((r) => ({ task: r.board.task, path: r.path })),
    ]).map((c) => c.path),
  });
  const boardPath = f.leaderboard === undefined ? join(outDir, 'leaderboard.md') : String(f.leaderboard);
  writeFileAtomic(boardPath, board);
  io.out(
    `wrote ${[boardPath, ...written].join(', ')} and ${plans.map((p) => join(outDir, p.task.id, 'summary.md')).join(', ')}: ${all.length} runs; ${todo.length} run here in ${ran.wall.toFixed(1)} s wall, ${parallel} at once`,
  );
  if (ran.failures.length) {
    io.err(`${ran.failures.length} runs failed: ${ran.failures.join(', ')}`);
    return 1;
  }
  return 0;
}

/** A suite task not run by this command, read back from its recorded curves under --curves-out. */
interface RecordedTask {
  board: LeaderboardTask;
  path: string;
  /** The command that ran its runs, as the file records it. */
  command: string;
}

/** Board entries (tasks or their files) in the suite's task order, whichever way they were found. */
function inSuiteOrder<T extends { task: { id: string } }>(suite: Suite, items: readonly T[]): T[] {
  const rank = (t: T) => suite.tasks.findIndex((s) => s.id === t.task.id);
  return [...items].sort((a, b) => rank(a) - rank(b));
}

/**
 * The suite's tasks this command does not run whose recorded curves are in `dir`, when they hold
 * the runs this command would make there (src/ablation/recorded-board.ts); a file of another
 * protocol is left off the board with a warning that says how it differs.
 */
function readRecordedTasks(
  io: SweepIo,
  dir: string,
  suite: Suite,
  options: SuiteOptions,
  plans: readonly SuiteTaskPlan[],
): RecordedTask[] {
  const out: RecordedTask[] = [];
  for (const task of suite.tasks) {
    const path = join(dir, curvesFileName(task.id));
    if (plans.some((p) => p.task.id === task.id) || !existsSync(path)) continue;
    const file = asCliError(() => parseRecordedCurves(readFileSync(path, 'utf8'), path), RecordedCurvesError);
    const plan = asCliError(() => suiteTaskPlan(suite, task, options), ConfigError);
    const why = recordedMismatch(file, suite.name, plan);
    if (why !== null) {
      io.err(`warning: ${path} is left off the board: ${why}`);
      continue;
    }
    out.push({ board: recordedBoardTask(file, plan), path, command: file.command });
  }
  return out;
}

/** The board's notes: a shortened budget, tasks read back or left out, held-out parts too small to measure generalisation. */
function boardNotes(
  suite: Suite,
  plans: readonly SuiteTaskPlan[],
  steps: number | undefined,
  recorded: readonly RecordedTask[],
): string[] {
  const notes =
    steps !== undefined
      ? [`Every task ran ${steps} steps (--steps), not the suite's own budgets: a quick look, not the protocol.`]
      : [];
  for (const r of recorded)
    notes.push(
      `${r.board.task.id} is read back from its recorded curves (\`${r.path}\`), written from its runs by \`${r.command}\`: ` +
        "they keep every held-out evaluation as the runs wrote it, so its steps to solve and final values are the runs' own.",
    );
  const on = (id: string) => plans.some((p) => p.task.id === id) || recorded.some((r) => r.board.task.id === id);
  const left = suite.tasks.filter((t) => !on(t.id)).map((t) => t.id);
  if (left.length > 0)
    notes.push(
      `Only ${suite.tasks
        .filter((t) => on(t.id))
        .map((t) => t.id)
        .join(', ')} (--tasks): the suite's other tasks (${left.join(', ')}) are not on this board.`,
    );
  notes.push(...plans.flatMap(heldOutNote));
  return notes;
}

/** A task whose held-out prompts cannot measure generalisation says so on the board (its first seed's draw). */
function heldOutNote(p: SuiteTaskPlan): string[] {
  const config = ablationRunConfig(p.spec, p.cells[0], p.spec.seeds[0]);
  const warning = heldOutWarning(config, getTask(config.task));
  return warning === undefined
    ? []
    : [
        `${p.task.id}: ${warning}. Its "solved" and final held-out figures say whether the runs answer those prompts, not whether they generalise.`,
      ];
}

/** --emit-jobs: one train command per run on stdout; the same command run again afterwards summarises them. */
function emitSuiteJobs(f: ParsedFlags, io: SweepIo, all: readonly SweepJob[], plans: readonly SuiteTaskPlan[]): number {
  const prefix = String(f.cli ?? DEFAULT_JOB_PREFIX);
  for (const job of all) io.out(`${prefix} ${job.args.map(shellQuote).join(' ')}`);
  io.err(
    `${all.length} runs (${plans.map((p) => `${p.task.id}: ${p.cells.length} methods × ${p.spec.seeds.length} seeds`).join('; ')}). ` +
      `When they are done, run the same command without --emit-jobs: it finds them finished and writes the summaries and the leaderboard.`,
  );
  return 0;
}

/** Each task's ablation (its cells, seeds, steps); what no run could take is refused here. */
function suitePlans(suite: Suite, options: SuiteOptions): SuiteTaskPlan[] {
  const plans: SuiteTaskPlan[] = asCliError(
    () => suiteTasks(suite, options.tasks).map((task) => suiteTaskPlan(suite, task, options)),
    ConfigError,
  );
  // A lesson's own init is a file of the site: named from here, as the jobs' commands name it.
  for (const p of plans) if (p.spec.init !== null) p.spec.init = siteFilePath(p.spec.init);
  // Every cell's model must take its task's base weights: refused before any run starts.
  for (const p of plans) {
    if (p.spec.init !== null)
      for (const cell of p.cells) loadInitWeights(p.spec.init, ablationRunConfig(p.spec, cell, p.spec.seeds[0]));
  }
  return plans;
}

/** DIR/<task>/ for each task, checked and given its ablation.json; its runs, task by task. */
function prepareTaskFolders(
  outDir: string,
  plans: readonly SuiteTaskPlan[],
  backend: string | undefined,
): Map<SuiteTaskPlan, SweepJob[]> {
  prepareOutDir(outDir, '--out', ['leaderboard.md']);
  const jobsByTask = new Map<SuiteTaskPlan, SweepJob[]>();
  for (const p of plans) {
    const dir = join(outDir, p.task.id);
    mkdirSync(dir, { recursive: true });
    const jobs = sweepJobs(p.spec, p.cells, dir, backend);
    const file = ablationFile(p.spec, p.cells);
    checkSweepFolder(
      dir,
      file,
      jobs.map((j) => j.dir),
    );
    writeFileAtomic(join(dir, ABLATION_FILE), JSON.stringify(file, null, 2) + '\n');
    jobsByTask.set(p, jobs);
  }
  return jobsByTask;
}

/** Each task's summary.json and summary.md (every method against GRPO), as the leaderboard reads them. */
function summarizeSuiteTasks(
  io: SweepIo,
  outDir: string,
  plans: readonly SuiteTaskPlan[],
): { plan: SuiteTaskPlan; board: LeaderboardTask; cells: AblationCell[] }[] {
  const boardTasks: { plan: SuiteTaskPlan; board: LeaderboardTask; cells: AblationCell[] }[] = [];
  for (const p of plans) {
    const dir = join(outDir, p.task.id);
    const s = summarizeRunFolders([dir], { compare: 'baseline' });
    writeSummary(dir, s);
    for (const w of s.warnings) io.err(`warning (${p.task.id}): ${w}`);
    const board = {
      task: p.task,
      stats: s.summary,
      seeds: p.spec.seeds,
      steps: p.spec.steps,
      skipped: p.skipped,
      sets: p.spec.sets,
    };
    boardTasks.push({ plan: p, board, cells: s.cells });
  }
  return boardTasks;
}
