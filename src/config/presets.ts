// Presets: small, named diffs on the default config, each with what it shows, what to watch,
// and a short guided tour for lecturers. `variants` are one-click comparison runs (diffs on the
// preset itself) that the UI can launch side by side.
//
// Initial pass rates quoted below were measured with a uniform random policy over the task
// vocabulary (what a freshly initialised model is close to), with the task library itself.

import { ConfigError, defaultConfig, mergeConfig, type RunConfig } from './config';
import type { KnobValue } from './knobs';

export interface PresetVariant {
  /** Legend label of the comparison run. */
  readonly label: string;
  /** Diff on the preset's config. */
  readonly set: Readonly<Record<string, KnobValue>>;
}

export interface Preset {
  readonly name: string;
  readonly title: string;
  /** Diff on `defaultConfig()` (task parameters as `task.<param>`). */
  readonly set: Readonly<Record<string, KnobValue>>;
  /** One paragraph: what it shows, what to watch. */
  readonly explanation: string;
  /** A short guided explanation, one step per entry, for lecturers. */
  readonly guide: readonly string[];
  /** Comparison runs. */
  readonly variants?: readonly PresetVariant[];
}

// Shared by cot-discovery and no-cot-room: the probe's recipe for S3 chains.
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

export const PRESETS: readonly Preset[] = [
  {
    name: 'cot-discovery',
    title: 'A chain of thought discovered from a last-token reward',
    set: { ...COT_RECIPE, 'task.layout': 'interleaved', 'task.scratch': 0 },
    explanation:
      'A 2-layer, width-32 transformer trained from scratch on iterated S3 multiplication, rewarded only for its last token, learns to write the running product after every input element: an algorithmic chain of thought nobody rewarded directly. The environment writes x_t and the policy writes y_t after it (interleaved layout); a length curriculum starts at 1 (copy the element) and advances at pass rate 0.9 up to 6, so each y_t is the rewarded last token at some level. A uniform regulator (α = 0.05, entropyMode uniform: a pull toward the uniform distribution that, unlike the entropy\'s, does not fade on a collapsed row) keeps groups of 16 informative and pulls back answers that collapsed onto a wrong element; a KL anchor (k3, β = 0.5) re-synced at each advance, masked on the newly added positions, keeps the chain learned so far while the next length is learned. The weights start at 5× GPT-2\'s init scale (model.initStd 0.1): the first product is an interaction no single input predicts, and at 0.02 its gradient was too weak to leave the uniform policy under the entropy bonus. Watch the curriculum level step up, the pass rate dip and recover after each advance, and in the rollout inspector the intermediate y_t becoming the running products x_1⋯x_t. Results per seed: README, "Learning results".',
    guide: [
      'Before starting, open a rollout: the y tokens are random and only the last one is checked against the product of the chain.',
      'Start. Length 1 (copy x_1) is learned in a few steps; at length 2 a random policy is right about 1 time in 10: watch the pass rate climb to 0.9 and the curriculum advance to length 3.',
      'After each advance the pass rate drops (the new last element is unseen) and recovers: the KL chart shows the anchor holding the old positions.',
      'Open rollouts again: the intermediate y_t now equal the running products x_1⋯x_t. The model invented the chain of thought because it is the only way to get the last token right.',
      'Ablation: the "no KL anchor" variant — in the probe each new length erased the learned chain without it.',
      'Contrast: the no-cot-room preset gives the model no room to think.',
    ],
    variants: [
      { label: 'no KL anchor', set: { klBeta: 0, refSync: 'none' } },
      { label: 'no entropy bonus', set: { entropyAlpha: 0 } },
      { label: 'exact entropy bonus', set: { entropyMode: 'exact', entropyAlpha: 0.1 } },
    ],
  },
  {
    name: 'no-cot-room',
    title: 'The same task with no room to think',
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 1 },
    explanation:
      'The cot-discovery recipe, but the whole chain is shown at once (block layout) and the policy may write a single token: the answer (scratch = 1; the interleaved layout always gives one token per element, so it cannot express this). A 2-layer model must now compose the whole chain in one forward pass. Watch the curriculum: expect short chains to be learned, then the pass rate to stall as the length grows (chance is 1/6 for S3) and the level to stop advancing, while cot-discovery keeps going. Run both side by side.',
    guide: [
      'Run cot-discovery and no-cot-room side by side with the same seed.',
      'Both learn length 2: one multiplication fits in one forward pass.',
      'Expect no-cot-room to stall a few lengths in, its pass rate sinking toward 1/6 (chance for S3), while cot-discovery advances.',
      'The lesson: the scratchpad, not more reward, is what makes the problem learnable; the chain of thought is computation the model needs room for.',
    ],
  },
  {
    name: 'maze-grpo',
    title: 'Mazes with original GRPO',
    set: { ...SMALL_MAZE, estimator: 'grpo', grpoScale: 'group', aggregation: 'seq-mean-token-mean' },
    explanation:
      'GRPO as in the DeepSeekMath paper on 4×4 mazes with a dense progress reward: advantages divided by the group std, and each sequence\'s loss averaged over its own tokens (seq-mean-token-mean). Maze walks end where the policy writes EOS, so lengths vary. Watch completions/mean_length: per-sequence averaging penalises each token of a long wrong walk less than a short one, so failed walks tend to grow, and the std division gives nearly-solved and nearly-hopeless mazes as much weight as informative ones. Compare with maze-dr-grpo.',
    guide: [
      'Start, and open a rollout: the moves are random, and the reward is the fraction of the distance to the goal covered.',
      'Watch reward and completions/mean_length together.',
      'Then run maze-dr-grpo with the same seed and compare the length curves: the difference is only the std division and the aggregation.',
    ],
  },
  {
    name: 'maze-dr-grpo',
    title: 'Mazes with Dr. GRPO',
    set: { ...SMALL_MAZE, estimator: 'grpo', grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' },
    explanation:
      'Dr. GRPO ("GRPO done right") on the same mazes: the centred reward is not divided by the group std (no difficulty bias), and token losses are summed and divided by a constant maximum length (no length bias: every token of every walk weighs the same whatever its walk\'s length). Watch whether completions/mean_length stays tied to the maze distances instead of drifting, and compare the reward curve with maze-grpo.',
    guide: [
      'Run next to maze-grpo with the same seed.',
      'Compare completions/mean_length: under Dr. GRPO, failed walks get no discount for being long.',
      'Compare the reward curves at equal steps.',
    ],
  },
  {
    name: 'entropy-collapse',
    title: 'Entropy collapse, and an adaptive entropy bonus',
    set: { ...S3_SHORT, lr: 1e-2, entropyAlpha: 0, entropyTarget: 0 },
    explanation:
      'Plain GRPO with no entropy regulariser and an aggressive learning rate (1e-2) on a short S3 chain. The failure to look for: the policy becomes deterministic before it has found the answer for every input, so the entropy chart falls toward 0, frac_reward_zero_std rises toward 1 (every group all right or all wrong, so no gradient) and the pass rate freezes below 1. The "adaptive entropy" variant starts at α = 0.05 and moves α by 0.005 per step to hold the mean entropy at 0.5 nats: α rises when entropy falls, groups stay informative and learning continues. The spin-glass paper argues the choice of entropy regulator is what gets RLVR across the landscape\'s diffusive barriers.',
    guide: [
      'Start the preset and the "adaptive entropy" variant with the same seed.',
      'Watch the entropy chart: without a regulator, expect it to fall toward 0 well before the pass rate reaches 1.',
      'Watch frac_reward_zero_std: a collapsed policy gives identical completions, so groups carry no signal and learning stops.',
      'In the adaptive run, α (its own chart) rises when entropy falls below the target; compare the pass rates at equal steps.',
      'Try the "sampled regulator" variant: the same bonus estimated from samples is noisier.',
    ],
    variants: [
      { label: 'adaptive entropy', set: { entropyAlpha: 0.05, entropyTarget: 0.5, entropyAlphaStep: 0.005 } },
      {
        label: 'sampled regulator',
        set: { entropyAlpha: 0.05, entropyTarget: 0.5, entropyAlphaStep: 0.005, entropyMode: 'sampled' },
      },
    ],
  },
  {
    name: 'dead-groups',
    title: 'Dead groups: no success, no signal',
    set: { task: 'sort', 'task.length': 8, 'task.alphabet': 16, 'task.reward': 'exact' },
    explanation:
      'Sorting 8 letters from a 16-letter alphabet with an all-or-nothing reward: a random policy essentially never gets it exactly right, so every group has all-zero rewards, every group-relative advantage is 0, and nothing is learned however long it runs. Watch reward stay at 0, frac_reward_zero_std sit at 1 and grad_norm at 0. The "partial reward" variant gives credit per correct position: the same task learns. Dynamic sampling does not help: it can only filter groups, not create successes.',
    guide: [
      'Start: reward 0, frac_reward_zero_std 1, grad_norm 0. The model is not broken; there is nothing to learn from.',
      'Ask: what would GRPO need? At least one success per group.',
      'Run the "partial reward" variant: a dense reward gives every group some spread and learning starts at once.',
      'Run the "dynamic sampling" variant: each step samples 3× as much and still finds no informative group.',
      'Fixes in practice: dense rewards, a curriculum that starts where random guesses sometimes succeed, or a warm start (sftSteps).',
    ],
    variants: [
      { label: 'partial reward', set: { 'task.reward': 'partial' } },
      { label: 'dynamic sampling', set: { dynamicSampling: true } },
    ],
  },
  {
    name: 'mapp-vs-grpo',
    title: 'MaPP against GRPO with small groups',
    set: { ...S3_SHORT, estimator: 'mapp', groupSize: 4, batchPrompts: 16, mappPool: 128, lr: 3e-3 },
    explanation:
      'With groups of only 4 at a low pass rate, most GRPO groups are all wrong (zero advantage) and the advantage of a completion depends on which peers it happened to be sampled with ("composition noise"). MaPP keeps a Beta posterior of each prompt\'s pass rate over a finite pool of 128 prompts and replaces the GRPO advantage by its expectation over the peers\' outcomes, so even all-wrong groups give a (negative) signal, and it samples the prompts whose pass rate is most uncertain. Compare with the "GRPO" variant: watch reward per step and frac_reward_zero_std.',
    guide: [
      'Start the preset and its "GRPO" variant with the same seed.',
      'Early on, GRPO\'s frac_reward_zero_std is high: most groups of 4 contain no success and teach nothing.',
      'MaPP learns from those groups too, because its advantage uses the posterior pass rate, not only the sampled peers.',
      'Note the pool: MaPP trains on 128 fixed prompts; check eval (held-out prompts) to see it generalises.',
    ],
    variants: [{ label: 'GRPO', set: { estimator: 'grpo' } }],
  },
  {
    name: 'clip-higher',
    title: 'DAPO clip-higher',
    set: { ...S3_SHORT, epochs: 2, minibatches: 4, epsHigh: 0.28, lr: 3e-3 },
    explanation:
      'Samples are reused (2 epochs × 4 minibatches), so the ratio ρ leaves 1 and clipping acts. With symmetric clipping (0.2) a token that was unlikely but good can only grow by 20% per batch, while likely tokens keep sharpening: entropy falls. DAPO\'s clip-higher raises the upper bound to 0.28. Watch clip_ratio/high_mean (how often the upper clip binds) and entropy, against the "symmetric clip" variant.',
    guide: [
      'Explain the ratio ρ and why it is exactly 1 with one epoch and one minibatch (the default).',
      'Start the preset and its "symmetric clip" variant.',
      'clip_ratio/high_mean is lower with ε_high = 0.28: fewer positive updates are cut.',
      'DAPO reports that entropy declines more slowly with clip-higher; compare the entropy and pass-rate curves at equal steps.',
    ],
    variants: [{ label: 'symmetric clip', set: { epsHigh: 0.2 } }],
  },
  {
    name: 'sort-easy',
    title: 'Sort three letters (fast; for tests)',
    set: {
      task: 'sort',
      'task.length': 3,
      'task.alphabet': 3,
      'task.reward': 'partial',
      'model.nEmbd': 16,
      'model.nLayer': 1,
      'model.nHead': 2,
      batchPrompts: 8,
      groupSize: 8,
      // 3e-3, not 1e-2: at 1e-2 Adam turns the near-zero gradients of a solved batch into
      // full-size random steps and held-out pass@1 swung 1.0 → 0.6; at 3e-3 seeds 1–4 all
      // reached greedy pass@1 1.0 by step 200 and stayed there (sweep in the trainer's notes).
      lr: 3e-3,
      warmupSteps: 0,
      steps: 300,
      evalEvery: 50,
      evalPrompts: 16,
      evalK: 4,
    },
    explanation:
      'Sort 3 letters from {a, b, c} with a per-position reward, on a 1-layer, width-16 model: nearly every group has reward spread from the first step, so the reward rises within seconds. It is the smoke test of the whole pipeline (tests, CI, first contact with the UI), not an experiment. If it does not learn, something is broken.',
    guide: [
      'Start: the reward should rise visibly within a few dozen steps.',
      'Open a rollout to see how a per-position reward scores a half-sorted answer.',
    ],
  },
];

export const PRESET_NAMES: readonly string[] = PRESETS.map((p) => p.name);

/** The preset with this name; an unknown name is a ConfigError listing the names. */
export function getPreset(name: string): Preset {
  const preset = PRESETS.find((p) => p.name === name);
  if (!preset) {
    throw new ConfigError('preset', `preset must be one of ${PRESET_NAMES.join(', ')}; got ${JSON.stringify(name)}`);
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
      `preset ${name} has ${labels.length ? `variants ${labels.join(', ')}` : 'no variants'}; got ${JSON.stringify(label)}`,
    );
  }
  return mergeConfig(presetConfig(name), variant.set);
}
