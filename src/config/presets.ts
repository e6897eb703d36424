// Presets: small, named diffs on the default config. Each is also a lesson for a lecturer:
// a one-sentence summary, numbered guide steps (each may point at what it talks about), what
// measured runs did (so a class can tell whether its run is on track), the 3–4 charts the lesson
// is about, one-click comparison variants, and optional trained checkpoints to jump ahead.
//
// Initial pass rates quoted below were measured with a uniform random policy over the task
// vocabulary (what a freshly initialised model is close to), with the task library itself.

import { quoteInput } from '../core/quote';
import { ConfigError, defaultConfig, mergeConfig, type RunConfig } from './config';
import type { KnobValue } from './knobs';
import { GRPO_NO_STD_SOURCE } from './custom-code';

export interface PresetVariant {
  /** Legend label of the comparison run. */
  readonly label: string;
  /** Diff on the preset's config. */
  readonly set: Readonly<Record<string, KnobValue>>;
}

/** The charts the page can draw; a lesson names the ones it is about (the first is the largest). */
export const CHART_IDS = [
  'reward', 'entropy', 'advantages', 'groups', 'level', 'task', 'alpha', 'length', 'clip', 'kl', 'grad-norm', 'loss', 'throughput', 'time',
] as const;
export type ChartId = (typeof CHART_IDS)[number];

/** What a guide step's "show me" points at: a chart, or a part of the lecture screen. */
export type GuideTarget = `chart-${ChartId}` | 'loop' | 'group' | 'play' | 'variants' | 'jump';

export interface GuideStep {
  /** One or two sentences a lecturer can read aloud. */
  readonly text: string;
  readonly show?: GuideTarget;
  /** What must have happened for the step to make sense: a whole step, or the advantages of one. */
  readonly needs?: 'step' | 'advantages';
}

/** A trained checkpoint shipped with the page (public/checkpoints/), to show the end state at once. */
export interface LessonCheckpoint {
  readonly label: string;
  /** Path under the site root, e.g. "checkpoints/cot-discovery-solved.safetensors". */
  readonly file: string;
  /** What it is and how it was made, one sentence. */
  readonly note: string;
}

/** What "solved" means for an ablation: the first step `metric` ≥ `target` (at level ≥ `level` when given). */
export interface PresetSolvedRule {
  /** A metric's machine name: "eval/pass@1_greedy" (held-out greedy pass@1), "level", "reward", … */
  readonly metric: string;
  readonly target: number;
  /** Only values measured at this curriculum level or above count (e.g. the final chain length). */
  readonly level?: number;
}

/**
 * The preset as a question answered over seeds (`rlvr sweep --preset NAME`, the page's ablation):
 * cells are the preset itself and the listed variants, and/or every combination of the grid's
 * values; each cell runs `seeds` seeds (0 … seeds − 1) for `steps` steps.
 */
export interface PresetAblation {
  /** The question, one sentence. */
  readonly question: string;
  /** What the literature claims (with its source), and that the answer here is what the runs show. */
  readonly literature: string;
  /** How to read the result: what each outcome would mean. */
  readonly reading: string;
  /** Variants (by label) run beside the preset itself, which is always the first cell. */
  readonly variants?: readonly string[];
  /** knob → values; the cells are every combination (times the variants when both are given). */
  readonly grid?: Readonly<Record<string, readonly KnobValue[]>>;
  /** Seeds per cell: 0 … seeds − 1. */
  readonly seeds: number;
  /** Steps per run. */
  readonly steps: number;
  readonly solved?: PresetSolvedRule;
  /** Metrics compared at the end, the main one first (default: held-out pass@1, reward, entropy). */
  readonly metrics?: readonly string[];
}

export interface Preset {
  readonly name: string;
  readonly title: string;
  /** One sentence: what the lesson shows. */
  readonly summary: string;
  /** Diff on `defaultConfig()` (task parameters as `task.<param>`). */
  readonly set: Readonly<Record<string, KnobValue>>;
  /** The recipe and paper details (folded away in the lecture view). */
  readonly explanation: string;
  /** Numbered steps for a lecturer, shown one at a time. */
  readonly guide: readonly GuideStep[];
  /** What measured runs of this preset did, e.g. "reward > 0.8 by step ≈ 150 (seeds 0–3)". */
  readonly expect: string;
  /** The charts the lesson is about, the main one first (3–4). */
  readonly charts: readonly ChartId[];
  /** Comparison runs. */
  readonly variants?: readonly PresetVariant[];
  readonly checkpoints?: readonly LessonCheckpoint[];
  /** The preset as an ablation over seeds, when it asks a question. */
  readonly ablation?: PresetAblation;
}

/** Charts for a config without a preset. */
export const DEFAULT_CHARTS: readonly ChartId[] = ['reward', 'entropy', 'groups', 'advantages'];

// Shared by cot-discovery and no-cot-room: the probe's recipe for S3 chains (docs/methods.md).
const COT_RECIPE = {
  task: 'groupmul',
  'task.group': 'S3',
  'task.length': 6,
  'task.reward': 'last',
  curriculum: 'pass-rate',
  curriculumParam: 'length',
  // From length 1 (y1 = x1, a copy): learned in ~10 steps, and every y_t is then the last
  // (rewarded) token at some level, so the whole chain is taught, y1 included.
  curriculumStart: 1,
  curriculumTarget: 0.9,
  groupSize: 16,
  batchPrompts: 16,
  // The uniform regulator: its pull does not vanish on a row collapsed onto a wrong answer,
  // where the exact entropy's does (README: seed 2 sat at length 2 with 3 of 36 products at p ≈ 0).
  entropyAlpha: 0.05,
  entropyMode: 'uniform',
  klBeta: 0.5,
  klKind: 'k3',
  refSync: 'curriculum',
  klMaskNew: true,
  lr: 3e-3,
  'model.nLayer': 2,
  'model.nEmbd': 32,
  // 5× GPT-2's init: with 0.02 the first product (an interaction no single input predicts)
  // sat on a plateau for 350+ steps at α = 0 and indefinitely at α ≥ 0.02 (README).
  'model.initStd': 0.1,
} as const satisfies Record<string, KnobValue>;

// cot-discovery as shipped: the recipe with room to think, one y after each x.
const COT_INTERLEAVED = { ...COT_RECIPE, 'task.layout': 'interleaved', 'task.scratch': 0 } as const satisfies Record<string, KnobValue>;

// Larger groups. At length 2 the policy must find all n² products, and at first a sample is
// right 1 time in n, so a step of B prompts × G samples brings each product about B·G/n³
// successes: S3 (B = G = 16) 1.2, A4 0.15 (solved, in 1,500–2,100 steps on an H200), S4 0.018
// (stuck at length 2). A supervised warm start with the same model learns all 576 products of
// S4 in 300 steps (README), so it is the signal per product, not the model's size, that runs out:
// these recipes raise B·G. 64 × 32 = 2,048 samples a step is the most that keeps a preset within
// a 1 GB GPU budget (about 0.95 GB here; every preset must run on a small laptop GPU): for S4 it
// gives A4's rate (0.15), for A5 only 0.0095; on a larger GPU raise batchPrompts and groupSize
// (the fit check names the largest that fits).
const COT_S4 = { ...COT_INTERLEAVED, 'task.group': 'S4', batchPrompts: 64, groupSize: 32 } as const satisfies Record<string, KnobValue>;
const COT_A5 = { ...COT_INTERLEAVED, 'task.group': 'A5', batchPrompts: 64, groupSize: 32 } as const satisfies Record<string, KnobValue>;

// A small myopic S3 task shared by the optimisation presets: learnable from scratch without a
// curriculum (a random policy is right ~7% of the time, and ~40% of groups of 8 are informative).
const S3_SHORT = {
  task: 'groupmul',
  'task.group': 'S3',
  'task.layout': 'interleaved',
  'task.length': 4,
} as const satisfies Record<string, KnobValue>;

// Mazes with a dense progress reward (a random policy already gets nonzero rewards in ~half the
// groups) and completions whose length the policy chooses (it writes the EOS).
const SMALL_MAZE = {
  task: 'maze',
  'task.size': 4,
  'task.minDist': 3,
  'task.reward': 'progress',
  lr: 3e-3,
} as const satisfies Record<string, KnobValue>;

// The small sort setup of the first lesson and the smoke test: a 1-layer, width-16 model that
// learns in seconds. 3e-3, not 1e-2: at 1e-2 Adam turns the near-zero gradients of a solved
// batch into full-size random steps and held-out pass@1 swung 1.0 → 0.6; at 3e-3 sort-easy's
// seeds 1–4 all reached greedy pass@1 1.0 by step 200 and stayed there.
const SMALL_SORT = {
  task: 'sort',
  'task.reward': 'partial',
  'model.nEmbd': 16,
  'model.nLayer': 1,
  'model.nHead': 2,
  batchPrompts: 8,
  groupSize: 8,
  lr: 3e-3,
  warmupSteps: 0,
  steps: 300,
  evalEvery: 50,
  evalPrompts: 16,
  evalK: 4,
} as const satisfies Record<string, KnobValue>;

export const PRESETS: readonly Preset[] = [
  {
    name: 'start-here',
    title: 'Start here: learning to sort by trial and error',
    summary: 'A tiny transformer that has never seen sorting learns it from scores alone: it guesses, a verifier scores each guess, and better-than-average guesses are made more likely.',
    set: { ...SMALL_SORT, 'task.length': 4, 'task.alphabet': 4 },
    explanation:
      'Sort 4 letters from {a, b, c, d}. Each step draws 8 prompts and samples 8 answers for each (a group); the verifier gives each answer the share of its 5 positions (4 letters and the end) that are right. GRPO compares every answer with the others of its group: the advantage is its reward minus the group\'s mean, divided by the group\'s spread, so the update raises the probability of the better answers and lowers the worse — no example answer is ever shown. A 1-layer transformer of width 16 (about 4,000 weights), learning rate 3e-3.',
    guide: [
      { text: 'Each step runs the loop on the left: a prompt, 8 answers sampled from the model, a score for each, a comparison within the group, and an update of the weights.', show: 'loop' },
      { text: 'Press ▶ (or Space). At first the answers are random letters: the reward sits near the dashed chance line.', show: 'play' },
      { text: 'Look at one group: right answers get a positive advantage (blue), wrong ones negative (red) — relative to their own group.', show: 'group', needs: 'advantages' },
      { text: 'Watch the reward climb: nothing but these scores tells the model what sorting is.', show: 'chart-reward', needs: 'step' },
      { text: 'The entropy falls as the model becomes sure of its answers; once every answer in a group is right, the group has no spread and teaches nothing more.', show: 'chart-entropy', needs: 'step' },
    ],
    expect: 'Measured (headless, seeds 0–3): reward ≥ 0.5 by step 71–78 and ≥ 0.8 by step 155–203; held-out pass@1 0.69–1.0 at step 300. In the page on a software GPU (≈ 6 steps/s): reward 0.11 → 0.69 in the first 160 steps, under 30 s.',
    charts: ['reward', 'entropy', 'advantages'],
  },
  {
    name: 'dead-groups',
    title: 'Dead groups: no success, no signal',
    summary: 'When no answer in a group is ever right, every advantage is 0 and nothing is learned, however long it runs.',
    set: { task: 'sort', 'task.length': 8, 'task.alphabet': 16, 'task.reward': 'exact', steps: 100 },
    explanation:
      'Sorting 8 letters from a 16-letter alphabet with an all-or-nothing reward: a random policy essentially never gets it exactly right, so every group has all-zero rewards, every group-relative advantage is 0, and the gradient is 0. The "partial reward" variant gives credit per correct position: the same task learns. Dynamic sampling (DAPO) does not help: it can only filter groups, not create successes.',
    guide: [
      { text: 'Press ▶: the reward stays at 0, every group has no spread, the gradient norm is 0.', show: 'chart-reward', needs: 'step' },
      { text: 'Open a group: every answer is wrong, and every advantage is A = 0. The model is not broken; there is nothing to learn from.', show: 'group', needs: 'advantages' },
      { text: 'Ask the class: what would GRPO need? At least one success per group.', show: 'chart-groups' },
      { text: 'Run the "partial reward" variant: a reward per correct position gives every group some spread, and learning starts.', show: 'variants' },
      { text: 'Fixes in practice: denser rewards, a curriculum that starts where guesses sometimes succeed, or a supervised warm start.' },
    ],
    expect: 'Measured (seed 0, 100 steps): the reward is 0 and every group has no spread at every step; the gradient norm is exactly 0. With the "partial reward" variant 94% of the groups have spread from the first step and the reward climbs 0.04 → 0.14 in 100 steps: it learns, slowly.',
    charts: ['reward', 'groups', 'grad-norm', 'advantages'],
    variants: [
      { label: 'partial reward', set: { 'task.reward': 'partial' } },
      { label: 'dynamic sampling', set: { dynamicSampling: true } },
    ],
  },
  {
    name: 'cot-discovery',
    title: 'A chain of thought discovered from a last-token reward',
    summary: 'Rewarded only for the last product of a chain of S3 elements, a transformer trained from scratch learns to write every running product: a chain of thought nobody rewarded.',
    set: { ...COT_INTERLEAVED, steps: 1000 },
    explanation:
      'A 2-layer, width-32 transformer (about 27,000 weights) multiplies chains of elements of S3, the 6 symmetries of a triangle. The environment writes x_t and the model writes y_t after it; only the last y is checked against the product of the chain. A length curriculum starts at 1 (copy the element) and moves up when the held-out pass rate reaches 0.9, so every y_t is the rewarded last token at some level. Recipe: groups of 16; an entropy-style regulator toward the uniform distribution (entropyMode uniform, α 0.05) that keeps pulling back answers collapsed onto a wrong element; a KL anchor (k3, β 0.5) to the policy that solved the previous length, re-taken at each advance and free on the new positions; weights initialised at 5× GPT-2\'s scale (model.initStd 0.1), without which the first product — an interaction no single input predicts — stayed on a plateau. From the seed paper: a transformer from scratch, last-token reward only, learns an algorithmic chain of thought for iterated non-Abelian group multiplication.',
    guide: [
      { text: 'The task: multiply a chain of triangle symmetries (e, r, r², s, sr, sr²). Only the last answer is checked.', show: 'group' },
      { text: 'Press ▶. Length 1 (copy the element) is learned in a few steps; at length 2 a guess is right 1 time in 6 (the chance line).', show: 'chart-reward' },
      { text: 'When the held-out pass rate reaches 0.9 the chain gets one element longer: the curriculum level steps up, and the reward dips and recovers.', show: 'chart-level', needs: 'step' },
      { text: 'CoT alignment is the share of intermediate answers that equal the running product: it rises although only the last token is rewarded.', show: 'chart-task', needs: 'step' },
      { text: 'Open a group: the ✓ marks under the intermediate answers are the running products. The model invented the chain because it is the only way to get the last token right.', show: 'group', needs: 'step' },
      { text: 'No time to wait? Load the trained model (length 3, or solved at length 6) and look at its multiplication table.', show: 'jump' },
    ],
    expect: 'Measured (headless, 4 seeds): length 3 by step 250–300, length 4 by 350–450, length 6 by 500–650, solved (held-out pass@1 ≥ 0.99 on 512 fresh chains) by step 550–800. In the page on a software GPU (≈ 1.4 steps/s): length 3 after ≈ 3 min, length 4 after ≈ 6 min.',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [
      { label: 'no KL anchor', set: { klBeta: 0, refSync: 'none' } },
      { label: 'no entropy bonus', set: { entropyAlpha: 0 } },
      { label: 'exact entropy bonus', set: { entropyMode: 'exact', entropyAlpha: 0.1 } },
    ],
    checkpoints: [
      { label: 'at length 3', file: 'checkpoints/cot-discovery-length3.safetensors', note: 'seed 0 at step 270, when its curriculum reached length 3' },
      { label: 'solved (length 6)', file: 'checkpoints/cot-discovery-solved.safetensors', note: 'seed 0 at step 750: greedy pass@1 1.000 and CoT alignment 1.000 on 512 fresh length-6 chains' },
    ],
    ablation: {
      question: 'Which entropy regulator gets the flagship through: the uniform one (α 0.05, pulling toward the uniform distribution) or the exact entropy bonus (α 0.1)?',
      literature: 'The seed paper (the spin-glass landscape paper, docs/methods.md) argues that the choice of entropy regulator decides whether RLVR crosses the landscape\'s barriers. On this engine (README, "Learning results") the exact bonus let a seed freeze at length 2 with rows collapsed onto wrong products (its gradient −p(log p + H) vanishes on a one-hot row), while the uniform regulator solved 4/4 seeds in 550–800 steps; those runs were made one recipe at a time. This ablation runs both on the same seeds, and its answer is whatever these runs show.',
      reading: 'If the uniform regulator solves more seeds, or sooner, at p < 0.05, the collapse explanation holds here; "not different at this many seeds" means 4 seeds cannot tell, not that the regulators are equal. The final curriculum level shows how far the unsolved runs got.',
      variants: ['exact entropy bonus'],
      seeds: 4,
      steps: 1500,
      solved: { metric: 'eval/pass@1_greedy', target: 0.97, level: 6 },
      metrics: ['level', 'eval/pass@1_greedy', 'eval/task/cot_alignment_prefix', 'entropy'],
    },
  },
  {
    name: 'no-cot-room',
    title: 'The same task with no room to think',
    summary: 'The chain-of-thought task with the whole chain shown at once and a single answer token: the model must compose the chain in one pass, and stalls.',
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 1, steps: 1000 },
    explanation:
      'The cot-discovery recipe, but the whole chain is shown at once (block layout) and the policy may write a single token: the answer (scratch = 1). A 2-layer model must now compose the whole chain in one forward pass. Short chains are learned; then the pass rate stalls and the level stops advancing, while cot-discovery keeps going.',
    guide: [
      { text: 'The same S3 chains, but the model answers at once: no intermediate tokens, no room to compute.', show: 'group' },
      { text: 'Press ▶. Lengths 1 and 2 are learned: one multiplication fits in one forward pass.', show: 'chart-level', needs: 'step' },
      { text: 'Then the level stops advancing and the pass rate sinks toward chance (1/6) as chains grow.', show: 'chart-reward', needs: 'step' },
      { text: 'The lesson: the scratchpad, not more reward, makes the problem learnable; a chain of thought is computation the model needs room for.' },
    ],
    expect: 'Measured (headless, seeds 0 and 3, 550–700 steps): length 2 by step 50, length 3 by step 350, then stuck at length 3; at length 6 the greedy pass rate is 0.166 (chance 1/6). cot-discovery reaches length 6 in the same budget.',
    charts: ['reward', 'level', 'entropy'],
    variants: [{ label: 'room to think', set: { 'task.layout': 'interleaved', 'task.scratch': 0 } }],
    ablation: {
      question: 'Does room to think (writing every running product before the answer) make long chains learnable?',
      literature: 'The seed paper finds that a transformer trained from scratch with a last-token reward discovers a chain of thought for iterated S3 multiplication, and that the intermediate tokens are what make long chains learnable. On this engine no-cot-room reached only length 3 in 550–700 steps (seeds 0 and 3) while cot-discovery solved length 6 on 4/4 seeds (README); those runs were made one recipe at a time. This ablation runs both on the same seeds, and its answer is whatever these runs show.',
      reading: 'The final curriculum level is the main figure: a chain length the model passes at 0.9. "Solved" is held-out pass@1 ≥ 0.97 at length 6; a difference is claimed only at p < 0.05 over seeds.',
      variants: ['room to think'],
      seeds: 4,
      steps: 1500,
      solved: { metric: 'eval/pass@1_greedy', target: 0.97, level: 6 },
      metrics: ['level', 'eval/pass@1_greedy', 'reward', 'entropy'],
    },
  },
  {
    name: 'entropy-collapse',
    title: 'Entropy collapse, and an adaptive entropy bonus',
    summary: 'Without an entropy regulator the policy can become certain before it is right, and then every group is all-equal and learning stops.',
    set: { ...S3_SHORT, lr: 1e-2, entropyAlpha: 0, entropyTarget: 0, steps: 300 },
    explanation:
      'Plain GRPO with no entropy regulariser and an aggressive learning rate (1e-2) on a short S3 chain (length 4, interleaved). The failure to look for: the entropy falls toward 0 before the pass rate reaches 1, groups with no spread rise toward 1 (every group all right or all wrong, so no gradient) and the pass rate freezes. The "adaptive entropy" variant starts at α = 0.05 and moves α by 0.005 per step to hold the mean entropy at 0.5 nats. The spin-glass paper argues the choice of entropy regulator is what gets RLVR across the landscape\'s barriers.',
    guide: [
      { text: 'Press ▶ and watch the entropy: without a regulator it falls fast.', show: 'chart-entropy', needs: 'step' },
      { text: 'A certain policy gives identical answers: groups with no spread rise and carry no signal.', show: 'chart-groups', needs: 'step' },
      { text: 'Run the "adaptive entropy" variant (same seed): α rises when the entropy falls below its target.', show: 'variants' },
      { text: 'Compare the two reward curves at equal steps.', show: 'chart-reward', needs: 'step' },
    ],
    expect: 'Measured (seed 0, 300 steps): without a regulator the entropy falls from 2.24 to 0.01 nats and 99% of the groups have no spread by the end, while held-out pass@1 stays at 0.20 (chance: 0.17). The adaptive variant keeps the entropy at 1.6 nats and only 38% of the groups without spread, but in 300 steps its held-out pass@1 is no better (0.12–0.20).',
    charts: ['reward', 'entropy', 'groups', 'alpha'],
    variants: [
      { label: 'adaptive entropy', set: { entropyAlpha: 0.05, entropyTarget: 0.5, entropyAlphaStep: 0.005 } },
      {
        label: 'sampled regulator',
        set: { entropyAlpha: 0.05, entropyTarget: 0.5, entropyAlphaStep: 0.005, entropyMode: 'sampled' },
      },
    ],
  },
  {
    name: 'clip-higher',
    title: 'DAPO clip-higher',
    summary: 'When samples are reused the update is clipped; raising only the upper clip bound lets unlikely good tokens grow faster.',
    set: { ...S3_SHORT, epochs: 2, minibatches: 4, epsHigh: 0.28, lr: 3e-3, steps: 300 },
    explanation:
      'Samples are reused (2 epochs × 4 minibatches), so the ratio ρ = π/π_old leaves 1 and clipping acts. With symmetric clipping (0.2) a token that was unlikely but good can only grow by 20% per batch, while likely tokens keep sharpening and the entropy falls. DAPO\'s clip-higher raises the upper bound to 0.28. Compare the share of clipped tokens and the entropy with the "symmetric clip" variant.',
    guide: [
      { text: 'With one epoch and one minibatch the ratio π/π_old is exactly 1 and nothing is clipped; here every batch is used 8 times.' },
      { text: 'Press ▶, then run the "symmetric clip" variant with the same seed.', show: 'variants' },
      { text: 'Fewer tokens are clipped above with ε_high = 0.28: fewer good updates are cut.', show: 'chart-clip', needs: 'step' },
      { text: 'DAPO reports that the entropy declines more slowly with clip-higher: compare the entropy curves.', show: 'chart-entropy', needs: 'step' },
    ],
    expect: 'Measured (seed 0, 300 steps each): with ε_high 0.28 the entropy is 1.01 / 1.05 / 0.93 nats at steps 100 / 200 / 300, with the symmetric clip 0.52 / 0.30 / 0.02, where every group ends without spread (61% with clip-higher). The clip itself binds rarely here (0.3% and 0.2% of tokens above, 1.1% and 0.5% below), and neither run learns the task in 300 steps (held-out pass@1 0.08–0.20; chance 0.17).',
    charts: ['reward', 'entropy', 'clip'],
    variants: [{ label: 'symmetric clip', set: { epsHigh: 0.2 } }],
    ablation: {
      question: 'Does raising only the upper clip bound (ε_high 0.28 against a symmetric 0.2) keep the entropy up and learn faster?',
      literature: 'DAPO (Yu et al. 2025) reports that clip-higher keeps the policy\'s entropy from collapsing and improves accuracy, on a 32B model reasoning about mathematics. Whether that carries over to a tiny model on S3 chains is what this ablation measures; its answer is whatever these runs show.',
      reading: 'Look first at the mechanism: fewer tokens clipped above and a higher entropy with clip-higher. A difference in steps to solve or final held-out pass@1 is claimed only at p < 0.05 over seeds.',
      variants: ['symmetric clip'],
      seeds: 4,
      steps: 600,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
      metrics: ['eval/pass@1_greedy', 'entropy', 'clip_ratio/high_mean', 'reward'],
    },
  },
  {
    name: 'mapp-vs-grpo',
    title: 'MaPP against GRPO with small groups',
    summary: 'With groups of 4 most GRPO groups are all wrong and teach nothing; MaPP\'s posterior-based advantage learns from them too.',
    set: { ...S3_SHORT, estimator: 'mapp', groupSize: 4, batchPrompts: 16, mappPool: 128, lr: 3e-3, steps: 300 },
    explanation:
      'With groups of only 4 at a low pass rate, most GRPO groups are all wrong (zero advantage) and the advantage of an answer depends on which peers it happened to be sampled with. MaPP keeps a Beta posterior of each prompt\'s pass rate over a finite pool of 128 prompts and replaces the GRPO advantage by its expectation over the peers\' outcomes, so even all-wrong groups give a (negative) signal, and it samples the prompts whose pass rate is most uncertain.',
    guide: [
      { text: 'Press ▶, then run the "GRPO" variant with the same seed.', show: 'variants' },
      { text: 'Early on most GRPO groups of 4 contain no success and have no spread: they teach nothing.', show: 'chart-groups', needs: 'step' },
      { text: 'Open a group: with MaPP an all-wrong group still gets negative advantages.', show: 'group', needs: 'advantages' },
      { text: 'MaPP trains on 128 fixed prompts: the held-out points on the reward chart show whether it generalises.', show: 'chart-reward', needs: 'step' },
    ],
    expect: 'Measured (seed 0, 300 steps each): MaPP\'s reward on its pool of 128 prompts climbs 0.09 → 0.39 while GRPO\'s stays at 0.16–0.18; but both policies collapse (entropy 0.02 and 0.05 nats, every group without spread by the end) and neither generalises: held-out pass@1 0.19 and 0.20, chance 0.17. MaPP learned its pool, not the task.',
    charts: ['reward', 'groups', 'advantages'],
    variants: [{ label: 'GRPO', set: { estimator: 'grpo' } }],
    ablation: {
      question: 'With groups of 4 at a low pass rate, where most GRPO groups are all wrong and teach nothing, does MaPP learn faster?',
      literature: 'MaPP (docs/methods.md) claims that its Beta-posterior advantage gets a signal from groups with no success, which GRPO discards, and so learns faster with small groups at a low pass rate. The answer here is whatever these runs show.',
      reading: 'MaPP trains on a fixed pool of 128 prompts, so compare the held-out pass@1 on fresh prompts, not the training reward (a higher training reward alone could be memorisation). "Groups with no spread" shows how many groups GRPO learned nothing from.',
      variants: ['GRPO'],
      seeds: 4,
      steps: 600,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
      metrics: ['eval/pass@1_greedy', 'frac_reward_zero_std', 'reward'],
    },
  },
  {
    name: 'maze-grpo',
    title: 'Mazes with original GRPO',
    summary: 'GRPO on 4×4 mazes with a progress reward: the std division and per-answer averaging bias which walks are pushed, and by how much.',
    set: { ...SMALL_MAZE, estimator: 'grpo', grpoScale: 'group', aggregation: 'seq-mean-token-mean', steps: 300 },
    explanation:
      'GRPO as in the DeepSeekMath paper on 4×4 mazes with a dense progress reward (the share of the distance to the goal covered): advantages divided by the group std, and each answer\'s loss averaged over its own tokens (seq-mean-token-mean). Walks end where the policy writes the end token, so lengths vary: per-answer averaging penalises each token of a long wrong walk less than a short one, and the std division gives nearly-solved and nearly-hopeless mazes as much weight as informative ones. Compare with maze-dr-grpo. This preset is not yet a working recipe: see the measured runs.',
    guide: [
      { text: 'Open a group: each walk is drawn on the maze, coloured by its advantage; a walk that hits a wall is marked where it hit.', show: 'group', needs: 'advantages' },
      { text: 'Watch the reward and the answer length together.', show: 'chart-length', needs: 'step' },
      { text: 'Then run maze-dr-grpo with the same seed and compare the length curves: the difference is only the std division and the aggregation.' },
    ],
    expect: 'Not yet a working recipe: a run to step 76 kept the progress reward at 0.00–0.04 with every group all wrong.',
    charts: ['reward', 'length', 'entropy'],
  },
  {
    name: 'maze-dr-grpo',
    title: 'Mazes with Dr. GRPO',
    summary: 'Dr. GRPO on the same mazes: no std division and a constant length normaliser, so every token of every walk weighs the same.',
    set: { ...SMALL_MAZE, estimator: 'grpo', grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm', steps: 300 },
    explanation:
      'Dr. GRPO ("GRPO done right"): the centred reward is not divided by the group std (no difficulty bias), and token losses are summed and divided by a constant maximum length (no length bias). Compare the answer length and the reward with maze-grpo at equal steps. This preset is not yet a working recipe: see the measured runs.',
    guide: [
      { text: 'Run it next to maze-grpo with the same seed.' },
      { text: 'Compare the answer length: under Dr. GRPO, failed walks get no discount for being long.', show: 'chart-length', needs: 'step' },
      { text: 'Compare the reward curves at equal steps.', show: 'chart-reward', needs: 'step' },
    ],
    expect: 'Not yet a working recipe (see maze-grpo); no recorded run yet.',
    charts: ['reward', 'length', 'entropy'],
  },
  {
    name: 'sort-easy',
    title: 'Sort three letters (smoke test)',
    summary: 'The smallest task that learns in seconds: the check that the whole pipeline works.',
    set: { ...SMALL_SORT, 'task.length': 3, 'task.alphabet': 3 },
    explanation:
      'Sort 3 letters from {a, b, c} with a per-position reward, on a 1-layer, width-16 model: nearly every group has reward spread from the first step, so the reward rises within seconds. It is the smoke test of the whole pipeline (the automated tests use it), not an experiment: if it does not learn, something is broken.',
    guide: [
      { text: 'Press ▶: the reward should rise within a few dozen steps.', show: 'chart-reward' },
      { text: 'Open a group to see how a per-position reward scores a half-sorted answer.', show: 'group', needs: 'step' },
    ],
    expect: 'Measured (headless, seeds 1–4): held-out greedy pass@1 ≥ 0.9 by steps 100–200, 10–20 s each.',
    charts: ['reward', 'entropy', 'advantages'],
    ablation: {
      question: 'Does a learning rate of 1e-2 undo a solved sort that 3e-3 holds?',
      literature: 'Adam divides each gradient by a running estimate of its size, so once a batch is solved its tiny, noisy gradients still become full-size steps; on this engine held-out pass@1 swung 1.0 → 0.6 at 1e-2 while four seeds held 1.0 at 3e-3 (README). The answer here is whatever these runs show.',
      reading: 'Both rates may solve equally fast; the final held-out pass@1 is where 1e-2 should lose. Small enough for a software GPU: 2 cells × 4 seeds × 300 steps.',
      grid: { lr: [0.003, 0.01] },
      seeds: 4,
      steps: 300,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
      metrics: ['eval/pass@1_greedy', 'reward', 'entropy'],
    },
  },
  {
    name: 'advantage-estimators',
    title: 'GRPO, Dr. GRPO and RLOO',
    summary: 'Three recipes that differ only in how a group\'s rewards become advantages and how token losses are averaged: does the choice matter, over seeds, on a small task?',
    set: { ...SMALL_SORT, 'task.length': 4, 'task.alphabet': 4, estimator: 'grpo', grpoScale: 'group', aggregation: 'seq-mean-token-mean' },
    explanation:
      'The start-here task (sort 4 letters, a reward per right position) with GRPO as in the DeepSeekMath paper: advantage = (reward − group mean) / group std, and each answer\'s loss averaged over its own tokens (seq-mean-token-mean). Dr. GRPO (Liu et al. 2025) drops the division by the std (which, they argue, up-weights groups that are nearly solved or nearly hopeless) and sums token losses over a constant length (per-answer averaging, they argue, lets long wrong answers off lightly). RLOO (Ahmadian et al. 2024) subtracts the mean of the other G − 1 answers, which is G/(G − 1) times Dr. GRPO\'s centred reward; here it keeps GRPO\'s per-answer averaging, so it differs from GRPO by the division alone. The papers report their claims on large language models; on this task the answer is whatever the runs show.',
    guide: [
      { text: 'Three recipes, one task: they differ only in how a group\'s scores become advantages and how the loss is averaged over tokens.', show: 'loop' },
      { text: 'Press ▶: this is GRPO as first published, each score minus its group\'s mean, divided by the group\'s spread.', show: 'chart-advantages', needs: 'advantages' },
      { text: 'Run the "Dr. GRPO" variant: no division by the spread, and a constant length normaliser. Its authors claim both biases of GRPO are removed.', show: 'variants' },
      { text: 'Run "RLOO": each score minus the mean of the other answers of its group. Compare the answer lengths and the reward curves.', show: 'chart-length', needs: 'step' },
      { text: 'One run of each is an anecdote: the ablation runs every recipe on 4 seeds and claims a difference only where the seeds support it.', show: 'chart-reward', needs: 'step' },
    ],
    expect: 'No recorded runs yet. The task is easy (start-here reaches a reward of 0.8 by step ≈ 200 with GRPO), so expect all three to learn; whether they differ is for the ablation to say.',
    charts: ['reward', 'advantages', 'length', 'entropy'],
    variants: [
      { label: 'Dr. GRPO', set: { grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' } },
      { label: 'RLOO', set: { estimator: 'rloo' } },
    ],
    ablation: {
      question: 'Does the advantage estimator (GRPO, Dr. GRPO or RLOO) change how fast a small model learns, over seeds?',
      literature: 'Dr. GRPO (Liu et al. 2025) reports that removing GRPO\'s std division and per-answer length averaging gives the same accuracy with shorter wrong answers; RLOO (Ahmadian et al. 2024) reports that a leave-one-out baseline matches or beats PPO-style training at lower cost. Both claims come from large language models; on this small task the answer is whatever these runs show.',
      reading: 'Compare steps to solve and the final held-out pass@1, then the answer length (the length bias Dr. GRPO removes). On a task this easy, "not different at this many seeds" is the likely and honest outcome.',
      variants: ['Dr. GRPO', 'RLOO'],
      seeds: 4,
      steps: 300,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
      metrics: ['eval/pass@1_greedy', 'reward', 'completions/mean_length', 'entropy'],
    },
  },
  {
    name: 'cot-a4',
    title: 'A chain of thought on A4: twelve elements',
    summary: 'The cot-discovery recipe on A4, the 12 rotations of a tetrahedron: 144 products to discover from a last-token reward instead of 36, so the wait at length 2 is long.',
    set: { ...COT_INTERLEAVED, 'task.group': 'A4', steps: 2500 },
    explanation:
      'cot-discovery with only the group changed: A4, the even permutations of four objects (order 12). The environment writes x_t, the model writes y_t, and only the last y is checked. At length 2 the model must find all 144 products x₁·x₂, and a guess is right 1 time in 12; with 16 prompts × 16 samples a step brings each product about B·G/n³ = 0.15 successes, 8× fewer than S3\'s 1.2, so length 2 takes far longer; past it, each longer chain reuses the same products. The "more samples" variant raises the prompts per step to 64 (B·G/n³ = 0.59). A4 is solvable (its derived series is 12, 4, 1), so a fixed-depth network can in principle multiply its chains at once; the chain of thought is the easy way, not the only one.',
    guide: [
      { text: 'The task: chains of the 12 rotations of a tetrahedron (A4); the environment writes each element, the model writes the running product after it, and only the last one is checked.', show: 'group' },
      { text: 'Press ▶. At length 2 a guess is right 1 time in 12: the chance line sits at half of S3\'s.', show: 'chart-reward' },
      { text: 'The level stays at 2 for a long time: 144 products must each be found by trial and error, and each is drawn in only a few groups a step.', show: 'chart-level', needs: 'step' },
      { text: 'Once length 2 is passed the longer chains come quickly: CoT alignment shows the running products written although only the last is rewarded.', show: 'chart-task', needs: 'step' },
      { text: 'Run the "more samples" variant: 4× the prompts per step gives each product 4× the successes; compare the steps to leave length 2.', show: 'variants' },
    ],
    expect: 'Measured on an H200 (Dawn/Vulkan) with the 6,000-step budget: solved on 4 of 4 seeds, held-out greedy pass@1 1.000 / 1.000 / 0.988 / 0.996 (CoT alignment 1.000 / 0.970 / 0.985 / 0.985) at steps 2,100 / 1,500 / 1,600 / 1,900, 135–164 s each. On a software GPU that is hours: seed 0 was still at length 2 after 914 steps (held-out 0.59–0.63, needs 0.9). The "more samples" variant has no recorded run yet.',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [{ label: 'more samples', set: { batchPrompts: 64 } }],
  },
  {
    name: 'cot-s4',
    title: 'A chain of thought on S4: more samples for more products',
    summary: 'S4 has 24 elements and 576 products: with cot-discovery\'s 256 samples a step each product is rarely right and learning stalls at length 2, so this recipe samples 8× more.',
    set: { ...COT_S4, steps: 3000 },
    explanation:
      'cot-discovery on S4 (order 24), with 64 prompts × 32 samples a step instead of 16 × 16. Why: at length 2 the policy must find all 576 products and a guess is right 1 time in 24, so a step of B prompts × G samples brings each product about B·G/n³ successes — 1.2 for S3 at 16 × 16, but 0.018 for S4, and the plain recipe stayed at length 2 (1,600 and 1,700 steps on an H200; 600 on a software GPU, where a decoded checkpoint showed nearly every product still at chance, not collapsed). The model is not the limit: a supervised warm start with the same 2-layer, width-32 model learns all 576 products in 300 steps. 64 × 32 gives 0.15 per product per step, the rate at which A4 was solved (in 1,500–2,100 steps on an H200); it is also about the most that fits a 1 GB GPU budget. On a larger GPU more samples a step should shorten the wait. The "as cot-discovery" variant is the plain recipe.',
    guide: [
      { text: 'The task: chains of the 24 permutations of four objects. Only the last running product is checked.', show: 'group' },
      { text: 'Each step samples 64 prompts × 32 answers: the 576 products of S4 each need successes to be learned, and a guess is right only 1 time in 24.', show: 'chart-reward' },
      { text: 'Watch the level: with cot-discovery\'s 16 × 16 it stays at 2; here it should move on.', show: 'chart-level', needs: 'step' },
      { text: 'Run the "as cot-discovery" variant (16 prompts × 16 answers) with the same seed and compare the level curves.', show: 'variants' },
      { text: 'A stalled run can be diagnosed: rlvr eval --breaks decodes the held-out chains and lists the products the policy gets wrong, with the probability it gives the right one.' },
    ],
    expect: 'This recipe has no recorded run yet (2,048 samples a step needs a real GPU; the README lists the command). The plain recipe ("as cot-discovery") stayed at length 2: 1,600 and 1,700 steps on an H200 (seeds 0 and 1), and 600 steps on a software GPU (seed 0) ended at held-out 0.14 with 451 of 512 chains breaking at y₂ and only 1 of 291 wrong products collapsed: the products were never found, not lost.',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [{ label: 'as cot-discovery', set: { batchPrompts: 16, groupSize: 16 } }],
  },
  {
    name: 'cot-a5',
    title: 'A chain of thought on A5, the smallest non-solvable group',
    summary: 'A5 has 60 elements: no fixed-depth network multiplies its chains at once (unless complexity classes collapse), but a chain of thought turns each chain into single products.',
    set: { ...COT_A5, steps: 3000 },
    explanation:
      'cot-discovery on A5, the rotations of an icosahedron (order 60), with 64 prompts × 32 samples a step. A5 is the smallest non-solvable group: iterated multiplication in it is NC¹-complete (Barrington 1989), while a transformer of fixed depth computes within TC⁰ (Merrill and Sabharwal 2023), so unless TC⁰ = NC¹ no fixed-depth transformer multiplies A5 chains of every length at once. For solvable groups (S3, A4, S4) shallow shortcuts exist (Liu et al. 2023, "Transformers learn shortcuts to automata"). Written one running product per token, the chain becomes single products, which a fixed depth does compute. The cost is the table: 3,600 products, each right 1 time in 60 at first, so a step brings each product about B·G/n³ successes: only 0.0095 at 64 × 32 (the most that fits a 1 GB GPU budget), 16× below A4\'s rate at 16 × 16, which solved A4 in 1,500–2,100 steps on an H200. On a large GPU raise batchPrompts and groupSize (256 × 64 gives 0.076 and needs about 8 GB).',
    guide: [
      { text: 'The task: chains of the 60 rotations of an icosahedron (A5). The model writes every running product; only the last is checked.', show: 'group' },
      { text: 'A5 is the smallest group whose chains no fixed-depth network can multiply in one go; written out step by step, each token is one product.' },
      { text: 'Press ▶. A guess is right 1 time in 60, and there are 3,600 products to find: the reward starts at the chance line and stays near it for long.', show: 'chart-reward', needs: 'step' },
      { text: 'The level is the figure to watch: each step up is a longer chain passed at 0.9 on held-out prompts.', show: 'chart-level', needs: 'step' },
      { text: 'Compare no-cot-a5: the same recipe with the chain shown at once and one answer token.' },
    ],
    expect: 'No recorded run yet: it needs a real GPU (the README lists the command). A warning from a smaller run: a supervised warm start of 400 steps with this 2-layer, width-32 model reached only 0.057 on A5 length 2 (chance 0.017), where S4\'s 576 products took 300 steps to reach 1.000, so for A5\'s 3,600 products the model\'s width may be the limit before the signal is.',
    charts: ['reward', 'level', 'task', 'entropy'],
  },
  {
    name: 'no-cot-a5',
    title: 'A5 with no room to think',
    summary: 'The control for cot-a5: the whole A5 chain at once and a single answer token, so the model must compose the chain in one forward pass.',
    set: { ...COT_A5, 'task.layout': 'block', 'task.scratch': 1, steps: 3000 },
    explanation:
      'cot-a5 with the chain shown whole (block layout) and room for one answer token (scratch 1), as no-cot-room is to cot-discovery. For A5 the theory says more than for S3: iterated A5 multiplication is NC¹-complete (Barrington 1989) and a fixed-depth transformer computes within TC⁰ (Merrill and Sabharwal 2023), so as the chains grow a 2-layer model answering at once should fail unless TC⁰ = NC¹. At lengths this short a finite table could still be memorised in principle; what the runs show is the measurement. The "room to think" variant is cot-a5.',
    guide: [
      { text: 'The same A5 chains, shown at once; the model writes one token, the answer.', show: 'group' },
      { text: 'Press ▶. Length 1 (copy) and length 2 (one product) fit in one forward pass.', show: 'chart-level', needs: 'step' },
      { text: 'Then each longer chain is a composition the 2-layer model must do inside itself: watch the pass rate at the chance line 1/60.', show: 'chart-reward', needs: 'step' },
      { text: 'Run "room to think" (cot-a5) on the same seed: the only difference is the scratchpad.', show: 'variants' },
    ],
    expect: 'No recorded run yet (a real GPU is needed). The theory expects the pass rate near the chance line 1/60 once chains are longer than the model can compose in one pass.',
    charts: ['reward', 'level', 'entropy'],
    variants: [{ label: 'room to think', set: { 'task.layout': 'interleaved', 'task.scratch': 0 } }],
    ablation: {
      question: 'On A5, the smallest non-solvable group, does room to think (one running product per token) make chains of 6 learnable where one answer token fails?',
      literature: 'Iterated multiplication in A5 is NC¹-complete (Barrington 1989) and fixed-depth transformers compute within TC⁰ (Merrill and Sabharwal 2023), so answering at once should fail on long enough chains unless TC⁰ = NC¹, while a chain of thought reduces each step to one product. On S3 this engine\'s no-cot-room reached only length 3 while cot-discovery solved length 6 (README). This ablation runs both on A5 on the same seeds, and its answer is whatever these runs show.',
      reading: 'The final curriculum level is the main figure. "Solved" is held-out pass@1 ≥ 0.97 at length 6; with 4 seeds a cell a difference is claimed only at p < 0.05. Both failing says the recipe does not reach A5 yet, not that the theory is wrong.',
      variants: ['room to think'],
      seeds: 4,
      steps: 6000,
      solved: { metric: 'eval/pass@1_greedy', target: 0.97, level: 6 },
      metrics: ['level', 'eval/pass@1_greedy', 'reward', 'entropy'],
    },
  },
  {
    name: 'cot-block',
    title: 'Room to think after the whole chain',
    summary: 'The S3 chain shown whole, then a scratchpad of k tokens and the answer last: the model must find each next element in the prompt itself, the non-myopic setting.',
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 0, steps: 1000 },
    explanation:
      'The block layout of no-cot-room (BOS x₁ … x_k SEP) with a scratchpad as long as the chain (scratch 0 = k) instead of one answer token; only the last y is rewarded, and the curriculum starts at length 1 as in cot-discovery. Interleaved (cot-discovery) hands the model x_t right before y_t, so each step is myopic: one product of the two tokens just written. Here y_j must fetch x_j from the prompt by its position and multiply it into y_{j−1}: the scratchpad still makes the chain single products, but where to look must be learned as well, and nothing forces the scratchpad to hold running products — the model may use it any way that gets the last token right. The "no room" variant is no-cot-room; "interleaved" is cot-discovery.',
    guide: [
      { text: 'The same S3 chains as cot-discovery, but shown whole before the answer; the model may write k tokens and only the last is checked.', show: 'group' },
      { text: 'Press ▶. Length 1 is a copy of x₁, length 2 a single product, as in cot-discovery.', show: 'chart-level', needs: 'step' },
      { text: 'CoT alignment: does the scratchpad hold the running products x₁, x₁x₂, …, although nothing rewards them?', show: 'chart-task', needs: 'step' },
      { text: 'Compare "no room" (one answer token, as no-cot-room) and "interleaved" (the elements handed over one at a time, as cot-discovery) on the same seed.', show: 'variants' },
    ],
    expect: 'No recorded run yet. For comparison: no-cot-room (the same layout with one answer token) reached only length 3 on seeds 0 and 3, and cot-discovery (interleaved) solved length 6 on 4 of 4.',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [
      { label: 'no room', set: { 'task.scratch': 1 } },
      { label: 'interleaved', set: { 'task.layout': 'interleaved' } },
    ],
    ablation: {
      question: 'With the whole S3 chain shown first, does a scratchpad of k tokens make length 6 learnable where one answer token stalls?',
      literature: 'The seed paper finds the chain of thought discovered in the interleaved ("myopic") layout, where each step is one product of the two tokens before it. In the block layout a scratchpad must also learn where in the prompt the next element is. On this engine no-cot-room (block, one token) reached length 3 and cot-discovery (interleaved) solved length 6 on 4/4 seeds (README). This ablation runs the block scratchpad against no room on the same seeds, and its answer is whatever these runs show.',
      reading: 'The final level is the main figure, then CoT alignment: a solved run with alignment near 1 found the running products; a solved run with low alignment found another use of the scratchpad. "Solved" is held-out pass@1 ≥ 0.97 at length 6.',
      variants: ['no room'],
      seeds: 4,
      steps: 1500,
      solved: { metric: 'eval/pass@1_greedy', target: 0.97, level: 6 },
      metrics: ['level', 'eval/pass@1_greedy', 'eval/task/cot_alignment_prefix', 'entropy'],
    },
  },
  {
    name: 'your-estimator',
    title: 'Your own estimator: GRPO with one line changed',
    summary: 'The estimator is code you can read and edit in the page: GRPO without its division by the group\'s spread. Does that one line matter, over seeds?',
    set: { ...SMALL_SORT, 'task.length': 4, 'task.alphabet': 4, estimator: 'custom', customEstimator: GRPO_NO_STD_SOURCE },
    explanation:
      'The start-here task (sort 4 letters, a reward per right position) with the estimator written as code: GRPO, each reward minus its group\'s mean, but no longer divided by the group\'s standard deviation (one line changed; the code tab shows it). That is Dr. GRPO\'s advantage (Liu et al. 2025), who argue the division up-weights groups that are nearly solved or nearly hopeless, where the spread is small. The code runs in a sandbox beside the trainer, loaded once per run, and its output is checked at every step (length, finite values, inputs untouched). Given GRPO\'s own code the custom path is the built-in run bit for bit, so any difference the ablation finds is the line\'s.',
    guide: [
      { text: 'This lesson\'s estimator is code: GRPO with one line changed, no division by the group\'s spread. Open the code tab (your estimator) to read it.', show: 'loop' },
      { text: 'Press ▶: the run trains with that code, loaded once and checked at every step.', show: 'play' },
      { text: 'Look at the advantages: undivided, a group\'s advantages are as large as its rewards differ, so nearly solved groups push less than under GRPO.', show: 'chart-advantages', needs: 'advantages' },
      { text: 'Run the "GRPO" variant on the same seed, then compare the reward curves.', show: 'variants' },
      { text: 'One run each is an anecdote: the ablation runs both estimators on 4 seeds, and its verdict names the custom cell.', show: 'chart-reward', needs: 'step' },
      { text: 'Break it on purpose: return one value too few, divide by zero, or loop forever. The run stops at that step with the line, and keeps its weights and charts.' },
    ],
    expect: 'Measured (rlvr sweep --preset your-estimator --backend cpu, seeds 0–3, 300 steps): GRPO and the one-line change each solved 2 of 4 seeds (held-out pass@1 ≥ 0.9: GRPO at steps 200 and 300, the change at 250 and 300); final held-out pass@1 0.88 [0.59, 1.00] against 0.86 [0.60, 1.00]: not different at this many seeds (p = 1.00).',
    charts: ['reward', 'advantages', 'entropy'],
    variants: [{ label: 'GRPO', set: { estimator: 'grpo' } }],
    ablation: {
      question: 'Does dividing by the group\'s spread (GRPO) or not (your one-line change) change how fast a small model learns to sort, over seeds?',
      literature: 'Dr. GRPO (Liu et al. 2025) reports that dropping the division removes a difficulty bias without costing accuracy, on large language models. On this small task the answer is whatever these runs show.',
      reading: 'Compare steps to solve and the final held-out pass@1. "Not different at this many seeds" is an honest and likely answer on a task this easy; the custom cell\'s code is in the exported JSON and every run\'s config.',
      grid: { estimator: ['grpo', 'custom'] },
      seeds: 4,
      steps: 300,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
      metrics: ['eval/pass@1_greedy', 'reward', 'entropy'],
    },
  },
];

export const PRESET_NAMES: readonly string[] = PRESETS.map((p) => p.name);

/** The preset with this name; an unknown name is a ConfigError listing the names. */
export function getPreset(name: string): Preset {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) {
    throw new ConfigError('preset', `preset must be one of ${PRESET_NAMES.join(', ')}; got ${quoteInput(name)}`);
  }
  return preset;
}

const cache = new Map<string, RunConfig>();

/** The validated config of a preset (a fresh copy each call). */
export function presetConfig(name: string): RunConfig {
  let config = cache.get(name);
  if (!config) {
    config = mergeConfig(defaultConfig(), getPreset(name).set);
    cache.set(name, config);
  }
  return { ...config };
}

/** The config of one of a preset's variants (by label). */
export function variantConfig(name: string, label: string): RunConfig {
  const preset = getPreset(name);
  const variant = (preset.variants ?? []).find((v) => v.label === label);
  if (!variant) {
    const labels = (preset.variants ?? []).map((v) => JSON.stringify(v.label));
    throw new ConfigError(
      'variant',
      `preset ${name} has ${labels.length ? `variants ${labels.join(', ')}` : 'no variants'}; got ${quoteInput(label)}`,
    );
  }
  return mergeConfig(presetConfig(name), variant.set);
}
