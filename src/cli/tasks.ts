// `rlvr tasks …`: list tasks, sample instances, verify completions (JSON lines in and out).

import { createInterface } from 'node:readline';
import { makeRng, STREAM } from '../core/random';
import { commonFlag } from '../core/common-flags';
import type { FlagSpec } from '../core/flags';
import { allowedText, parseParams, rangeText } from '../tasks/params';
import { getTask, instanceFromJSON, TASK_NAMES, TASKS } from '../tasks/registry';
import { textToTokens } from '../tasks/tokens';
import { heldOutBy, sampleSplit, SPLITS, splitOf, type Split } from '../tasks/split';
import type { Task } from '../tasks/types';

export interface TasksIo {
  stdin: NodeJS.ReadableStream;
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

const USAGE = `usage:
  rlvr tasks list [--json]
  rlvr tasks sample --task NAME [--param key=value ...] [--n N] [--seed S] [--split train|heldout] [--json]
                                 --split: only that part of the task's train/held-out split (default: both)
  rlvr tasks verify [--json]     reads {"instance": …, "completionText": "…"} lines on stdin
tasks: ${TASK_NAMES.join(', ')}`;

/** Each subcommand's flags (what `parseFlags` below allows, and what shell completion offers). */
export const TASKS_FLAGS: Readonly<Record<'list' | 'sample' | 'verify', Readonly<Record<string, FlagSpec>>>> = {
  list: { json: commonFlag('json') },
  sample: {
    task: { kind: 'value', doc: 'the task', values: TASK_NAMES },
    param: { kind: 'multi', doc: 'a task parameter, key=value (repeatable)' },
    n: { kind: 'value', doc: 'instances to sample' },
    seed: commonFlag('seed'),
    split: { kind: 'value', doc: "only that part of the task's train/held-out split", values: SPLITS },
    json: commonFlag('json'),
  },
  verify: { json: commonFlag('json') },
};

/** A command-line mistake: reported with the usage and exit code 2. */
class UsageError extends Error {}

interface Flags {
  json: boolean;
  task?: string;
  params: Record<string, string>;
  n?: string;
  seed?: string;
  split?: string;
}

/** Parses `--flag value`, `--flag=value` and the boolean `--json`; the command's TASKS_FLAGS are the valid ones. */
function parseFlags(args: readonly string[], command: keyof typeof TASKS_FLAGS): Flags {
  const allowed = Object.keys(TASKS_FLAGS[command]);
  const flags: Flags = { json: false, params: {} };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const m = /^--([A-Za-z]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new UsageError(`tasks ${command}: unexpected argument ${JSON.stringify(arg)}`);
    const name = m[1];
    if (!allowed.includes(name)) {
      throw new UsageError(
        `tasks ${command}: unknown flag --${name}; allowed: ${allowed.map((f) => `--${f}`).join(', ')}`,
      );
    }
    if (name === 'json') {
      if (m[2] !== undefined) throw new UsageError(`tasks ${command}: --json takes no value`);
      flags.json = true;
      continue;
    }
    let value = m[2];
    if (value === undefined) {
      if (i + 1 >= args.length || args[i + 1].startsWith('--')) {
        throw new UsageError(`tasks ${command}: --${name} needs a value`);
      }
      value = args[++i];
    }
    if (name === 'param') {
      const eq = value.indexOf('=');
      if (eq <= 0)
        throw new UsageError(`tasks ${command}: --param must look like key=value, got ${JSON.stringify(value)}`);
      flags.params[value.slice(0, eq)] = value.slice(eq + 1);
    } else if (name === 'task' || name === 'n' || name === 'seed' || name === 'split') {
      flags[name] = value;
    }
  }
  return flags;
}

function parseIntFlag(value: string | undefined, name: string, lo: number, hi: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < lo || n > hi) {
    throw new UsageError(`--${name} must be an integer in [${lo}, ${hi}], got ${JSON.stringify(value)}`);
  }
  return n;
}

function list(flags: Flags, io: TasksIo): void {
  const tasks = TASK_NAMES.map((name) => {
    const task: Task = TASKS[name];
    return { name, summary: task.summary, params: task.params };
  });
  if (flags.json) {
    io.stdout(JSON.stringify(tasks));
    return;
  }
  for (const t of tasks) {
    io.stdout(`${t.name}: ${t.summary}`);
    for (const p of t.params) {
      const allowed = p.kind === 'int' ? rangeText(p) : allowedText(p);
      io.stdout(`  ${p.name} = ${p.default}  (${allowed})  ${p.doc}`);
    }
  }
}

function sample(flags: Flags, io: TasksIo): void {
  if (flags.task === undefined) throw new UsageError(`tasks sample: --task is required (${TASK_NAMES.join(', ')})`);
  let task: Task;
  try {
    task = getTask(flags.task);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const n = parseIntFlag(flags.n, 'n', 1, 100_000, 1);
  const seed = parseIntFlag(flags.seed, 'seed', 0, 2 ** 32 - 1, 0);
  let params;
  try {
    params = parseParams(task, flags.params);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (flags.split !== undefined && !(SPLITS as readonly string[]).includes(flags.split)) {
    throw new UsageError(`--split must be one of ${SPLITS.join(', ')}, got ${JSON.stringify(flags.split)}`);
  }
  const only = flags.split as Split | undefined;
  const rng = makeRng(seed, STREAM.tasks);
  for (let i = 0; i < n; i++) {
    let instance;
    try {
      instance = only ? sampleSplit(task, rng, params, only) : task.sample(rng, params);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const split = splitOf(task, instance);
    if (flags.json) {
      const { promptText, answerText, promptTokens } = instance;
      io.stdout(
        JSON.stringify({ instance, promptText, answerText, promptTokens, split, heldOutBy: heldOutBy(task, instance) }),
      );
    } else {
      io.stdout(`${instance.promptText}  →  ${instance.answerText}${only ? '' : `  [${split}]`}`);
    }
  }
}

/** One input line → one output line; a bad line reports its number and the others go on. */
function verifyLine(line: string, lineNo: number, json: boolean): { text: string; ok: boolean } {
  const fail = (message: string): { text: string; ok: boolean } => ({
    text: json ? JSON.stringify({ line: lineNo, error: message }) : `line ${lineNo}: error: ${message}`,
    ok: false,
  });
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (err) {
    return fail(`not valid JSON (${(err as Error).message})`);
  }
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return fail('expected an object {"instance": …, "completionText": "…"}');
  }
  const { instance: rawInstance, completionText, completionTokens } = input as Record<string, unknown>;
  let instance;
  try {
    instance = instanceFromJSON(rawInstance);
  } catch (err) {
    return fail((err as Error).message);
  }
  const task = getTask(instance.task);
  let tokens: number[];
  if (typeof completionText === 'string') {
    // Only the completion region is verified: tokenize no further than its length.
    tokens = textToTokens(task.vocab(instance.params), completionText, instance.completionLength);
  } else if (Array.isArray(completionTokens) && completionTokens.every((t) => typeof t === 'number')) {
    tokens = (completionTokens as number[]).slice(0, instance.completionLength);
  } else {
    return fail('completionText must be a string of space-separated tokens (or completionTokens an array of ids)');
  }
  const { reward, correct } = task.verify(instance, tokens);
  return { text: json ? JSON.stringify({ reward, correct }) : `reward ${reward} correct ${correct}`, ok: true };
}

async function verify(flags: Flags, io: TasksIo): Promise<number> {
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  let lineNo = 0;
  let failures = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    const out = verifyLine(line, lineNo, flags.json);
    io.stdout(out.text);
    if (!out.ok) failures++;
  }
  if (failures > 0) io.stderr(`tasks verify: ${failures} of ${lineNo} line(s) could not be verified`);
  return failures > 0 ? 1 : 0;
}

/**
 * Entry point for `rlvr tasks …` (args after "tasks"). Returns the exit code: 0 ok, 1 some input
 * lines failed (verify), 2 bad command line.
 */
export async function tasksCommand(args: string[], io: TasksIo): Promise<number> {
  const [command, ...rest] = args;
  // `--help` anywhere (`tasks sample --help`) shows the usage, as the top-level usage promises.
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(USAGE);
    return 0;
  }
  try {
    switch (command) {
      case 'list':
        list(parseFlags(rest, 'list'), io);
        return 0;
      case 'sample':
        sample(parseFlags(rest, 'sample'), io);
        return 0;
      case 'verify':
        return await verify(parseFlags(rest, 'verify'), io);
      case '--help':
      case '-h':
      case 'help':
        io.stdout(USAGE);
        return 0;
      default:
        throw new UsageError(
          command === undefined ? 'tasks: missing command' : `tasks: unknown command ${JSON.stringify(command)}`,
        );
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`error: ${err.message}`);
    io.stderr(USAGE);
    return 2;
  }
}
