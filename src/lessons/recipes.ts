// Configs several lessons share (the chain-of-thought recipes, small mazes and sorts), each a
// diff on the default config; why each value was chosen is said beside it. And the maze base
// model that two maze lessons start from.

import type { KnobValue } from '../config/knobs';
import type { LessonCheckpoint, PresetAblation } from './types';

// Shared by cot-discovery and no-cot-room: the probe's recipe for S3 chains (docs/methods.md).
export const COT_RECIPE = {
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

// The two layouts the chain lessons compare. Room to think: one y after each x, every running
// product written (scratch 0 = as many y as x). No room: the whole chain shown first (block), then
// a single answer token, so the model must compose the chain in one forward pass.
export const ROOM_TO_THINK = { 'task.layout': 'interleaved', 'task.scratch': 0 } as const;
export const NO_ROOM = { 'task.layout': 'block', 'task.scratch': 1 } as const;

// cot-discovery as shipped: the recipe with room to think.
export const COT_INTERLEAVED = { ...COT_RECIPE, ...ROOM_TO_THINK } as const satisfies Record<string, KnobValue>;

// How the chain lessons' ablations (cot-discovery, cot-block, no-cot-room, no-cot-a5) judge a run:
// by how far its chain got. "Solved" is held-out greedy pass@1 ≥ 0.97 at the final length, 6; the
// final curriculum level is the main figure. `third`, the metric that tells the cells apart beside
// those: CoT alignment where the model writes a scratchpad, the reward where it answers at once.
export function chainAblationVerdict(third: 'eval/task/cot_alignment_prefix' | 'reward') {
  const verdict = {
    solved: { metric: 'eval/pass@1_greedy', target: 0.97, level: 6 },
    metrics: ['level', 'eval/pass@1_greedy', third, 'entropy'],
  };
  return verdict satisfies Partial<PresetAblation>;
}

// How the ablations without a curriculum (clip-higher, mapp-vs-grpo, advantage-estimators,
// sort-easy, your-estimator) judge a run: "solved" is held-out greedy pass@1 ≥ 0.9 (the rule
// `rlvr sweep` takes by default without a curriculum), the main figure; `others` are the metrics
// compared beside it, the ones that tell the lesson's cells apart first.
export function passAblationVerdict(...others: readonly string[]) {
  const verdict = {
    solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
    metrics: ['eval/pass@1_greedy', ...others],
  };
  return verdict satisfies Partial<PresetAblation>;
}

// Larger groups. At length 2 the policy must find all n² products, and at first a sample is
// right 1 time in n, so a step of B prompts × G samples brings each product about B·G/n³
// successes: S3 (B = G = 16) 1.2, A4 0.15 (solved, in 1,500–2,100 steps on an H200), S4 0.018
// (stuck at length 2). A supervised warm start with the same model learns all 576 products of
// S4 in 300 steps (README), so it is the signal per product, not the model's size, that runs out:
// these recipes raise B·G. 64 × 32 = 2,048 samples a step is the most that keeps a preset within
// a 1 GB GPU budget (about 0.95 GB here; every preset must run on a small laptop GPU): for S4 it
// gives A4's rate (0.15), for A5 only 0.0095; on a larger GPU raise batchPrompts and groupSize
// (the fit check names the largest that fits).
function withLargerGroups<G extends string>(group: G) {
  const recipe = { ...COT_INTERLEAVED, 'task.group': group, batchPrompts: 64, groupSize: 32 } as const;
  return recipe satisfies Record<string, KnobValue>;
}
export const COT_S4 = withLargerGroups('S4');
export const COT_A5 = withLargerGroups('A5');

// A small myopic S3 task shared by the optimisation presets: learnable from scratch without a
// curriculum (a random policy is right ~7% of the time, and ~40% of groups of 8 are informative).
export const S3_SHORT = {
  task: 'groupmul',
  'task.group': 'S3',
  'task.layout': 'interleaved',
  'task.length': 4,
} as const satisfies Record<string, KnobValue>;

// Mazes from a base model (maze-base-rl; docs/results.md, "Mazes"). The cell-note answer puts
// where the walk is into the text: the base model's walks then hit a wall in 18.6% of walks, against
// 73-86% with moves alone. The start cell's note ends the prompt (task.startNote): without it the
// first move is the one move that follows no note of where the walk stands, and that is where the
// walks failed (walls 0.4% against 12.4%; the whole 4x4 at 0.60 / 0.57 by step 800 against 0.23-0.29).
// B 32 × G 4: many mazes per step (where is the goal from here?) matter more than many walks per
// maze. The anchor stays on the base model (refSync none).
// lr 1e-3, not the warm start's 3e-3: at 3e-3 Adam turned the small steady gradients on the nearly
// certain note tokens into full-size steps, the notes went from 94% to 23-45% true within 25 steps
// and level 2 stalled at 0.44-0.45; at 1e-3 the notes stay useful and level 2 climbs.
// The curriculum starts at level 2 (the goal one or two moves away): a level 1 of its own taught
// "stop after one move" (p(go on) 0.03), which then held level 2 down.
// Dynamic sampling: at level 2 many groups are all right or all wrong; it samples more mazes until
// 32 groups teach something (at most 4 rounds).
// No warm start here: the lesson starts from its shipped base model (its first guide step loads
// it), since 1,500 warm-start steps would hold the page for many minutes on a software GPU; how
// that base model was made, and the runs from it (rlvr train --init), are in docs/results.md.
export const MAZE_BASE_RL = {
  task: 'maze',
  'task.size': 4,
  'task.minDist': 3,
  'task.maxDist': 10,
  'task.reward': 'binary',
  'task.answer': 'cells',
  'task.startNote': 'on',
  'model.initStd': 0.1,
  curriculum: 'pass-rate',
  curriculumParam: 'maxDist',
  curriculumStart: 2,
  curriculumTarget: 0.9,
  curriculumWindow: 10,
  batchPrompts: 32,
  groupSize: 4,
  dynamicSampling: true,
  dynamicMaxTries: 4,
  lr: 1e-3,
  entropyMode: 'uniform',
  entropyAlpha: 0.01,
  klBeta: 0.05,
  klKind: 'k3',
  refSync: 'none',
  evalEvery: 25,
  evalPrompts: 64,
} as const satisfies Record<string, KnobValue>;

// 5×5 mazes (maze-5x5; docs/results.md, "Mazes"). Told the shortest path on 64,000 mazes, this
// model (width 32, 2 layers) ends on G in 59% of whole 5×5 mazes, and RL from a random-walk base
// stopped at the same 0.60: the first move (which exit of S leads to G) needs the whole path in
// one pass. Keeping the right hand on the wall needs no plan, and the model holds it: the lesson's
// warm start is 4,000 supervised steps on right-hand walks to G (task.solution right-hand), a
// demonstration that knows where G is only to stop there. RL then pays walks that end on G, on whole
// mazes from the first step: the curriculum's near goals paid short direct walks, and a policy
// that followed them left the wall. α 0: the uniform regulator pulled a near-certain wall walker
// toward uniform (entropy 0.2 → 0.9 nats in 40 steps). lr 3e-4, the rate of maze-base-rl's last
// 600 steps: the warm start is nearly right, and RL polishes it. The KL anchor holds the warm start.
export const MAZE_WALL_5X5 = {
  ...MAZE_BASE_RL,
  'task.size': 5,
  'task.minDist': 4,
  'task.maxDist': 16,
  'task.solution': 'right-hand',
  curriculum: 'off',
  entropyAlpha: 0,
  lr: 3e-4,
} as const satisfies Record<string, KnobValue>;

// maze-grpo and maze-dr-grpo: maze-base-rl's recipe with GRPO, the two lessons differing only in
// grpoScale and aggregation (GRPO_AS_PUBLISHED, DR_GRPO). Measured to step 600 (4 seeds each,
// docs/results.md); the budget leaves room for ▶ to continue their last trained model (step 600).
export const MAZE_LOSS_ABLATION = {
  ...MAZE_BASE_RL,
  estimator: 'grpo',
  steps: 1000,
} as const satisfies Record<string, KnobValue>;

// GRPO as the DeepSeekMath paper wrote it: advantages divided by the group's std, each answer's
// token losses averaged over that answer.
export const GRPO_AS_PUBLISHED = { grpoScale: 'group', aggregation: 'seq-mean-token-mean' } as const;
// Dr. GRPO (Liu et al. 2025): no std division, token losses summed over a constant length.
export const DR_GRPO = { grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' } as const;

// The small sort setup of the first lesson and the smoke test: a 1-layer, width-16 model that
// learns in seconds. 3e-3, not 1e-2: at 1e-2 Adam turns the near-zero gradients of a solved
// batch into full-size random steps and held-out pass@1 swung 1.0 → 0.6; at 3e-3 sort-easy's
// seeds 1–4 all reached greedy pass@1 1.0 by step 200 and stayed there.
export const SMALL_SORT = {
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

/**
 * Where maze-grpo and maze-dr-grpo start and what they ship: maze-base-rl's base model as it was
 * before the train/held-out split, under the lesson's settings (the same weights in both, a test
 * holds them so; maze-base-rl now ships one retrained on training mazes only), which its RL
 * starts from and a jump ahead continues with the file's own config; then its recorded run at
 * step 600 (`step600`: what that model does).
 */
export function mazeLossCheckpoints(
  lesson: string,
  step600: string,
): { init: string; checkpoints: LessonCheckpoint[] } {
  const base: LessonCheckpoint = {
    label: 'base model',
    file: `checkpoints/${lesson}-base.safetensors`,
    note: "seed 1 at step 0: maze-base-rl's base model from before the train/held-out split (1,500 warm-start steps on random legal walks) under this lesson's settings; its greedy walks end on G in 4% of whole 4×4 mazes",
  };
  const recorded = { label: 'step 600', file: `checkpoints/${lesson}-step600.safetensors`, note: step600 };
  return { init: base.file, checkpoints: [base, recorded] };
}
