// `rlvr sweep`: an ablation on this machine. Every (cell, seed) is one `rlvr train` child process
// of this same CLI, J at a time; each writes DIR/<cell>/seed-<s>/, and at the end summary.json
// and summary.md hold the statistics over seeds (src/ablation/). With --emit-jobs it
// prints those same train commands instead, one per line, for a job array on a cluster
// (GNU parallel, Slurm, Kubernetes); `rlvr report DIR` then summarises the finished folders.
// The runs on this machine are started and watched by sweep-runner.ts.

import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  asCliError,
  CliError,
  helpText,
  intFlag,
  parseFlags,
  stringFlag,
  type FlagSpec,
  type ParsedFlags,
} from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { presetFlag } from '../lessons/preset-flags';
import { quoteInput, shellQuote } from '../core/quote';
import {
  ABLATION_FILE,
  ablationFile,
  JOB_LOG_DIR,
  parseSolvedFlag,
  summarizeRunFolders,
  writeSummary,
} from './ablation-folders';
import { checkSweepFolder } from './sweep-folder-check';
import { JOBS_FILE, sbatchArgs, SLURM_SCRIPT, submitSlurmArray } from './slurm-submit';
import { prepareOutDir, writeFileAtomic } from './run-files';
import { runSweepJobs, type SweepIo, type SweepJob } from './sweep-runner';
import { CODE_FILE_FLAGS, codeSets, readCodeFiles } from './code-files';
import { loadInitWeights } from './checkpoint-files';
import { backendFlag, type Backend } from './engines';
import { ConfigError } from '../config';
import {
  ablationCells,
  ablationRunConfig,
  ablationSpec,
  cellSets,
  parseGridFlags,
  parseSeedList,
  versusCustomGrid,
  type AblationCellSpec,
  type AblationSpec,
} from '../ablation/spec';

export const SWEEP_FLAGS: Record<string, FlagSpec> = {
  suite: {
    kind: 'value',
    doc: "(rlvr sweep --suite is its own command, suite-command.ts) run a fixed protocol instead of one preset's ablation: methods (every estimator against GRPO on fixed tasks; docs/leaderboard.md); rlvr sweep --suite methods --help lists its flags",
  },
  preset: presetFlag(
    'the one the ablation varies (its own ablation, if it declares one, gives the cells, seeds, steps and what "solved" means)',
  ),
  grid: {
    kind: 'multi',
    doc: 'knob=a,b,…: one cell per value (repeat for a grid: every combination), e.g. --grid epsHigh=0.2,0.28',
  },
  variant: { kind: 'multi', doc: 'a variant of the preset, by its label, run beside the preset itself (repeatable)' },
  seeds: commonFlag('seeds', "the same for every cell, e.g. 0-3 or 0,2,5 (default: the preset's ablation, else 0-3)"),
  steps: commonFlag('steps', "default: the preset's ablation, else its steps knob"),
  set: commonFlag('set', "for every cell, before the cell's own values, e.g. --set evalEvery=25"),
  jobs: commonFlag('jobs', 'on a software GPU, at most the number of cores'),
  out: commonFlag('out', 'the ablation folder: ablation.json, <cell>/seed-<s>/ per run, summary.json, summary.md'),
  backend: commonFlag('backend', 'passed to every run'),
  solved: commonFlag(
    'solved',
    "e.g. eval/pass@1_greedy>=0.9 (default: the preset's ablation, else held-out pass@1 at the curriculum target)",
  ),
  'solved-level': commonFlag('solved-level', 'e.g. 6, the final chain length'),
  metric: commonFlag('metric', 'e.g. --metric eval/pass@1_greedy'),
  'emit-jobs': commonFlag('emit-jobs', 'writes DIR/ablation.json for rlvr report'),
  cli: {
    kind: 'value',
    doc: 'the command prefix of --emit-jobs and --slurm lines (default for --emit-jobs "npm run --silent rlvr --", run from the repository root; for --slurm this same node and CLI)',
  },
  slurm: {
    kind: 'switch',
    doc: 'submit the runs as one Slurm job array (sbatch): writes DIR/jobs.txt, DIR/slurm-job.sh and DIR/logs/job-<i>.log, prints the job id and the report command',
  },
  'sbatch-args': {
    kind: 'value',
    doc: 'more sbatch flags for --slurm, split at spaces, e.g. "--partition=gpu --gres=gpu:1 --time=04:00:00"',
    flagsValue: true,
  },
  'estimator-file': {
    kind: 'value',
    doc: "your estimator (a .js or .ts file defining advantages(batch)) as the code of every cell; without --grid or --variant the cells are the preset's estimator and estimator=custom",
  },
  'reward-file': CODE_FILE_FLAGS['reward-file'],
  init: {
    kind: 'value',
    doc: "a checkpoint every run starts from (its weights; each run keeps its own config and seed), as rlvr train --init (default: the lesson's own base model, e.g. maze-grpo's, else random weights)",
  },
};

/** The site's files (public/): a lesson's `init` checkpoint is a path under it. */
const SITE_ROOT = fileURLToPath(new URL('../../public/', import.meta.url));

/** A lesson's `init` (a path under public/) as a path from the working folder, as job commands name it. */
export function siteFilePath(init: string): string {
  return relative(process.cwd(), join(SITE_ROOT, init));
}

export const DEFAULT_JOB_PREFIX = 'npm run --silent rlvr --';

export { shellQuote };

/**
 * What a sweep and a suite read alike from their flags: the folder, the backend every run is
 * given (undefined: each run's own default), how many runs at once, and --cli checked to be one
 * line (it starts every job line).
 */
export function jobQueueFlags(f: ParsedFlags): { outDir: string; backend: Backend | undefined; parallel: number } {
  const outDir = stringFlag(f, 'out');
  const backend = f.backend === undefined ? undefined : backendFlag(f);
  const parallel = intFlag(f, 'jobs', 1, 1, 256);
  if (f.cli !== undefined && /[\r\n]/.test(String(f.cli)))
    throw new CliError(`--cli must be one line (it starts every job line), got ${quoteInput(String(f.cli))}`);
  return { outDir, backend, parallel };
}

/** The `train` arguments of every run, cell by cell, seed by seed. */
export function sweepJobs(
  spec: AblationSpec,
  cells: readonly AblationCellSpec[],
  outDir: string,
  backend?: string,
): SweepJob[] {
  const jobs: SweepJob[] = [];
  for (const cell of cells) {
    for (const seed of spec.seeds) {
      const dir = join(outDir, cell.dir, `seed-${seed}`);
      const args = [
        'train',
        '--preset',
        spec.preset,
        ...(cell.variant !== undefined ? ['--variant', cell.variant] : []),
        ...cellSets(spec, cell).flatMap((s) => ['--set', s]),
        '--steps',
        String(spec.steps),
        '--seed',
        String(seed),
        ...(backend !== undefined ? ['--backend', backend] : []),
        ...(spec.init !== null ? ['--init', spec.init] : []),
        '--cell',
        cell.label,
        '--out',
        dir,
      ];
      jobs.push({ cell, seed, steps: spec.steps, dir, args });
    }
  }
  return jobs;
}

/** A folder already holding this exact run, finished: a sweep run again does not redo it. */
export function isFinished(job: SweepJob, spec: AblationSpec): boolean {
  try {
    const want = ablationRunConfig(spec, job.cell, job.seed);
    const have = JSON.parse(readFileSync(join(job.dir, 'config.json'), 'utf8'));
    if (JSON.stringify(have) !== JSON.stringify(want) || !existsSync(join(job.dir, 'checkpoint.safetensors')))
      return false;
    const lines = readFileSync(join(job.dir, 'metrics.jsonl'), 'utf8').trim().split('\n');
    return JSON.parse(lines[lines.length - 1]).step === spec.steps;
  } catch {
    return false;
  }
}

export async function sweepCommand(argv: string[], io: SweepIo): Promise<number> {
  if (argv.includes('--help')) {
    io.out(helpText('sweep', SWEEP_FLAGS));
    return 0;
  }
  const f = parseFlags(argv, SWEEP_FLAGS, 'sweep');
  const preset = stringFlag(f, 'preset');
  const { outDir, backend, parallel } = jobQueueFlags(f);
  if (f.slurm && f['emit-jobs']) throw new CliError('--slurm submits the runs, --emit-jobs prints them: give one');
  if (f['sbatch-args'] !== undefined && !f.slurm) throw new CliError('--sbatch-args goes with --slurm');
  const extra = sbatchArgs(f['sbatch-args'] as string | undefined);
  const { spec, cells } = sweepSpec(f, preset, io);
  const jobs = sweepJobs(spec, cells, outDir, backend);
  // Checked as train checks its --out; then nothing there may be counted that is not this sweep's.
  prepareOutDir(outDir, '--out', [ABLATION_FILE, 'summary.json', 'summary.md']);
  const file = ablationFile(spec, cells);
  checkSweepFolder(
    outDir,
    file,
    jobs.map((j) => j.dir),
  );
  writeFileAtomic(join(outDir, ABLATION_FILE), JSON.stringify(file, null, 2) + '\n');

  const sweep: PlannedSweep = { preset, outDir, spec, cells, jobs };
  if (f.slurm) return submitSweep(f, io, sweep, extra);
  if (f['emit-jobs']) return emitSweepJobs(f, io, sweep);
  return runSweepHere(io, sweep, parallel);
}

/** A sweep once its folder is checked: its preset, folder, spec, cells and one job per run. */
interface PlannedSweep {
  preset: string;
  outDir: string;
  spec: AblationSpec;
  cells: AblationCellSpec[];
  jobs: SweepJob[];
}

/** The ablation the flags ask for, with its cells; what no run could take is refused here. */
function sweepSpec(f: ParsedFlags, preset: string, io: SweepIo): { spec: AblationSpec; cells: AblationCellSpec[] } {
  // Your code goes to every cell as a knob value; it runs in the cells whose estimator is custom.
  const code = readCodeFiles(f);
  const ownCells = f.grid === undefined && f.variant === undefined;
  // Without --grid or --variant, the code's cell runs beside the preset's estimator.
  const versusCustom =
    code.estimator !== undefined && ownCells ? asCliError(() => versusCustomGrid(preset), ConfigError) : undefined;
  const initGiven = f.init === undefined ? undefined : String(f.init);
  const asked = asCliError(
    () =>
      ablationSpec(preset, {
        variants: f.variant as string[] | undefined,
        grid: f.grid === undefined ? versusCustom : parseGridFlags(f.grid as string[]),
        seeds: f.seeds === undefined ? undefined : parseSeedList(String(f.seeds)),
        steps: f.steps === undefined ? undefined : intFlag(f, 'steps', undefined, 1, 10_000_000),
        sets: [...codeSets(code, false), ...((f.set as string[] | undefined) ?? [])],
        solved: parseSolvedFlag(f.solved as string | undefined, f['solved-level'] as string | undefined),
        metrics: f.metric as string[] | undefined,
        ...(initGiven !== undefined ? { init: initGiven } : {}),
      }),
    ConfigError,
  );
  // The lesson's own init is a file of the site (named from here, as the jobs' commands name it);
  // a given one is a path from here already.
  const spec: AblationSpec = { ...asked, init: asked.init === null ? null : (initGiven ?? siteFilePath(asked.init)) };
  const cells = ablationCells(spec);
  // Every cell's model must take those weights: refused here, before any run starts.
  if (spec.init !== null)
    for (const cell of cells) loadInitWeights(spec.init, ablationRunConfig(spec, cell, spec.seeds[0]));
  if (
    code.estimator !== undefined &&
    !cells.some((c) => ablationRunConfig(spec, c, spec.seeds[0]).estimator === 'custom')
  ) {
    io.err(
      'note: no cell has estimator=custom, so --estimator-file is carried but never run; add --grid estimator=grpo,custom',
    );
  }
  return { spec, cells };
}

/** --slurm: the runs go to one Slurm job array; its id is printed. */
function submitSweep(f: ParsedFlags, io: SweepIo, sweep: PlannedSweep, extra: string[]): number {
  const { preset, outDir, spec, cells, jobs } = sweep;
  const prefix = f.cli !== undefined ? String(f.cli) : io.cli.map(shellQuote).join(' ');
  const lines = jobs.map((job) => `${prefix} ${job.args.map(shellQuote).join(' ')}`);
  const { jobId } = submitSlurmArray({ dir: outDir, cwd: process.cwd(), lines, name: `rlvr-${preset}`, extra });
  io.out(jobId);
  io.err(
    `submitted job array ${jobId}: ${jobs.length} runs (${cells.length} cells × ${spec.seeds.length} seeds), ${join(outDir, SLURM_SCRIPT)} running line i of ${join(outDir, JOBS_FILE)}; logs in ${join(outDir, JOB_LOG_DIR)}/job-<i>.log`,
  );
  io.err(`watch it: squeue -j ${jobId}. When it ends: rlvr report ${shellQuote(outDir)}`);
  return 0;
}

/** --emit-jobs: one train command per run on stdout, for a job array elsewhere. */
function emitSweepJobs(f: ParsedFlags, io: SweepIo, sweep: PlannedSweep): number {
  const { outDir, spec, cells, jobs } = sweep;
  const prefix = String(f.cli ?? DEFAULT_JOB_PREFIX);
  for (const job of jobs) io.out(`${prefix} ${job.args.map(shellQuote).join(' ')}`);
  io.err(
    `${jobs.length} runs (${cells.length} cells × ${spec.seeds.length} seeds); wrote ${join(outDir, ABLATION_FILE)}. When they are done: rlvr report ${outDir}`,
  );
  return 0;
}

/** The runs on this machine (those not already finished), then summary.json and summary.md. */
async function runSweepHere(io: SweepIo, sweep: PlannedSweep, parallel: number): Promise<number> {
  const { preset, outDir, spec, cells, jobs } = sweep;
  const todo = jobs.filter((j) => {
    if (!isFinished(j, spec)) return true;
    io.err(`skip ${j.cell.label} seed ${j.seed}: ${j.dir} already holds this run, finished`);
    return false;
  });
  io.err(
    `sweep ${preset}: ${cells.length} cells × ${spec.seeds.length} seeds × ${spec.steps} steps = ${jobs.length} runs, ${todo.length} to run, ${parallel} at once${spec.init !== null ? `, each from the weights of ${spec.init}` : ''}`,
  );
  const ran = await runSweepJobs(io, todo, parallel);
  if (ran.stopped) {
    io.err(
      `stopped: ${ran.complete} of ${todo.length} runs finished in ${ran.wall.toFixed(0)} s. Run the same sweep again to do the rest (finished runs are kept), or summarise what is there: rlvr report ${outDir}`,
    );
    return 130;
  }
  const { failures, wall } = ran;
  const s = summarizeRunFolders([outDir]);
  writeSummary(outDir, s);
  for (const w of s.warnings) io.err(`warning: ${w}`);
  for (const v of s.summary.verdict) io.out(v);
  io.out(
    `wrote ${join(outDir, 'summary.json')} and summary.md: ${s.runs} runs; ${todo.length} run here in ${wall.toFixed(1)} s wall, ${parallel} at once`,
  );
  if (failures.length) {
    io.err(`${failures.length} runs failed: ${failures.join(', ')}`);
    return 1;
  }
  return 0;
}
