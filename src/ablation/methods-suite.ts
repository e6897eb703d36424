// The methods suite (`rlvr sweep --suite methods`, docs/leaderboard.md): every estimator and
// shaping against GRPO on a fixed set of small tasks, fixed seeds and fixed budgets. Pure: the
// suite is data, and each task becomes an ordinary ablation spec (./spec.ts) whose cells are the
// methods, GRPO first, so the statistics (./summary.ts) compare every method with GRPO and
// Holm's adjustment runs over the methods.

import { quoteInput, shortText } from '../core/quote';
import { ConfigError, type RunConfig } from '../config/config';
import { parseSetFlags } from '../config/knob-flags';
import { estimatorRows } from '../estimators';
import { getPreset, type PresetSolvedRule } from '../lessons/presets';
import { ablationRunConfig, cellDirName, type AblationCellSpec, type AblationSpec } from './spec';

/** One method: the knob values that turn it on, on top of the task's recipe. */
export interface SuiteMethod {
  label: string;
  set: Readonly<Record<string, string>>;
  /** Where it comes from (docs/methods.md names the papers). */
  source: string;
  /** Only on tasks whose recipe has a KL term (klBeta > 0): it changes the KL weight. */
  needsKl?: boolean;
}

/** One task: a preset, what the suite sets on it, its step budget and what "solved" means there. */
export interface SuiteTask {
  /** Short id: its folder under the suite's --out and its --tasks name. */
  id: string;
  /** How the leaderboard names it ("sorting"). */
  title: string;
  preset: string;
  sets: readonly string[];
  steps: number;
  solved: PresetSolvedRule;
  /** Compared at the end, the main one first. */
  metrics: readonly string[];
}

export interface Suite {
  name: string;
  methods: readonly SuiteMethod[];
  tasks: readonly SuiteTask[];
  seeds: readonly number[];
}

/** The label of the cell every method is compared with. */
export const BASELINE_LABEL = 'GRPO';

/** The label of the cell that runs a user's --estimator-file. */
export const CUSTOM_LABEL = 'your estimator';

/** The estimator table's rows with a suite cell (src/estimators/table.ts), in its order. */
function estimatorMethods(): SuiteMethod[] {
  return estimatorRows().flatMap((r) =>
    r.suite ? [{ label: r.title, set: { estimator: r.name, ...r.suite.set }, source: r.suite.source }] : [],
  );
}

const METHODS: readonly SuiteMethod[] = [
  { label: BASELINE_LABEL, set: {}, source: "GRPO (Shao et al. 2024), the recipe's own estimator" },
  { label: 'Dr. GRPO', set: { grpoScale: 'none' }, source: 'Dr. GRPO (Liu et al. 2025): no std division' },
  ...estimatorMethods(),
  { label: 'GCS', set: { gcsSigma: '0.25' }, source: 'GCS (the EXPO paper), σ = 0.25' },
  { label: 'Cue-GRPO', set: { cueGamma: '0.5' }, source: 'Cue-GRPO, γ = 0.5' },
  { label: 'EDAS', set: { edasGamma: '0.5' }, source: 'EDAS, γ = 0.5' },
  { label: 'EAPO', set: { tokenCredit: 'eapo' }, source: 'EAPO token credit (the seed paper)' },
  {
    label: 'AKL',
    set: { aklSharpness: '8' },
    source: "AKL (the EXPO paper), k = 8, on the recipe's β_KL",
    needsKl: true,
  },
];

// Budgets sized so that the whole suite fits a few hours on two cores (docs/leaderboard.md).
const TASKS: readonly SuiteTask[] = [
  {
    // Five letters from {a, b, c, d}: sort-easy's model and recipe on 1,024 sequences, of which the
    // split holds out about 100 (sort-easy's own 3 of 3 has 27, and one held out). Seed 0's GRPO
    // run reached held-out greedy pass@1 0.84 at step 300 on the CPU engine, hence 500 steps.
    id: 'sorting',
    title: 'sorting',
    preset: 'sort-easy',
    sets: ['task.length=5', 'task.alphabet=4', 'evalEvery=25', 'evalPrompts=64'],
    steps: 500,
    solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
    metrics: ['eval/pass@1_greedy', 'reward', 'entropy'],
  },
  {
    // S3 chains of length 4 with room to think: the flagship's recipe (interleaved layout, a
    // running product per element, length curriculum from 1) ending at length 4.
    id: 's3-chains',
    title: 'S3 chains of length 4',
    preset: 'cot-discovery',
    sets: ['task.length=4', 'evalEvery=25'],
    steps: 500,
    solved: { metric: 'eval/pass@1_greedy', target: 0.9, level: 4 },
    metrics: ['level', 'eval/pass@1_greedy', 'reward', 'entropy'],
  },
  {
    // 4×4 mazes from the shipped base model (maze-base-rl's recipe and init), 16 mazes × 4 walks a
    // step without dynamic sampling: a quarter of the recipe's sampling, so that the all-equal
    // groups the group-level methods differ on are left in the batch.
    id: 'mazes',
    title: '4×4 mazes',
    preset: 'maze-base-rl',
    sets: ['batchPrompts=16', 'dynamicSampling=false', 'lrDropStep=0'],
    steps: 300,
    solved: { metric: 'eval/pass@1_greedy', target: 0.9, level: 4 },
    metrics: ['level', 'eval/pass@1_greedy', 'reward', 'entropy'],
  },
];

export const SUITES: Readonly<Record<string, Suite>> = {
  methods: { name: 'methods', methods: METHODS, tasks: TASKS, seeds: [0, 1, 2, 3, 4, 5] },
};

export const SUITE_NAMES = Object.keys(SUITES);

export function getSuite(name: string): Suite {
  const s = SUITES[name];
  if (!s) throw new ConfigError('suite', `--suite must be one of ${SUITE_NAMES.join(', ')}; got ${quoteInput(name)}`);
  return s;
}

/** What a user may change of a suite: a subset of tasks and methods, seeds, budgets, extra sets, own code. */
export interface SuiteOptions {
  /** Task ids to run (default: all). */
  tasks?: readonly string[];
  /** Method labels to run (default: all); GRPO is always kept, as the baseline. */
  methods?: readonly string[];
  seeds?: readonly number[];
  /** One budget for every task instead of each task's own (for a quick look; the leaderboard says so). */
  steps?: number;
  /** `key=value` for every run, after the task's own. */
  sets?: readonly string[];
  /** `--set` entries carrying the user's code (codeSets): adds the "your estimator" cell. */
  customSets?: readonly string[];
  /** A checkpoint every run starts from instead of each task's preset init (rarely wanted). */
  init?: string | null;
}

function pick<T>(all: readonly T[], names: readonly string[] | undefined, nameOf: (t: T) => string, what: string): T[] {
  if (names === undefined) return [...all];
  const out: T[] = [];
  for (const n of names) {
    const found = all.find((t) => nameOf(t) === n);
    if (!found)
      throw new ConfigError(what, `--${what}: ${quoteInput(shortText(n))} is not one of ${all.map(nameOf).join(', ')}`);
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

/** The suite's methods after --methods, GRPO first whatever the order given. */
export function suiteMethods(suite: Suite, names?: readonly string[]): SuiteMethod[] {
  const chosen = pick(suite.methods, names, (m) => m.label, 'methods');
  const base = suite.methods.find((m) => m.label === BASELINE_LABEL)!;
  return [base, ...chosen.filter((m) => m !== base)];
}

export function suiteTasks(suite: Suite, ids?: readonly string[]): SuiteTask[] {
  return pick(suite.tasks, ids, (t) => t.id, 'tasks');
}

/** One task of the suite as an ablation: its spec, its cells (GRPO first) and the methods left out there. */
export interface SuiteTaskPlan {
  task: SuiteTask;
  spec: AblationSpec;
  cells: AblationCellSpec[];
  /** Methods that do not apply to this task, with why. */
  skipped: { label: string; why: string }[];
}

/** The ablation of one task: every applicable method, on the suite's seeds and the task's budget. */
export function suiteTaskPlan(suite: Suite, task: SuiteTask, options: SuiteOptions = {}): SuiteTaskPlan {
  const sets = [...task.sets, ...(options.sets ?? []), ...(options.customSets ?? [])];
  const preset = getPreset(task.preset);
  const spec: AblationSpec = {
    preset: task.preset,
    variants: [],
    grid: [],
    seeds: [...(options.seeds ?? suite.seeds)],
    steps: options.steps ?? task.steps,
    sets,
    solved: task.solved,
    metrics: [...task.metrics],
    init: options.init !== undefined ? options.init : (preset.init ?? null),
  };
  const methods: SuiteMethod[] = suiteMethods(suite, options.methods);
  // A --set over a knob a method sets would make it a different method, or GRPO another one.
  const given = parseSetFlags(options.sets ?? []);
  for (const m of [...suite.methods, { label: CUSTOM_LABEL, set: { estimator: 'custom' } }]) {
    for (const key of Object.keys(m.set)) {
      if (key in given)
        throw new ConfigError(
          key,
          `--set ${key}: the suite's method ${m.label} sets it; a suite runs each method as defined`,
        );
    }
  }
  // The recipe as the task runs it: whether it has a KL term decides AKL's cell.
  const base = ablationRunConfig(spec, { label: BASELINE_LABEL, dir: 'GRPO', set: {} }, spec.seeds[0]);
  if (base.estimator !== 'grpo')
    throw new ConfigError(
      'suite',
      `suite task ${task.id}: its recipe's estimator is ${base.estimator}, not grpo, so GRPO is not its baseline`,
    );
  if (options.customSets?.length)
    methods.push({ label: CUSTOM_LABEL, set: { estimator: 'custom' }, source: 'your --estimator-file' });
  const cells: AblationCellSpec[] = [];
  const skipped: { label: string; why: string }[] = [];
  for (const m of methods) {
    if (m.needsKl && !(base.klBeta > 0)) {
      skipped.push({ label: m.label, why: 'the recipe has no KL term (β_KL 0)' });
      continue;
    }
    const cell: AblationCellSpec = { label: m.label, dir: cellDirName(m.label), set: { ...m.set } };
    checkCell(spec, cell, task);
    cells.push(cell);
  }
  return { task, spec, cells, skipped };
}

function checkCell(spec: AblationSpec, cell: AblationCellSpec, task: SuiteTask): RunConfig {
  try {
    return ablationRunConfig(spec, cell, spec.seeds[0]);
  } catch (e) {
    if (e instanceof ConfigError)
      throw new ConfigError(e.knob, `suite task ${task.id}, method ${cell.label}: ${e.message}`);
    throw e;
  }
}
