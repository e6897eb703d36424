// `rlvr eval`: a checkpoint on held-out prompts (the held-out part of the task's split, which
// training never draws) — pass@1 and pass@k, and for the tasks that
// have them the reports that diagnose a stall (the task's breaks and branching hooks): where greedy
// chains (groupmul) or walks (maze) first go wrong, and how maze walks branch (BODHI's measurements).

import { asCliError, CliError, intFlag, parseFlags, stringFlag, type FlagSpec, type ParsedFlags } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { backendFlag, checkFits, openEngines, type Backend } from './engines';
import { readCheckpointArg } from './checkpoint-files';
import { ConfigError, validateConfig, type RunConfig } from '../config/config';
import type { RunCheckpoint } from '../config/checkpoint-run';
import { GpuError } from '../gpu/gpu-errors';
import { Trainer } from '../rl/trainer';
import { diagnoseBranching, diagnoseBreaks, engineProbe } from '../rl/diagnose';
import type { BranchingRun, Task, TaskInstance } from '../tasks/types';
import { getTask, TASK_NAMES } from '../tasks/registry';
import { splitLines, splitReport } from '../tasks/split';
import { CustomCodeError } from '../rl/custom/custom-code-errors';
import { nodeSandbox } from '../rl/custom/sandbox-node';
import { EXIT } from './run-training';
import { writeFileAtomic } from './run-files';
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

export const EVAL_FLAGS: Record<string, FlagSpec> = {
  checkpoint: commonFlag('checkpoint', 'one written by rlvr train (its run config names the task)'),
  param: { kind: 'multi', doc: 'override a task parameter, key=value (repeatable), e.g. --param length=6' },
  n: {
    kind: 'value',
    doc: 'held-out prompts (default 256), drawn from the held-out part of the task\'s split (docs/tasks.md, "Train and held-out")',
  },
  k: { kind: 'value', doc: 'k of pass@k (default: the run config evalK, at most groupSize)' },
  seed: commonFlag('seed', 'of the fresh prompts (default 1000003, unlike any training seed by default)'),
  backend: commonFlag('backend'),
  breaks: {
    kind: 'switch',
    doc: 'groupmul: also say where each greedy chain first breaks (the first y that is not the running product) and which products it gets wrong, with p(right); maze: where each greedy walk first goes wrong (a wall, the edge, a wrong turn, stopping short, overshooting), with p(right), and which hand on the wall it keeps; always in --json (chainBreaks, walkBreaks)',
  },
  branching: {
    kind: 'value',
    doc: "maze: also sample this many walks per maze (e.g. 64) and report how the policy branches: pass@1…G; distinct correct, shortest and simple (no cell twice) walks; Simpson diversity of the shortest and of the simple walks; the same among the first --matched-k of each maze; the share of shortest paths found; wall or edge contact at any point and as the first failure; entropy at branch points vs elsewhere (branching in --json, with each maze's numbers in perMaze)",
  },
  'matched-k': {
    kind: 'value',
    doc: `maze, with --branching: the matched count, distinct walks among the first k correct (shortest, simple) walks of each maze, mazes with fewer left out and counted (default ${TASK_NAMES.map((n) => getTask(n).branching?.matchedK).find((k) => k !== undefined)}, at most --branching)`,
  },
  'walks-out': {
    kind: 'value',
    doc: "maze, with --branching: add this checkpoint's walks to this JSON file, created if absent: its distinct correct walks, every figure it reported, and its raw walks (all sampled walks, failed ones included, and the greedy walk, as tokens, with the vocabulary) so that an outside checker can recompute them; every checkpoint in one file must walk the same mazes (same --n, --seed, --param). The maze lesson draws such a file: the base model's walks beside the trained ones'",
  },
  'walks-label': {
    kind: 'value',
    doc: 'the name of this checkpoint\'s walks in --walks-out (default "step N"); a model of the same name in the file is replaced',
  },
  json: commonFlag('json', 'one object'),
};

export async function evalCommand(
  argv: string[],
  out: (s: string) => void,
  err: (s: string) => void = () => {},
): Promise<number> {
  const f = parseFlags(argv, EVAL_FLAGS, 'eval');
  const plan = evalPlan(f);
  const { config, ck } = plan;
  const engines = await openEngines(plan.backend);
  try {
    try {
      checkFits(engines, config);
    } catch (e) {
      if (e instanceof CliError) throw new CliError(`${e.message} (evalPrompts is --n here)`);
      throw e;
    }
    let trainer: Trainer;
    try {
      trainer = await Trainer.create(config, engines.make, { initial: ck, sandbox: nodeSandbox });
    } catch (e) {
      if (e instanceof CustomCodeError) throw new CliError(`the checkpoint's own code: ${e.message}`);
      if (e instanceof RangeError) throw new CliError(`--param: ${e.message}`);
      throw e;
    }
    try {
      return await evaluateCheckpoint(trainer, f, plan, argv, engines.adapter, out);
    } finally {
      trainer.destroy();
    }
  } catch (e) {
    if (e instanceof GpuError) {
      err(`error: ${e.message}`);
      return EXIT.gpu;
    }
    throw e;
  } finally {
    engines.close();
  }
}

/** What the flags ask of an evaluation, every one checked before an engine is opened. */
interface EvalPlan {
  backend: Backend;
  /** The --checkpoint file and what it holds. */
  path: string;
  ck: RunCheckpoint;
  config: RunConfig;
  task: Task;
  /** --branching G: walks sampled per maze (0: none), and --matched-k. */
  branchingG: number;
  matchedK: number;
  /** --walks-out: the file, this checkpoint's name in it, and what it holds already. */
  walksOut: string | null;
  walksLabel: string;
  walksFile: object | null;
}

/** "groupmul and maze", the tasks that have a diagnosis. */
function tasksWith(has: (t: Task) => unknown): string {
  return TASK_NAMES.filter((n) => has(getTask(n))).join(' and ');
}

/** "chains or walks", what those tasks' diagnoses look at. */
function whatOf(what: (t: Task) => string | undefined): string {
  return [...new Set(TASK_NAMES.map((n) => what(getTask(n))).filter((w) => w !== undefined))].join(' or ');
}

/** The checkpoint, its config with the evaluation's overrides, and the reports asked for. */
function evalPlan(f: ParsedFlags): EvalPlan {
  const backend = backendFlag(f);
  const path = stringFlag(f, 'checkpoint');
  // Range-checks the knobs, trainedSteps and level; the knobs are then re-validated with the overrides.
  const ck = readCheckpointArg(
    path,
    '--checkpoint',
    'eval needs a checkpoint written by rlvr train (or the playground)',
  );
  const saved: Record<string, unknown> = { ...ck.config };
  const overrides: Record<string, unknown> = {
    evalPrompts: intFlag(f, 'n', 256, 1, 100000),
    seed: intFlag(f, 'seed', 1000003, 0, 2 ** 32 - 1),
    // Evaluation trains nothing: the task at its configured difficulty, no KL reference
    // (refSync = curriculum would be refused without a curriculum).
    curriculum: 'off',
    refSync: 'none',
  };
  for (const p of (f.param as string[] | undefined) ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new CliError(`--param expects key=value, got "${p}"`);
    overrides[`task.${p.slice(0, eq)}`] = p.slice(eq + 1);
  }
  if (f.k !== undefined) overrides.evalK = intFlag(f, 'k', undefined, 1, 1024);
  const config = asCliError(() => validateConfig({ ...saved, ...overrides }), ConfigError);
  // The reports are the task's own (Task.breaks, Task.branching).
  const task = getTask(config.task);
  if (f.breaks && !task.breaks)
    throw new CliError(
      `--breaks: only ${tasksWith((t) => t.breaks)} checkpoints have ${whatOf((t) => t.breaks?.what)} to break; this one's task is ${config.task}`,
    );
  const branchingG = f.branching === undefined ? 0 : intFlag(f, 'branching', undefined, 1, 1024);
  if (branchingG > 0 && !task.branching)
    throw new CliError(
      `--branching: only ${tasksWith((t) => t.branching)} checkpoints have ${whatOf((t) => t.branching?.what)} to branch; this one's task is ${config.task}`,
    );
  if (f['matched-k'] !== undefined && branchingG === 0)
    throw new CliError('--matched-k: needs --branching G (the walks sampled per maze)');
  const matchedK =
    f['matched-k'] === undefined
      ? Math.min(task.branching?.matchedK ?? 1, branchingG)
      : intFlag(f, 'matched-k', undefined, 1, Math.max(1, branchingG));
  const walksOut = f['walks-out'] === undefined ? null : stringFlag(f, 'walks-out');
  if (walksOut !== null && branchingG === 0)
    throw new CliError('--walks-out: needs --branching G (the walks sampled per maze)');
  if (walksOut === null && f['walks-label'] !== undefined)
    throw new CliError('--walks-label: names the walks written by --walks-out FILE, which is not given');
  const walksLabel =
    f['walks-label'] === undefined ? `step ${ck.trainedSteps.toLocaleString('en-US')}` : stringFlag(f, 'walks-label');
  // Read (and check) the file before any work, so a bad file costs nothing.
  const walksFile = walksOut === null ? null : readWalksFile(task, walksOut);
  return {
    backend,
    path,
    ck,
    config,
    task,
    branchingG,
    matchedK,
    walksOut,
    walksLabel,
    walksFile,
  };
}

/** The evaluation itself: pass@1 and pass@k, the reports asked for, printed as text or JSON. */
async function evaluateCheckpoint(
  trainer: Trainer,
  f: ParsedFlags,
  plan: EvalPlan,
  argv: readonly string[],
  adapter: string,
  out: (s: string) => void,
): Promise<number> {
  const { config, task, branchingG, matchedK, walksOut, walksFile } = plan;
  const { instances: heldOut, split } = trainer.heldOutSet(trainer.level, config.evalPrompts);
  const mismatch = walksFile && task.branching?.record?.mismatch(walksFile, heldOut);
  if (mismatch) throw new CliError(`--walks-out ${walksOut}: ${mismatch}`);
  const r = await trainer.evaluate();
  const splitInfo = splitReport(task, split, heldOut, await trainer.greedyCorrect(heldOut));
  // The same held-out prompts evaluate() scored, decoded greedily again.
  const breaks = f.breaks || f.json ? await diagnoseBreaks(task, trainer.engine, heldOut, config.seed) : null;
  const branching =
    branchingG > 0 ? await diagnoseBranching(task, trainer.engine, heldOut, branchingG, matchedK, config.seed) : null;
  if (branching && walksOut !== null) await recordWalks(trainer, plan, argv, heldOut, branching, walksOut);
  const result = {
    task: config.task,
    prompts: r.prompts,
    k: r.k,
    'pass@1': r['eval/pass@1_greedy'],
    'pass@1_sampled': r['eval/pass@1_sampled'],
    [`pass@${r.k}`]: r['eval/pass@k'],
    taskMetrics: r.taskMetrics,
    adapter,
    split: splitInfo,
    ...(breaks ? { [breaks.field]: breaks.value } : {}),
    ...(branching ? branching.json : {}),
  };
  if (f.json) out(JSON.stringify(result));
  else {
    out(
      `${config.task}: greedy pass@1 ${result['pass@1'].toFixed(3)}, sampled pass@1 ${r['eval/pass@1_sampled'].toFixed(3)}, pass@${r.k} ${r['eval/pass@k'].toFixed(3)} over ${r.prompts} prompts`,
    );
    for (const line of [...(breaks?.lines ?? []), ...(branching?.lines ?? [])]) out(line);
    // Which prompts these were comes last, so the figures asked for follow the summary line.
    for (const line of splitLines(splitInfo)) out(line);
  }
  return 0;
}

/** --walks-out: this checkpoint's walks added to the file, with the raw walks behind its figures. */
async function recordWalks(
  trainer: Trainer,
  plan: EvalPlan,
  argv: readonly string[],
  heldOut: TaskInstance[],
  run: BranchingRun,
  walksOut: string,
): Promise<void> {
  const { config, ck, path, task, walksFile, walksLabel } = plan;
  const record = task.branching?.record;
  if (!record) throw new CliError(`--walks-out: ${config.task} keeps no file of its answers`);
  const file = await record.add(walksFile, engineProbe(trainer.engine, config.seed), heldOut, run, {
    label: walksLabel,
    checkpoint: basename(path),
    trainedSteps: ck.trainedSteps,
    command: commandWithFileNames(argv),
    vocab: trainer.task.vocab(heldOut[0].params),
  });
  writeFileAtomic(walksOut, `${JSON.stringify(file)}\n`);
}

/** The walks file to add to: null when absent; a file that is not one is refused, not overwritten. */
function readWalksFile(task: Task, path: string): object | null {
  const record = task.branching?.record;
  if (!record) throw new CliError(`--walks-out: ${task.name} keeps no file of its answers`);
  if (!existsSync(path)) return null;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(
      `--walks-out ${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); name a new file or a file this flag wrote`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CliError(
      `--walks-out ${path}: not JSON (${(e as Error).message.replace(/\s+/g, ' ')}); name a new file or a file this flag wrote`,
    );
  }
  const file = record.parse(raw);
  if (typeof file === 'string')
    throw new CliError(`--walks-out ${path}: ${file}; name a new file or a file this flag wrote`);
  return file;
}

/** The command line for the file's record, files by name only (no folder of this machine). */
function commandWithFileNames(argv: readonly string[]): string {
  const fileFlags = new Set(['--checkpoint', '--walks-out']);
  const words = argv.map((w, i) => {
    const eq = w.indexOf('=');
    if (eq > 0 && fileFlags.has(w.slice(0, eq))) return `${w.slice(0, eq)}=${basename(w.slice(eq + 1))}`;
    return i > 0 && fileFlags.has(argv[i - 1]) ? basename(w) : w;
  });
  return `rlvr eval ${words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : JSON.stringify(w))).join(' ')}`;
}
