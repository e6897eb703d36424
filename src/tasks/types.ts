// The task interface shared by every RLVR task (pure data + pure functions; no GPU, no DOM).
//
// A task turns parameters into a vocabulary, samples instances (a prompt plus a template for the
// completion region) and scores completions. Instances are plain JSON so a worker can post them
// and the CLI can print them and read them back.

import type { SampleResult } from '../core/abi';
import type { Rng } from '../core/random';
import type { PictureAnswers, RecordedPictures, TaskPicture } from './picture';

/** Special tokens at fixed ids in every task vocabulary; task tokens start at NUM_SPECIAL. */
export const PAD = 0;
export const BOS = 1;
export const SEP = 2;
export const EOS = 3;
export const NUM_SPECIAL = 4;
export const SPECIAL_TOKENS: readonly string[] = ['<pad>', '<bos>', '<sep>', '<eos>'];

export type ParamKind = 'int' | 'enum' | 'string';
export type ParamValue = number | string;

/** One documented parameter (difficulty knob). Plain data: the config table imports it. */
export interface ParamSpec {
  readonly name: string;
  readonly kind: ParamKind;
  readonly default: ParamValue;
  /** Inclusive bounds of an int parameter. */
  readonly min?: number;
  readonly max?: number;
  /** Every allowed value of an enum or string parameter. */
  readonly values?: readonly string[];
  /** Compact description of the allowed values, used in error messages when `values` is long. */
  readonly allowed?: string;
  /** One sentence: meaning, and the source where relevant. */
  readonly doc: string;
}

/** Resolved parameters of a task (every spec filled in). */
export type TaskParams = Record<string, ParamValue>;

/**
 * One sampled problem. `promptTokens` starts with BOS. The completion region has
 * `completionLength` positions (EOS included); `fixed[i]` is the token the environment writes at
 * completion position i, or null where the policy samples. `answerTokens` is one correct
 * completion over the whole region (fixed positions included), ending with EOS.
 */
export interface TaskInstance {
  task: string;
  params: TaskParams;
  promptTokens: number[];
  promptText: string;
  completionLength: number;
  fixed: (number | null)[];
  answerTokens: number[];
  answerText: string;
}

/** Small JSON object explaining a verdict (shown in the rollout inspector). */
export type VerifyDetails = Record<string, string | number | boolean | null | number[]>;

export interface VerifyResult {
  /** In [0, 1]. */
  reward: number;
  correct: boolean;
  details: VerifyDetails;
}

/** Sequence lengths, which depend only on the parameters (never on the instance). */
export interface SequenceShape {
  promptLength: number;
  completionLength: number;
}

/**
 * A table a policy learns, read off in one greedy batch: cell (a, x) is the policy's answer to
 * prompt(a, x). groupmul's interleaved layout has one: y_t depends only on y_{t−1} and x_t, so
 * the answer after [BOS, a, a, x] is the policy's product a·x, a learned Cayley table.
 */
export interface TableProbe {
  /** Labels of the rows and columns (they share them), index = element id. */
  readonly labels: readonly string[];
  /** The token of element i (what an answer is read as). */
  readonly tokens: readonly number[];
  /** The sequence before the answer for cell (a, x), BOS first; the same length for every cell. */
  prompt(a: number, x: number): number[];
  /** The right answer of cell (a, x), an element id. */
  readonly truth: readonly (readonly number[])[];
}

/** A metric's display name, what it measures, and its unit or range (the config's metric table reads the tasks' ones). */
export interface MetricSpec {
  /** The display name. */
  readonly name: string;
  /** What it measures, in one sentence. */
  readonly doc: string;
  /** Unit or range, for axis titles ("0–1", "nats/token"). */
  readonly unit?: string;
  /**
   * What its values are: a share in [0, 1] (its intervals are cut to [0, 1]), or a count of a
   * group's answers, 0 to G (the task chart's axis is then answers, from 0). Absent: neither.
   */
  readonly scale?: MetricScale;
  /**
   * Whether the task chart draws it and the latest numbers show it (default: drawn). false: kept in
   * the records and the CSV only (an alternative measure, or a share beside the count a chart is named after).
   */
  readonly charted?: boolean;
}

/** See MetricSpec.scale. */
export type MetricScale = 'share' | 'count';

/**
 * A task's own picture of its answers (src/tasks/picture.ts has the pictures' data): built in the
 * task's folder, drawn by the page by the picture's kind. Absent: the page draws token rows.
 */
export interface PictureHook<I extends TaskInstance = TaskInstance> {
  /** The picture of one group: one instance and its G answers. */
  group(instance: I, answers: PictureAnswers): TaskPicture;
  /** A recorded answers file read for the page's side-by-side view (a lesson's `walks`); absent: none. */
  readonly recorded?: RecordedPictures;
}

/** A prompt in words, for people: what is asked, of what, and a right answer. */
export interface PromptWords {
  prompt: string;
  question: string;
  answer: string;
}

/** A plain sentence about one answer, and where it went wrong. */
export interface AnswerNote {
  text: string;
  /** Completion position of the token where the answer went wrong, or null. */
  at: number | null;
}

/**
 * How the page shows a task: plain data and pure functions, no React (the components are src/ui's,
 * picked by the kind of picture the task gives). The page asks these and never compares a task's name.
 */
export interface TaskDisplay<P extends TaskParams = TaskParams, I extends TaskInstance = TaskInstance> {
  /** The picture of a group of answers; absent: token rows. */
  readonly picture?: PictureHook<I>;
  /** How the task's (non-special) tokens read, e.g. an element's name or a move's arrow; absent: the vocabulary text. */
  tokenWords?(instance: I): (token: number, raw: string) => string;
  /** The prompt in words; absent: the prompt's and the answer's tokens. */
  promptWords?(instance: I, vocab: readonly string[]): PromptWords;
  /** A sentence about one answer given its verdict (null before the verifier ran), or null. */
  answerNote?(
    instance: I,
    vocab: readonly string[],
    completion: readonly number[],
    correct: boolean | null,
  ): AnswerNote | null;
  /** Readable names for a table probe's labels; absent: the labels. */
  tableNames?(params: P, labels: readonly string[]): readonly string[];
  /** The group metric that names the task chart before any data arrives. */
  readonly headlineMetric?: string;
  /** Whether the task chart has something to draw at these parameters; absent: whenever the task has group metrics. */
  hasTaskChart?(params: P): boolean;
  /**
   * Whether the verifier at these parameters passes answers that are not right (a proxy), so
   * that the verifier chart draws its pass against the task's true pass (task/true_pass); absent: never.
   */
  proxyVerifier?(params: P): boolean;
  /** The environment writes the end, so every answer has the same length (the length chart is idle). */
  readonly fixedLength?: boolean;
}

/** A batch as a probe lays it out: B prompts × G answers = N sequences of T = Lp + Lc tokens. */
export interface ProbeShape {
  B: number;
  G: number;
  N: number;
  Lp: number;
  Lc: number;
  T: number;
}

/** Sequences [N·T] with each token's log-prob and the sampler's entropy there; answer g of prompt b is row n = b·G + g, its completion at n·T + Lp. */
export interface ProbeSample extends SampleResult {
  shape: ProbeShape;
}

/**
 * The model access a task's diagnosis needs, passed in (src/rl/diagnose.ts gives an engine's at a
 * seed), so that the task stays pure and imports nothing above core.
 */
export interface PolicyProbe {
  /** One greedy answer per instance (G = 1). */
  greedy(instances: readonly TaskInstance[]): Promise<ProbeSample>;
  /** G answers per instance sampled at temperature 1 (the policy as it explores). */
  sample(instances: readonly TaskInstance[], G: number): Promise<ProbeSample>;
  /** [N·T] row r: log p of targets[r] as the token at r + 1, teacher-forced on tokens (targets −1: not scored). */
  logProbs(tokens: Int32Array, targets: Int32Array, N: number, T: number): Promise<Float32Array>;
}

/** A diagnosis as `rlvr eval` prints it: plain-text lines, and one field of its --json output. */
export interface TaskReport {
  /** The --json field (e.g. "chainBreaks"). */
  field: string;
  value: unknown;
  lines: string[];
}

/** Where greedy answers first go wrong (`rlvr eval --breaks`). */
export interface TaskBreaks<I extends TaskInstance = TaskInstance> {
  /** What breaks, plural, for messages ("chains", "walks"). */
  readonly what: string;
  report(probe: PolicyProbe, instances: readonly I[]): Promise<TaskReport>;
}

/** G sampled answers per prompt, measured (`rlvr eval --branching G`): the report, and what a record of them keeps. */
export interface BranchingRun {
  /** The --json fields. */
  json: Record<string, unknown>;
  lines: string[];
  /** Handed back to `TaskBranching.record`. */
  measured: unknown;
}

/** The file `rlvr eval --branching G --walks-out FILE` adds each model's answers to. */
export interface AnswerRecord<I extends TaskInstance = TaskInstance> {
  /** The file as read; a string says why it is not one. */
  parse(raw: unknown): object | string;
  /** Why these instances are not the file's, or null. */
  mismatch(file: object, instances: readonly I[]): string | null;
  /** The file (null: a new one) with this model's answers added; the probe gives whatever more the record keeps. */
  add(
    file: object | null,
    probe: PolicyProbe,
    instances: readonly I[],
    run: BranchingRun,
    model: { label: string; checkpoint: string; trainedSteps: number; command: string; vocab: readonly string[] },
  ): Promise<object>;
}

/** How sampled answers branch (`rlvr eval --branching G`: BODHI's measurements). */
export interface TaskBranching<I extends TaskInstance = TaskInstance> {
  /** What branches, plural, for messages ("walks"). */
  readonly what: string;
  /** The default matched count (--matched-k). */
  readonly matchedK: number;
  measure(probe: PolicyProbe, instances: readonly I[], G: number, k: number): Promise<BranchingRun>;
  readonly record?: AnswerRecord<I>;
}

// Methods (not function-valued properties) so that a concrete Task<P, I> is assignable to Task.
export interface Task<P extends TaskParams = TaskParams, I extends TaskInstance = TaskInstance> {
  readonly name: string;
  /** One line for lists and tooltips. */
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  /** Constraints between parameters; throws TaskParamError naming the parameter. */
  checkParams?(params: P): void;
  /** id → token text; ids 0..3 are the special tokens. */
  vocab(params: P): string[];
  shape(params: P): SequenceShape;
  sample(rng: Rng, params: P): I;
  /** Total: any token array (empty, too long, garbage ids) gives a reward in [0, 1]; never throws. */
  verify(instance: I, completion: readonly number[]): VerifyResult;
  /** Metrics over the G completions of one prompt; a metric with no meaning for a group is omitted. */
  groupMetrics?(instance: I, completions: readonly (readonly number[])[]): Record<string, number>;
  /** The names and meanings of those metrics, by key (a run records them as task/<key>). */
  readonly metrics?: Readonly<Record<string, MetricSpec>>;
  /**
   * The canonical keys of an instance for the train/held-out split (src/tasks/split.ts): what
   * the instance is, independent of how its prompt is written (a maze's grid, and its grid with
   * S and G). The instance is held out when any key's hash falls in the held-out share. Absent:
   * the prompt and fixed completion tokens.
   */
  splitKeys?(instance: I): Record<string, string>;
  /** Which strategy a completion follows, so estimators can cluster solutions. Total. */
  signature(instance: I, completion: readonly number[]): string;
  /** A label for the kind of mistake (e.g. the wrong final answer); "correct" when correct. Total. */
  errorSignature(instance: I, completion: readonly number[]): string;
  /** Rebuilds an instance from JSON (e.g. CLI input); throws TaskInstanceError naming the field. */
  fromJSON(raw: unknown): I;
  /**
   * A base model's completion: plausible for the task and uninformed by the reward (mazes: a
   * random legal walk that never looks at the goal), ending with EOS (as answerTokens).
   * The warm start trains on these with sftData = base, so that RL starts from a model that
   * already reads the prompt and branches. Absent: the task has no base data.
   */
  baseCompletion?(rng: Rng, instance: I): number[];
  /** What a warm start on the base completions teaches, a few words after "base model" (maze: "learns to walk"). */
  readonly baseLesson?: string;
  /** The table a policy for these parameters learns (see TableProbe), or null when they have none. */
  tableProbe?(params: P): TableProbe | null;
  /** How the page shows the task. */
  readonly display: TaskDisplay<P, I>;
  /** Where greedy answers first go wrong, asked of a model through a probe; absent: no such report. */
  readonly breaks?: TaskBreaks<I>;
  /** How sampled answers branch; absent: no such report. */
  readonly branching?: TaskBranching<I>;
}

/** A bad parameter value; the message names the parameter and the allowed range. */
export class TaskParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'TaskParamError';
  }
}

/** A malformed instance (e.g. from JSON); the message names the field. */
export class TaskInstanceError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'TaskInstanceError';
  }
}
