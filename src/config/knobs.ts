// THE knob table: every setting of a run, documented once (docs/architecture.md).
//
// UI controls, URL state, CLI `--set key=value` flags, validation and docs/knobs.md are all
// generated from this table. Keys are flat, URL-friendly and stable: renaming one breaks saved
// URLs, presets and scripts, so add new keys instead.
//
// Defaults are sized for a ~30K-parameter GPT-2 learning in a browser tab, and each doc says why
// the default is what it is (nanoGPT style). Docs follow TRL's GRPOConfig: meaning, default,
// paper, recommendation. Task parameters are not listed here: they come from each task's
// ParamSpec table (src/tasks) as `task.<param>` knobs, see `taskKnobs`.

import { getTask, isTaskName, TASK_NAMES, TASKS, type TaskName } from '../tasks/registry';
import type { ParamSpec } from '../tasks/types';
import { ESTIMATOR_TEMPLATE, MAX_CODE_LENGTH, REWARD_TEMPLATE } from './user-code';
import {
  ESTIMATORS,
  GROUP_ESTIMATORS,
  GRPO_SCALES,
  estimatorRows,
  type Estimator,
  type GrpoScale,
} from '../estimators';

/** `code`: the source of a function the run calls (src/config/user-code.ts), kept exactly as written. */
export type KnobKind = 'int' | 'float' | 'enum' | 'bool' | 'code';
export type KnobValue = number | string | boolean;

export type Section =
  | 'run'
  | 'task'
  | 'model'
  | 'sampling'
  | 'optim'
  | 'advantage'
  | 'loss'
  | 'regularisation'
  | 'curriculum'
  | 'warmstart'
  | 'eval';

/**
 * When a knob has an effect: every listed knob must hold one of the listed values (or, with
 * `not`, none of them). Used to grey out inert controls and in the docs.
 */
export type KnobCondition = Readonly<Record<string, readonly KnobValue[] | { readonly not: readonly KnobValue[] }>>;

export interface KnobSpec {
  /** Flat, stable key used by URLs, presets, config files and `--set key=value`. */
  readonly key: string;
  readonly kind: KnobKind;
  readonly default: KnobValue;
  /** Inclusive bounds of an int or float knob. */
  readonly min?: number;
  readonly max?: number;
  /** Every allowed value of an enum knob. */
  readonly values?: readonly string[];
  /** Compact description of the allowed values, for messages when `values` is long. */
  readonly allowed?: string;
  /** A UI slider should be logarithmic (only on knobs whose min is > 0). */
  readonly log?: boolean;
  readonly section: Section;
  /** Short name for controls and run labels ("ε_high"). */
  readonly label: string;
  /** One or two sentences: what it does, why this default, what to try. */
  readonly doc: string;
  /** Paper or tool the knob comes from. */
  readonly source?: string;
  /** The knob only has an effect under these conditions. */
  readonly when?: KnobCondition;
}

export interface SectionSpec {
  readonly id: Section;
  readonly title: string;
  readonly doc: string;
}

/** Sections in display order. */
export const SECTIONS: readonly SectionSpec[] = [
  { id: 'run', title: 'Run', doc: 'Seed and length of the run.' },
  {
    id: 'task',
    title: 'Task',
    doc: "The task and its own parameters (`task.<param>`, from the task's spec table in src/tasks; only the chosen task's parameters are valid).",
  },
  {
    id: 'model',
    title: 'Model',
    doc: 'GPT-2 policy size. The vocabulary size and the number of positions are not knobs: they are derived from the task at its configured parameters (vocab = task.vocab(params).length, positions = prompt + completion length), so a checkpoint always matches its task.',
  },
  {
    id: 'sampling',
    title: 'Sampling',
    doc: 'How rollouts are drawn: B prompts, G completions each (N = B·G sequences per step).',
  },
  { id: 'optim', title: 'Optimiser', doc: 'AdamW and the PPO-style update schedule over one batch of rollouts.' },
  { id: 'advantage', title: 'Advantage', doc: 'How rewards become per-token advantages (docs/estimators.md).' },
  {
    id: 'loss',
    title: 'Loss',
    doc: 'Clipped surrogate, KL to a reference, aggregation, and DAPO-style batch shaping.',
  },
  { id: 'regularisation', title: 'Regularisation', doc: 'Entropy bonus, fixed or adaptive.' },
  { id: 'curriculum', title: 'Curriculum', doc: 'Moves one integer task parameter up as the policy masters it.' },
  { id: 'warmstart', title: 'Warm start', doc: "Optional supervised steps on the task's reference answers before RL." },
  { id: 'eval', title: 'Evaluation', doc: 'Periodic evaluation on held-out prompts.' },
];

// The estimators' names, the group estimators and GRPO's scales come from the estimator table
// (src/estimators/table.ts); re-exported here for the knobs' users.
export { ESTIMATORS, GROUP_ESTIMATORS, GRPO_SCALES, type Estimator, type GrpoScale };

/** The `estimator` knob's doc: each row's prose, in the table's order, then custom's. */
function estimatorDoc(): string {
  const rows = estimatorRows().map((r) => `${r.name} ${r.doc}`);
  return `How rewards become advantages: ${rows.join('; ')}; custom your own code (customEstimator). GRPO is the field's default and the flagship's recipe.`;
}

/** The `estimator` knob's source: each row's paper, once, in the table's order. */
function estimatorSource(): string {
  return [...new Set(estimatorRows().map((r) => r.paper))].join('; ');
}

/** How a sequence's advantage spreads over its tokens. */
export const TOKEN_CREDITS = ['uniform', 'eapo'] as const;
export type TokenCredit = (typeof TOKEN_CREDITS)[number];

export const AGGREGATIONS = [
  'token-mean',
  'seq-mean-token-mean',
  'seq-mean-token-sum',
  'seq-mean-token-sum-norm',
] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** Integer parameter names over all tasks (candidate values of `curriculumParam`). */
function intParamNames(): string[] {
  const names: string[] = [];
  for (const name of TASK_NAMES) {
    for (const p of TASKS[name].params) if (p.kind === 'int' && !names.includes(p.name)) names.push(p.name);
  }
  return names;
}

const CURRICULUM_PARAMS = intParamNames();

// The table. `as const` keeps the literal enum values so the RunConfig type can be checked
// against it (config.ts); `satisfies` keeps every entry a valid KnobSpec.
export const STATIC_KNOBS = [
  // ── run ──────────────────────────────────────────────────────────────────────────────
  {
    key: 'seed',
    kind: 'int',
    default: 1,
    min: 0,
    max: 4294967295,
    section: 'run',
    label: 'seed',
    doc: 'One u32 seed drives weight init, task sampling and the GPU token sampler (keyed by seed, step, sequence, position), so the same seed on the same adapter replays the run exactly. Change only the seed to measure run-to-run noise before trusting a difference.',
  },
  {
    key: 'steps',
    kind: 'int',
    default: 0,
    min: 0,
    max: 10000000,
    section: 'run',
    label: 'steps',
    doc: 'RL steps to run; 0 = until stopped (the playground default: watch and pause). Set a number for headless runs and comparisons; the learning rate has no decay, so it does not depend on this.',
  },
  // ── task ─────────────────────────────────────────────────────────────────────────────
  {
    key: 'task',
    kind: 'enum',
    default: 'groupmul',
    values: TASK_NAMES,
    section: 'task',
    label: 'task',
    doc: "The RLVR task (src/tasks). groupmul, iterated group multiplication with a last-token reward, is the flagship: a transformer from scratch discovers a chain of thought for it. Switching task resets the task.<param> knobs to that task's defaults.",
    source: 'iterated group multiplication: the seed paper (docs/methods.md)',
  },
  // ── model ────────────────────────────────────────────────────────────────────────────
  {
    key: 'model.nEmbd',
    kind: 'int',
    default: 32,
    min: 4,
    max: 512,
    section: 'model',
    label: 'width C',
    doc: 'Residual width C; must be a multiple of 4 (the GPU kernels read 4 channels at a time) and of model.nHead. 32 with 2 layers is ~30K parameters: enough to learn S3 chains with a scratchpad, small enough for milliseconds per step.',
    source: 'GPT-2 (Radford et al. 2019)',
  },
  {
    key: 'model.nLayer',
    kind: 'int',
    default: 2,
    min: 1,
    max: 16,
    section: 'model',
    label: 'layers L',
    doc: 'Transformer blocks L. Two layers suffice for one group multiplication per chain-of-thought token; a 1-layer model is the fastest test fixture.',
    source: 'GPT-2 (Radford et al. 2019)',
  },
  {
    key: 'model.nHead',
    kind: 'int',
    default: 2,
    min: 1,
    max: 16,
    section: 'model',
    label: 'heads NH',
    doc: 'Attention heads NH; head_dim = C / NH. Two heads of 16 channels let one head read the previous product and another the next input element.',
    source: 'GPT-2 (Radford et al. 2019)',
  },
  {
    key: 'model.initStd',
    kind: 'float',
    default: 0.02,
    min: 0.001,
    max: 1,
    section: 'model',
    label: 'init std',
    doc: "Std of the normal initialisation of the weight matrices and embeddings (residual projections: init std / sqrt(2L)); HF initializer_range. 0.02 is GPT-2's. From scratch with a last-token reward, the first thing to learn (a product of two elements) is an interaction no single input predicts; its gradient grows with the weights, so a larger init (0.1, close to PyTorch's default for width 32) shortens the initial plateau. Above ~0.2 the tied head makes the initial policy confident and groups all-equal.",
    source: 'GPT-2 (Radford et al. 2019); HF GPT2Config initializer_range',
  },
  // ── sampling ─────────────────────────────────────────────────────────────────────────
  {
    key: 'batchPrompts',
    kind: 'int',
    default: 16,
    min: 1,
    max: 256,
    section: 'sampling',
    label: 'prompts B',
    doc: 'Prompts B per step. 16 prompts × 8 completions = 128 sequences: one cheap GPU submission, and enough groups that a few informative ones appear even at low pass rates.',
    source: 'TRL GRPOConfig (per_device_train_batch_size / num_generations)',
  },
  {
    key: 'groupSize',
    kind: 'int',
    default: 8,
    min: 1,
    max: 64,
    section: 'sampling',
    label: 'group G',
    doc: "Completions G sampled per prompt (a group). Group estimators compare each completion with its peers, so they need G ≥ 2; a larger G finds rare successes on hard prompts (pass rate p gives an informative group with probability 1 − p^G − (1−p)^G). 8 is TRL's default; use 16 for hard tasks.",
    source: 'GRPO (Shao et al. 2024); TRL GRPOConfig num_generations',
  },
  {
    key: 'temperature',
    kind: 'float',
    default: 1,
    min: 0.05,
    max: 5,
    section: 'sampling',
    label: 'temperature',
    doc: "Sampling temperature; the loss trains the same tempered policy, so any value stays on-policy. 1.0 keeps the model's own exploration; lower it only to study exploitation.",
    source: 'TRL GRPOConfig temperature',
  },
  {
    key: 'topK',
    kind: 'int',
    default: 0,
    min: 0,
    max: 4096,
    section: 'sampling',
    label: 'top-k',
    doc: 'Sample only among the k most likely tokens; 0 = off (≥ the vocabulary size is also off). Log-probs are those of the full tempered softmax, so top-k makes sampling slightly off-policy: keep it off for RL.',
    source: 'TRL GRPOConfig top_k',
  },
  // ── optim ────────────────────────────────────────────────────────────────────────────
  {
    key: 'lr',
    kind: 'float',
    default: 1e-3,
    min: 1e-6,
    max: 1,
    log: true,
    section: 'optim',
    label: 'lr',
    doc: 'AdamW learning rate (constant after warmup). 1e-3 is the safe value for tiny transformers trained from scratch (nanoGPT char-level); the 2-layer, width-32 flagship tolerates 3e-3. Pretrained LLM RL uses ~1e-6: not comparable.',
    source: 'AdamW (Loshchilov & Hutter 2019)',
  },
  {
    key: 'lrDropStep',
    kind: 'int',
    default: 0,
    min: 0,
    max: 100000,
    section: 'optim',
    label: 'lr drop at step',
    doc: 'After this RL step the learning rate becomes lr drop to (a one-step schedule); 0 = never. A run that has stopped improving at a constant lr may still climb once the lr is lowered (maze-base-rl: greedy 0.84–0.91 on the whole 4×4 over steps 2,600–3,000 at 1e-3, then 0.94–0.97 after 600 steps at 3e-4 against 0.92–0.94 after 600 more at 1e-3, 4 seeds; docs/results.md).',
    source: 'step decay of the learning rate (He et al. 2016); nanoGPT decays lr to a tenth',
  },
  {
    key: 'lrDropTo',
    kind: 'float',
    default: 3e-4,
    min: 1e-6,
    max: 1,
    log: true,
    section: 'optim',
    label: 'lr drop to',
    doc: 'The learning rate after lr drop at step (unused while that is 0). 3e-4: about a third of the default lr; the tail that kept every seed of maze-base-rl past 0.9 at every checkpoint after it.',
    source: 'step decay of the learning rate (He et al. 2016)',
  },
  {
    key: 'beta1',
    kind: 'float',
    default: 0.9,
    min: 0,
    max: 0.999,
    section: 'optim',
    label: 'β1',
    doc: 'Adam first-moment decay. 0.9 is the standard.',
    source: 'Adam (Kingma & Ba 2015)',
  },
  {
    key: 'beta2',
    kind: 'float',
    default: 0.99,
    min: 0,
    max: 0.99999,
    section: 'optim',
    label: 'β2',
    doc: "Adam second-moment decay. 0.99 (nanoGPT's choice for small models) adapts faster than 0.999 to the shifting gradient scale of RL, where the batch changes every step.",
    source: 'Adam (Kingma & Ba 2015); nanoGPT',
  },
  {
    key: 'adamEps',
    kind: 'float',
    default: 1e-8,
    min: 1e-12,
    max: 1e-2,
    log: true,
    section: 'optim',
    label: 'Adam ε',
    doc: 'Adam denominator epsilon. 1e-8 is the standard; raise it (1e-6) if updates of rarely-used parameters explode.',
    source: 'Adam (Kingma & Ba 2015)',
  },
  {
    key: 'weightDecay',
    kind: 'float',
    default: 0,
    min: 0,
    max: 1,
    section: 'optim',
    label: 'weight decay',
    doc: 'Decoupled weight decay on matrices (not on biases, LayerNorm gains or position embeddings, per the layout table). 0: on a tiny model decay shrinks the logits and so raises entropy, confounding the entropy experiments; try 0.01 for long runs.',
    source: 'AdamW (Loshchilov & Hutter 2019); TRL GRPOConfig weight_decay',
  },
  {
    key: 'maxGradNorm',
    kind: 'float',
    default: 1,
    min: 0,
    max: 100,
    section: 'optim',
    label: 'max grad norm',
    doc: "Clip the global gradient norm to this value; 0 = off. 1.0 (TRL's default) tames the occasional huge step when a rare success meets a large normalised advantage.",
    source: 'TRL GRPOConfig max_grad_norm',
  },
  {
    key: 'warmupSteps',
    kind: 'int',
    default: 10,
    min: 0,
    max: 100000,
    section: 'optim',
    label: 'warmup',
    doc: "Linear learning-rate warmup in optimiser steps. 10: Adam's second-moment estimate is noisy at first, and a full-size first step on a random init can collapse the policy's entropy before learning starts.",
    source: 'nanoGPT; TRL warmup_steps',
  },
  {
    key: 'epochs',
    kind: 'int',
    default: 1,
    min: 1,
    max: 16,
    section: 'optim',
    label: 'epochs μ',
    doc: 'Passes μ over each batch of rollouts. 1 with one minibatch is exactly on-policy (ρ = 1, so clipping never acts); μ > 1 or several minibatches reuse the samples and make ε_low/ε_high matter.',
    source: 'GRPO μ (Shao et al. 2024); TRL GRPOConfig num_iterations',
  },
  {
    key: 'minibatches',
    kind: 'int',
    default: 1,
    min: 1,
    max: 4096,
    section: 'optim',
    label: 'minibatches',
    doc: 'Optimiser steps per epoch: the N = B·G sequences are shuffled and split into this many equal minibatches (it must divide N). 1 = one full-batch step per RL step, the lowest-variance choice for small batches.',
    source: 'PPO (Schulman et al. 2017)',
  },
  // ── advantage ────────────────────────────────────────────────────────────────────────
  {
    key: 'estimator',
    kind: 'enum',
    default: 'grpo',
    values: ESTIMATORS,
    section: 'advantage',
    label: 'estimator',
    doc: estimatorDoc(),
    source: estimatorSource(),
  },
  {
    key: 'grpoScale',
    kind: 'enum',
    default: 'group',
    values: GRPO_SCALES,
    section: 'advantage',
    label: 'GRPO scale',
    doc: "What GRPO divides the centred reward by: group = the group's std (GRPO), batch = the batch std, none = nothing (Dr. GRPO: no difficulty bias from nearly-solved or nearly-hopeless groups). group is the classic recipe.",
    source: 'GRPO (Shao et al. 2024); Dr. GRPO (Liu et al. 2025); TRL scale_rewards',
    when: { estimator: ['grpo'] },
  },
  {
    key: 'softmaxTau',
    kind: 'float',
    default: 0.5,
    min: 0.01,
    max: 100,
    log: true,
    section: 'advantage',
    label: 'softmax τ',
    doc: "Temperature τ of SoftmaxGRPO, A_i = G·softmax(r/τ)_i − 1 (sums to zero, bounded for any difficulty). 0.5 gives advantages on GRPO's scale for binary rewards at G = 8; τ → 0 approaches best-of-group (MaxRL), large τ fades the signal.",
    source: 'SoftmaxGRPO (docs/methods.md)',
    when: { estimator: ['softmax_grpo'] },
  },
  {
    key: 'passK',
    kind: 'int',
    default: 4,
    min: 1,
    max: 64,
    section: 'advantage',
    label: 'pass@k k',
    doc: 'k of the pass@k advantage (at most G; k = G gives every completion advantage 0, so use k < G): rewards a group for having at least one success among k tries, which keeps exploring instead of sharpening. k = 1 is GRPO with the population std; 4 of G = 8 is a middle ground.',
    source: 'Pass@k training (Chen et al. 2025)',
    when: { estimator: ['passk'] },
  },
  {
    key: 'mappPool',
    kind: 'int',
    default: 256,
    min: 1,
    max: 65536,
    section: 'advantage',
    label: 'MaPP pool',
    doc: 'Size of the finite prompt pool MaPP keeps a Beta pass-rate posterior for (at least B, drawn once from the seed). 256 at B = 16 revisits each prompt every ~16 steps, often enough for its posterior to be informative.',
    source: 'MaPP (docs/methods.md)',
    when: { estimator: ['mapp'] },
  },
  {
    key: 'mappBonus',
    kind: 'float',
    default: 1,
    min: 0,
    max: 100,
    section: 'advantage',
    label: 'MaPP bonus',
    doc: "Prompt selection score E[p(1−p)] + bonus·Var[p] under each prompt's Beta posterior; prompts are drawn ∝ score. 1 weighs uncertainty like informativeness; 0 = pure informativeness.",
    source: 'MaPP (docs/methods.md)',
    when: { estimator: ['mapp'] },
  },
  {
    key: 'avspoVirtual',
    kind: 'int',
    default: 1,
    min: 0,
    max: 64,
    section: 'advantage',
    label: 'AVSPO virtual',
    doc: "AVSPO: virtual samples V of the opposite outcome (reward 1 if the group's reward is below 0.5, else 0) added to each group whose rewards are all equal, and the real completions get the GRPO advantage over the G + V rewards: an all-right group is reinforced and an all-wrong one pushed down, with no extra rollout (at G = 4, V = 1: ±0.447). Groups with spread get GRPO's advantage. 1 is the smallest nudge; 0 is GRPO. The paper sets the amount from the running advantage-collapse rate; here it is fixed (reading).",
    source: 'AVSPO (the advantage-collapse-rate paper, docs/methods.md)',
    when: { estimator: ['avspo'] },
  },
  {
    key: 'lampoTau',
    kind: 'float',
    default: 1,
    min: 0.01,
    max: 1000,
    log: true,
    section: 'advantage',
    label: 'LamPO τ',
    doc: "LamPO: A_i = (1/(G−1)) Σ_j (r_i − r_j)·w_ij, each pair's reward gap weighted by w_ij = 2·sigmoid(−sign(r_i − r_j)·(ℓ_i − ℓ_j)/τ), ℓ a completion's mean log-probability per token: a pair the policy already ranks right weighs less than 1, one it ranks wrong more (up to 2). Sums to zero per group; large τ is RLOO. 1 nat per token is a gap the policy is sure of; the paper's exact weight and its ROUGE-L reward are not used (reading).",
    source: 'LamPO, Lambda-Style Policy Optimization (docs/methods.md)',
    when: { estimator: ['lampo'] },
  },
  {
    key: 'gcsSigma',
    kind: 'float',
    default: 0,
    min: 0,
    max: 10,
    section: 'advantage',
    label: 'GCS σ',
    doc: "GCS: scale each group's advantages by exp(−(p − 0.5)²/(2σ²)), p the group's share of correct completions, renormalised to mean 1 over the groups with any advantage: half-solved prompts (the learning frontier) weigh most. The paper samples prompts with this weight; weighting the batch is the same in expectation (reading). 0 = off; 0.25 gives a group at p = 0.125 the weight 0.32 against 1 at p = 0.5 (before renormalising).",
    source: 'GCS, Gaussian Curriculum Sampling (the EXPO paper, docs/methods.md)',
  },
  {
    key: 'tokenCredit',
    kind: 'enum',
    default: 'uniform',
    values: TOKEN_CREDITS,
    section: 'advantage',
    label: 'token credit',
    doc: "How a sequence's advantage spreads over its tokens: uniform (every token gets A_i), or eapo (successes credit their uncertain tokens most, failures are penalised most where the policy was confident). uniform is the GRPO baseline.",
    source: 'EAPO (docs/methods.md)',
  },
  {
    key: 'topEntropyQuantile',
    kind: 'float',
    default: 1,
    min: 0.01,
    max: 1,
    section: 'advantage',
    label: 'top-entropy q',
    doc: 'Keep the gradient only on the top fraction q of the batch\'s completion tokens by entropy ("forking tokens"); 1 = all tokens. The paper uses 0.2 on LLMs; on short algorithmic chains most tokens are forks, so start at 1.',
    source: 'Beyond the 80/20 rule (Wang et al. 2025); TRL top_entropy_quantile',
  },
  {
    key: 'cueGamma',
    kind: 'float',
    default: 0,
    min: 0,
    max: 4,
    section: 'advantage',
    label: 'Cue γ',
    doc: "Cue-GRPO: multiply each positive advantage by n_c^(−γ), n_c the size of its strategy cluster (task.signature), then restore the group's total positive advantage: rare correct strategies get more credit. 0 = off (plain GRPO credit).",
    source: 'Cue-GRPO (docs/methods.md)',
  },
  {
    key: 'edasGamma',
    kind: 'float',
    default: 0,
    min: 0,
    max: 4,
    section: 'advantage',
    label: 'EDAS γ',
    doc: "EDAS: multiply each negative advantage by (n_e / mean n_e)^γ, n_e the size of its error cluster (task.errorSignature), then restore the group's total negative advantage: repeated errors are penalised more, rare ones less. 0 = off.",
    source: 'EDAS (docs/methods.md)',
  },
  {
    key: 'customEstimator',
    kind: 'code',
    default: ESTIMATOR_TEMPLATE,
    section: 'advantage',
    label: 'your estimator',
    doc: "The estimator = custom code: JavaScript or TypeScript defining advantages(batch), which gets one step's rollouts (rewards, correct, lengths, mask, entropy, signatures, prompt keys, B, G, T) and returns one advantage per completion (N) or per token (N·T). It runs in a sandbox beside the trainer, compiled once per run, and its output is checked every step. The default is GRPO written out. Interface and examples: docs/custom-estimators.md.",
    when: { estimator: ['custom'] },
  },
  {
    key: 'rewardSource',
    kind: 'enum',
    default: 'verifier',
    values: ['verifier', 'consensus'],
    section: 'advantage',
    label: 'reward source',
    doc: "verifier: the task's verifier gives the rewards. consensus: a label-free reward, OM-GRPO's (docs/methods.md): in each group the majority answer (the completion's tokens before EOS; ties to the one seen first, empty answers never) gets 1 and every other 0, and no verifier is asked; the run logs the consensus rate (consensus_rate, the share of a group agreeing with its majority) and the verifier's reward (reward/verifier), and pass@1 and held-out evaluation still come from the verifier.",
    source: 'OM-GRPO (docs/methods.md)',
  },
  {
    key: 'rewardShaping',
    kind: 'enum',
    default: 'none',
    values: ['none', 'custom'],
    section: 'advantage',
    label: 'reward shaping',
    doc: "none: the estimator sees the verifier's rewards (then overlongBuffer's penalty, if on). custom: your code (customReward) turns the verifier's results into the rewards first. Held-out evaluation always scores with the verifier.",
  },
  {
    key: 'customReward',
    kind: 'code',
    default: REWARD_TEMPLATE,
    section: 'advantage',
    label: 'your reward shaping',
    doc: "The rewardShaping = custom code: JavaScript or TypeScript defining rewards(batch), which gets the verifier's results (rewards, correct, lengths, signatures, the completions as tokens, the prompts) and returns one reward per completion (N). Sandboxed and checked like customEstimator (docs/custom-estimators.md).",
    when: { rewardShaping: ['custom'] },
  },
  {
    key: 'customTimeLimitMs',
    kind: 'int',
    default: 2000,
    min: 10,
    max: 600000,
    section: 'advantage',
    label: 'code time limit (ms)',
    doc: "The longest one call of your code may take (one step's advantages or rewards; loading the code gets at least 10 s). Past it the sandbox is stopped and the run pauses with the weights from before the step: an infinite loop costs this long, not the run. 2000 ms is hundreds of times what the built-ins need at the default sizes.",
  },
  // ── loss ─────────────────────────────────────────────────────────────────────────────
  {
    key: 'epsLow',
    kind: 'float',
    default: 0.2,
    min: 0,
    max: 0.99,
    section: 'loss',
    label: 'ε_low',
    doc: "Lower clip: the ratio ρ is clipped at 1 − ε_low for negative advantages (must stay below 1). 0.2 is PPO's and GRPO's value. Only acts when samples are reused (epochs > 1 or minibatches > 1).",
    source: 'PPO (Schulman et al. 2017); TRL epsilon',
  },
  {
    key: 'epsHigh',
    kind: 'float',
    default: 0.2,
    min: 0,
    max: 10,
    section: 'loss',
    label: 'ε_high',
    doc: "Upper clip: ρ is clipped at 1 + ε_high for positive advantages. 0.2 is symmetric PPO; DAPO's clip-higher 0.28 lets unlikely good tokens grow faster and keeps entropy up.",
    source: 'DAPO clip-higher (Yu et al. 2025); TRL epsilon_high',
  },
  {
    key: 'dualClip',
    kind: 'float',
    default: 0,
    min: 0,
    max: 100,
    section: 'loss',
    label: 'dual clip c',
    doc: 'Dual clip: for A < 0 the surrogate is bounded below by c·A, so a huge ratio on a bad token cannot blow up the loss; 0 = off, else it must be > 1 (3 is typical).',
    source: 'Dual-clip PPO (Ye et al. 2020)',
  },
  {
    key: 'aggregation',
    kind: 'enum',
    default: 'token-mean',
    values: AGGREGATIONS,
    section: 'loss',
    label: 'aggregation',
    doc: "How token losses become one number: token-mean (all tokens of the batch weigh the same; DAPO, TRL's default), seq-mean-token-mean (GRPO paper: short sequences weigh more per token), seq-mean-token-sum, seq-mean-token-sum-norm (sum over a constant max length; Dr. GRPO, no length bias). Fixed-length tasks (groupmul) barely care; mazes do.",
    source: 'GRPO (Shao et al. 2024); DAPO (Yu et al. 2025); Dr. GRPO (Liu et al. 2025); verl loss_agg_mode',
  },
  {
    key: 'klBeta',
    kind: 'float',
    default: 0,
    min: 0,
    max: 100,
    section: 'loss',
    label: 'β_KL',
    doc: 'Weight β of the KL penalty to a frozen reference policy; 0 = off. 0 as in DAPO, Dr. GRPO and TRL (a from-scratch policy has nothing worth staying near); the curriculum anchor uses 0.5 with refSync = curriculum.',
    source: 'GRPO (Shao et al. 2024); TRL GRPOConfig beta',
  },
  {
    key: 'aklSharpness',
    kind: 'float',
    default: 0,
    min: 0,
    max: 100,
    section: 'loss',
    label: 'AKL k',
    doc: "AKL: each step's KL weight is β_KL · 2·sigmoid(k·(acc − 0.5)), acc the batch's share of correct completions: below half right the anchor loosens (toward 0) so the policy may move away from the reference, above it tightens (toward 2·β_KL) to keep what works. 0 = off (β_KL every step); 8 gives 0.17·β_KL at acc 0.2 and 1.83·β_KL at 0.8. The paper's smooth function is not given in its abstract; this sigmoid is a reading.",
    source: 'AKL, Accuracy-Conditioned KL Scaling (the EXPO paper, docs/methods.md)',
    when: { klBeta: { not: [0] } },
  },
  {
    key: 'klKind',
    kind: 'enum',
    default: 'k3',
    values: ['k1', 'k3'],
    section: 'loss',
    label: 'KL estimator',
    doc: "Per-token KL estimator: k1 = log π − log π_ref (unbiased, can go negative), k3 = exp(log π_ref − log π) − (log π_ref − log π) − 1 (non-negative, lower variance; GRPO's choice).",
    source: 'Schulman, "Approximating KL divergence" (2020); GRPO (Shao et al. 2024)',
    when: { klBeta: { not: [0] } },
  },
  {
    key: 'refSync',
    kind: 'enum',
    default: 'none',
    values: ['none', 'every', 'curriculum'],
    section: 'loss',
    label: 'ref sync',
    doc: 'When the KL reference is replaced by a snapshot of the policy: none (the policy at the start of RL, after any warm start), every refSyncEvery steps, or at each curriculum advance (the curriculum anchor: keeps the learned chain while the new length is learned; needs curriculum on).',
    source: 'curriculum anchor: the probe (docs/methods.md); TRL sync_ref_model',
    when: { klBeta: { not: [0] } },
  },
  {
    key: 'refSyncEvery',
    kind: 'int',
    default: 100,
    min: 1,
    max: 1000000,
    section: 'loss',
    label: 'ref sync every',
    doc: 'Steps between reference snapshots with refSync = every. 100: long enough that the KL anchors, short enough that it does not pin the policy to its random init.',
    source: 'TRL GRPOConfig ref_model_sync_steps',
    when: { refSync: ['every'] },
  },
  {
    key: 'klMaskNew',
    kind: 'bool',
    default: true,
    section: 'loss',
    label: 'KL mask new',
    doc: 'With refSync = curriculum, apply no KL on the positions the latest curriculum step added, so the anchor protects what was learned without holding back what is new. On: the probe found the anchor only works with it.',
    source: 'curriculum anchor: the probe (docs/methods.md)',
    when: { refSync: ['curriculum'] },
  },
  {
    key: 'overlongBuffer',
    kind: 'int',
    default: 0,
    min: 0,
    max: 4096,
    section: 'loss',
    label: 'overlong buffer',
    doc: 'DAPO overlong shaping: completions whose length falls in the last L_buf positions of the completion region get a penalty growing linearly to −1 at the end; 0 = off. Only variable-length tasks (maze, sort, subsetsum) produce such lengths.',
    source: 'DAPO overlong reward shaping (Yu et al. 2025)',
  },
  {
    key: 'maskTruncated',
    kind: 'bool',
    default: false,
    section: 'loss',
    label: 'mask truncated',
    doc: 'DAPO overlong filtering: completions that fill the completion region without an EOS get no loss (their reward says nothing about the answer). Off: every task here has room for a complete answer.',
    source: 'DAPO overlong filtering (Yu et al. 2025); TRL mask_truncated_completions',
  },
  {
    key: 'dynamicSampling',
    kind: 'bool',
    default: false,
    section: 'loss',
    label: 'dynamic sampling',
    doc: 'DAPO dynamic sampling: drop groups whose rewards are all equal (zero advantage, no signal) and sample more prompts until B informative groups or dynamicMaxTries rounds. Off by default so a step costs one sampling pass; turn on when frac_reward_zero_std is high.',
    source: 'DAPO dynamic sampling (Yu et al. 2025)',
  },
  {
    key: 'dynamicMaxTries',
    kind: 'int',
    default: 3,
    min: 1,
    max: 100,
    section: 'loss',
    label: 'dynamic max tries',
    doc: "Sampling rounds per step allowed for dynamic sampling (the first included); the step trains on whatever informative groups it has then. 3 bounds a step's cost at 3× while filling most batches at moderate pass rates.",
    source: 'DAPO dynamic sampling (Yu et al. 2025)',
    when: { dynamicSampling: [true] },
  },
  // ── regularisation ───────────────────────────────────────────────────────────────────
  {
    key: 'entropyAlpha',
    kind: 'float',
    default: 0,
    min: 0,
    max: 10,
    section: 'regularisation',
    label: 'α_H',
    doc: 'Weight α of the entropy bonus (the loss subtracts α·H); with entropyTarget > 0 this is the starting value of an adaptive α. 0 = off, the GRPO/DAPO default; the flagship (cot-discovery) sets a small α with the uniform regulator (entropyMode), which keeps groups informative long enough to find the chain of thought.',
    source: 'entropy-regularised RLVR: the seed paper (docs/methods.md)',
  },
  {
    key: 'entropyMode',
    kind: 'enum',
    default: 'exact',
    values: ['exact', 'sampled', 'uniform'],
    section: 'regularisation',
    label: 'entropy mode',
    doc: "exact: α·H of the full next-token distribution, its gradient computed from the logits; sampled: α·(−log π(y_t)), a REINFORCE estimate of the same thing with more variance; uniform: α·(1/V)·Σ_v log π(v), i.e. −α·KL(uniform ‖ π) up to a constant, whose gradient α(1/V − π) does not vanish on a collapsed row (the entropy's does), so a token stuck at probability ≈ 0 is still pulled back. The regulator's choice matters (the seed paper); exact is the low-variance one; uniform targets collapse onto wrong answers (docs/results.md).",
    source: 'the seed paper (docs/methods.md)',
  },
  {
    key: 'entropyTarget',
    kind: 'float',
    default: 0,
    min: 0,
    max: 10,
    section: 'regularisation',
    label: 'entropy target',
    doc: 'Target mean token entropy in nats; 0 = α stays fixed. Otherwise α moves by entropyAlphaStep each step toward holding the mean entropy at the target (up when below, down to no less than 0 when above). Try 0.3–0.5 nats against entropy collapse. Caveat: the target is on the mean over all policy tokens, so a position the reward ignores (y₁ of a length-2 chain) can hold the mean up while the answer token collapses; on cot-discovery a fixed α did better (docs/results.md).',
    source: 'adaptive entropy coefficient (SAC, Haarnoja et al. 2018)',
  },
  {
    key: 'entropyAlphaStep',
    kind: 'float',
    default: 0.005,
    min: 0,
    max: 1,
    section: 'regularisation',
    label: 'α_H step',
    doc: 'How far the adaptive α moves per step. 0.005 crosses the useful range 0–0.1 in ~20 steps: fast enough to catch a collapse, slow enough not to oscillate.',
    when: { entropyTarget: { not: [0] } },
  },
  // ── curriculum ───────────────────────────────────────────────────────────────────────
  {
    key: 'curriculum',
    kind: 'enum',
    default: 'off',
    values: ['off', 'pass-rate'],
    section: 'curriculum',
    label: 'curriculum',
    doc: "off: train at the configured task parameters. pass-rate: start curriculumParam at curriculumStart and raise it by 1 each time the greedy pass rate on the held-out prompts of the current level reaches curriculumTarget (checked every curriculumWindow steps), up to its configured task.<param> value (the end point, which also sizes the model's positions).",
    source: 'difficulty curricula, e.g. GCS (the EDAS paper, docs/methods.md)',
  },
  {
    key: 'curriculumParam',
    kind: 'enum',
    default: 'length',
    values: CURRICULUM_PARAMS,
    section: 'curriculum',
    label: 'curriculum param',
    doc: "Which integer task parameter the curriculum moves (one of the chosen task's: groupmul/sort length, maze size, subsetsum count). Default: the task's first integer parameter.",
    when: { curriculum: ['pass-rate'] },
  },
  {
    key: 'curriculumStart',
    kind: 'int',
    default: 1,
    min: 0,
    max: 1000,
    section: 'curriculum',
    label: 'curriculum start',
    doc: "Starting value of curriculumParam, within that parameter's range and at most its configured value. Default: the parameter's minimum (1 for groupmul length, a copy of the one element; 2 for sort length), where random guessing already succeeds often.",
    when: { curriculum: ['pass-rate'] },
  },
  {
    key: 'curriculumTarget',
    kind: 'float',
    default: 0.9,
    min: 0.01,
    max: 1,
    section: 'curriculum',
    label: 'curriculum target',
    doc: 'Greedy held-out pass@1 (evalPrompts prompts of the current level) at which the curriculum advances, as in the probe behind cot-discovery. 0.9: the current level is mastered; the entropy bonus keeps the sampled policy exploring when the next level arrives.',
    when: { curriculum: ['pass-rate'] },
  },
  {
    key: 'curriculumWindow',
    kind: 'int',
    default: 10,
    min: 1,
    max: 10000,
    section: 'curriculum',
    label: 'curriculum window',
    doc: 'Steps between curriculum checks (counted from the last advance). Each check decodes the evalPrompts held-out prompts greedily (one cheap batch); 10 keeps the check under a tenth of the steps.',
    when: { curriculum: ['pass-rate'] },
  },
  // ── warm start ───────────────────────────────────────────────────────────────────────
  {
    key: 'sftSteps',
    kind: 'int',
    default: 0,
    min: 0,
    max: 100000,
    section: 'warmstart',
    label: 'SFT steps',
    doc: "Supervised steps on the task's reference answers (answerTokens, B·G fresh sequences per step, loss on policy positions only) before RL; the KL reference is the policy after them. 0: the point of the playground is RL from scratch.",
    source: 'SFT then RL (DeepSeek-R1 cold start, Guo et al. 2025)',
  },
  {
    key: 'sftData',
    kind: 'enum',
    default: 'answers',
    values: ['answers', 'base'],
    section: 'warmstart',
    label: 'SFT data',
    doc: "What the warm start trains on. answers: the task's reference answers (SFT then RL). base: the task's base completions, plausible and uninformed by the reward (mazes: random legal walks that never look at the goal), so that RL starts from a base model that reads the prompt and already branches, as RLVR on a pretrained model does; only tasks that define them (maze).",
    source: "BODHI's setting: RLVR on a model that already branches (docs/methods.md)",
    when: { sftSteps: { not: [0] } },
  },
  {
    key: 'sftLr',
    kind: 'float',
    default: 1e-3,
    min: 1e-6,
    max: 1,
    log: true,
    section: 'warmstart',
    label: 'SFT lr',
    doc: 'AdamW learning rate of the warm-start steps (they share the optimiser state and the warmup with the RL steps that follow). 1e-3, the safe from-scratch value.',
    when: { sftSteps: { not: [0] } },
  },
  // ── eval ─────────────────────────────────────────────────────────────────────────────
  {
    key: 'evalEvery',
    kind: 'int',
    default: 50,
    min: 0,
    max: 1000000,
    section: 'eval',
    label: 'eval every',
    doc: 'Evaluate on held-out prompts every this many steps; 0 = never. 50 costs a few percent of training time at the default sizes.',
  },
  {
    key: 'evalPrompts',
    kind: 'int',
    default: 64,
    min: 1,
    max: 4096,
    section: 'eval',
    label: 'eval prompts',
    doc: 'Held-out prompts per evaluation, drawn from a fixed evaluation stream of the seed (the same prompts every time, so curves are comparable). 64 gives pass rates to about ±6%.',
    when: { evalEvery: { not: [0] } },
  },
  {
    key: 'evalK',
    kind: 'int',
    default: 8,
    min: 1,
    max: 64,
    section: 'eval',
    label: 'eval k',
    doc: 'k of the evaluation pass@k. Each held-out prompt gets one greedy completion (pass@1) and G sampled ones at the sampling temperature, scored with the unbiased pass@k estimator for k = min(evalK, G) (Chen et al. 2021). 8: pass@1 rising with pass@8 flat means RL sharpens; both rising means it discovers.',
    source: 'unbiased pass@k (Chen et al. 2021)',
    when: { evalEvery: { not: [0] } },
  },
] as const satisfies readonly KnobSpec[];

export type StaticKnob = (typeof STATIC_KNOBS)[number];
export type StaticKey = StaticKnob['key'];

type ValueOfKnob<K> = K extends { kind: 'enum'; values: readonly (infer V)[] }
  ? V
  : K extends { kind: 'bool' }
    ? boolean
    : K extends { kind: 'code' }
      ? string
      : number;

/** The static part of a run config, derived from the table (config.ts checks its interface against it). */
export type StaticConfigFromTable = { -readonly [K in StaticKnob as K['key']]: ValueOfKnob<K> };

/** Key of a task parameter knob: `task.<param>`. */
export type TaskKnobKey = `task.${string}`;

export const TASK_PREFIX = 'task.';

/** The knob of one task parameter (its ParamSpec, as a `task.<name>` knob). */
export function taskParamKnob(spec: ParamSpec): KnobSpec {
  return {
    key: TASK_PREFIX + spec.name,
    kind: spec.kind === 'int' ? 'int' : 'enum',
    default: spec.default,
    min: spec.min,
    max: spec.max,
    values: spec.values,
    allowed: spec.allowed,
    section: 'task',
    label: spec.name,
    doc: spec.doc,
  };
}

const taskKnobCache = new Map<string, readonly KnobSpec[]>();

/** The `task.<param>` knobs of a task, generated from its ParamSpec table. */
export function taskKnobs(task: TaskName | string): readonly KnobSpec[] {
  let knobs = taskKnobCache.get(task);
  if (!knobs) {
    knobs = getTask(task).params.map(taskParamKnob);
    taskKnobCache.set(task, knobs);
  }
  return knobs;
}

/** Every knob of a config for this task, in display order (task params right after `task`). */
export function knobsFor(task: TaskName | string): readonly KnobSpec[] {
  const out: KnobSpec[] = [];
  for (const k of STATIC_KNOBS as readonly KnobSpec[]) {
    out.push(k);
    if (k.key === 'task') out.push(...taskKnobs(task));
  }
  return out;
}

/** The knobs of a config for this task grouped by section, sections in display order (for forms). */
export function knobsBySection(task: TaskName | string): { section: SectionSpec; knobs: KnobSpec[] }[] {
  const all = knobsFor(task);
  return SECTIONS.map((section) => ({ section, knobs: all.filter((k) => k.section === section.id) })).filter(
    (g) => g.knobs.length > 0,
  );
}

const STATIC_BY_KEY = new Map<string, KnobSpec>((STATIC_KNOBS as readonly KnobSpec[]).map((k) => [k.key, k]));

/** The knob with this key (task params looked up in `task`), or undefined. */
export function findKnob(key: string, task?: TaskName | string): KnobSpec | undefined {
  const k = STATIC_BY_KEY.get(key);
  if (k) return k;
  if (key.startsWith(TASK_PREFIX) && task !== undefined && isTaskName(task)) {
    return taskKnobs(task).find((t) => t.key === key);
  }
  return undefined;
}

export function isStaticKey(key: string): key is StaticKey {
  return STATIC_BY_KEY.has(key);
}

/** Whether a knob has an effect in this config (its `when` conditions hold). */
export function isKnobActive(knob: KnobSpec, config: Readonly<Record<string, unknown>>): boolean {
  if (!knob.when) return true;
  for (const [key, cond] of Object.entries(knob.when)) {
    const v = config[key] as KnobValue;
    if (Array.isArray(cond)) {
      if (!(cond as readonly KnobValue[]).includes(v)) return false;
    } else if ((cond as { not: readonly KnobValue[] }).not.includes(v)) {
      return false;
    }
  }
  return true;
}

/** "estimator = passk", "klBeta ≠ 0", joined with "and". */
export function whenText(when: KnobCondition): string {
  return Object.entries(when)
    .map(([key, cond]) =>
      Array.isArray(cond)
        ? `${key} = ${(cond as readonly KnobValue[]).map(String).join(' or ')}`
        : `${key} ≠ ${(cond as { not: readonly KnobValue[] }).not.map(String).join(', ')}`,
    )
    .join(' and ');
}

/** A value as a URL, CLI and message would write it: shortest round-trip float repr. */
export function formatValue(value: KnobValue): string {
  return String(value);
}

/** "[1, 64]" for numbers; "a, b, c" (or the compact description) for enums; "true, false". */
export function allowedText(knob: KnobSpec): string {
  switch (knob.kind) {
    case 'int':
    case 'float':
      return `[${knob.min ?? '-inf'}, ${knob.max ?? 'inf'}]`;
    case 'enum':
      return knob.allowed ?? (knob.values ?? []).join(', ');
    case 'bool':
      return 'true, false';
    case 'code':
      return `JavaScript or TypeScript source, at most ${MAX_CODE_LENGTH.toLocaleString('en-US')} characters (docs/custom-estimators.md)`;
  }
}
