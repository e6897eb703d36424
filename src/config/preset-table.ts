// The preset table (src/config/presets.ts reads it): every lesson, in the order the page lists
// them, each a diff on the default config or on a shared recipe (preset-recipes.ts).

import { GRPO_NO_STD_SOURCE } from './code-examples';
import type { LessonCheckpoint, Preset } from './preset-types';
import {
  COT_A5,
  COT_INTERLEAVED,
  COT_RECIPE,
  COT_S4,
  MAZE_BASE_RL,
  MAZE_LOSS_ABLATION,
  MAZE_WALL_5X5,
  S3_SHORT,
  SMALL_SORT,
} from './preset-recipes';

/**
 * maze-base-rl's base model under another maze lesson's settings (the same weights, a test holds
 * them so): that lesson's RL starts from it, and a jump ahead continues with the file's own config.
 */
function mazeBaseModel(lesson: string): LessonCheckpoint {
  return {
    label: 'base model',
    file: `checkpoints/${lesson}-base.safetensors`,
    note: "seed 1 at step 0: maze-base-rl's base model (1,500 warm-start steps on random legal walks) under this lesson's settings; its greedy walks end on G in 4% of whole 4×4 mazes",
  };
}

export const PRESET_TABLE: readonly Preset[] = [
  {
    name: 'start-here',
    title: 'Start here: learning to sort by trial and error',
    summary:
      'A tiny transformer that has never seen sorting learns it from scores alone: it guesses, a verifier scores each guess, and better-than-average guesses are made more likely.',
    set: { ...SMALL_SORT, 'task.length': 4, 'task.alphabet': 4 },
    explanation:
      "Sort 4 letters from {a, b, c, d}. Each step draws 8 prompts and samples 8 answers for each (a group); the verifier gives each answer the share of its 5 positions (4 letters and the end) that are right. GRPO compares every answer with the others of its group: the advantage is its reward minus the group's mean, divided by the group's spread, so the update raises the probability of the better answers and lowers the worse — no example answer is ever shown. A 1-layer transformer of width 16 (about 4,000 weights), learning rate 3e-3.",
    guide: [
      {
        text: 'Each step runs the loop on the left: a prompt, 8 answers sampled from the model, a score for each, a comparison within the group, and an update of the weights.',
        show: 'loop',
      },
      {
        text: 'Press ▶ (or Space). At first the answers are random letters: the reward sits near the dashed chance line.',
        show: 'play',
      },
      {
        text: 'Look at one group: right answers get a positive advantage (blue), wrong ones negative (red) — relative to their own group.',
        show: 'group',
        needs: 'advantages',
      },
      {
        text: 'Watch the reward climb: nothing but these scores tells the model what sorting is.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'The entropy falls as the model becomes sure of its answers; once every answer in a group is right, the group has no spread and teaches nothing more.',
        show: 'chart-entropy',
        needs: 'step',
      },
    ],
    expect:
      'Measured (headless on a software GPU, seeds 0–3, the faint recorded runs, 38–99 s each): reward ≥ 0.5 by step 71–78 and ≥ 0.8 by step 149–171; held-out greedy pass@1 0.88–1.0 at step 300 (16 prompts). In the page on a software GPU (≈ 6 steps/s): reward 0.11 → 0.69 in the first 160 steps, under 30 s.',
    charts: ['reward', 'entropy', 'advantages'],
  },
  {
    name: 'dead-groups',
    title: 'Dead groups: no success, no signal',
    summary:
      'When no answer in a group is ever right, every advantage is 0 and nothing is learned, however long it runs.',
    set: { task: 'sort', 'task.length': 8, 'task.alphabet': 16, 'task.reward': 'exact', steps: 100 },
    explanation:
      'Sorting 8 letters from a 16-letter alphabet with an all-or-nothing reward: a random policy essentially never gets it exactly right, so every group has all-zero rewards, every group-relative advantage is 0, and the gradient is 0. The "partial reward" variant gives credit per correct position: the same task learns. Dynamic sampling (DAPO) does not help: it can only filter groups, not create successes.',
    guide: [
      {
        text: 'Press ▶: the reward stays at 0, every group has no spread, the gradient norm is 0.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'Open a group: every answer is wrong, and every advantage is A = 0. The model is not broken; there is nothing to learn from.',
        show: 'group',
        needs: 'advantages',
      },
      { text: 'Ask the class: what would GRPO need? At least one success per group.', show: 'chart-groups' },
      {
        text: 'Run the "partial reward" variant: a reward per correct position gives every group some spread, and learning starts.',
        show: 'variants',
      },
      {
        text: 'Fixes in practice: denser rewards, a curriculum that starts where guesses sometimes succeed, or a supervised warm start.',
      },
    ],
    expect:
      'Measured (seed 0, 100 steps): the reward is 0 and every group has no spread at every step; the gradient norm is exactly 0. With the "partial reward" variant 94% of the groups have spread from the first step and the reward climbs 0.04 → 0.14 in 100 steps: it learns, slowly.',
    charts: ['reward', 'groups', 'grad-norm', 'advantages'],
    variants: [
      { label: 'partial reward', set: { 'task.reward': 'partial' } },
      { label: 'dynamic sampling', set: { dynamicSampling: true } },
    ],
  },
  {
    name: 'cot-discovery',
    title: 'A chain of thought discovered from a last-token reward',
    summary:
      'Rewarded only for the last product of a chain of S3 elements, a transformer trained from scratch learns to write every running product: a chain of thought nobody rewarded.',
    set: { ...COT_INTERLEAVED, steps: 1000 },
    explanation:
      "A 2-layer, width-32 transformer (about 27,000 weights) multiplies chains of elements of S3, the 6 symmetries of a triangle. The environment writes x_t and the model writes y_t after it; only the last y is checked against the product of the chain. A length curriculum starts at 1 (copy the element) and moves up when the held-out pass rate reaches 0.9, so every y_t is the rewarded last token at some level. Recipe: groups of 16; an entropy-style regulator toward the uniform distribution (entropyMode uniform, α 0.05) that keeps pulling back answers collapsed onto a wrong element; a KL anchor (k3, β 0.5) to the policy that solved the previous length, re-taken at each advance and free on the new positions; weights initialised at 5× GPT-2's scale (model.initStd 0.1), without which the first product — an interaction no single input predicts — stayed on a plateau. From the seed paper: a transformer from scratch, last-token reward only, learns an algorithmic chain of thought for iterated non-Abelian group multiplication.",
    guide: [
      {
        text: 'The task: multiply a chain of triangle symmetries (e, r, r², s, sr, sr²). Only the last answer is checked.',
        show: 'group',
      },
      {
        text: 'Press ▶. Length 1 (copy the element) is learned in a few steps; at length 2 a guess is right 1 time in 6 (the chance line).',
        show: 'chart-reward',
      },
      {
        text: 'When the held-out pass rate reaches 0.9 the chain gets one element longer: the curriculum level steps up, and the reward dips and recovers.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'CoT alignment is the share of intermediate answers that equal the running product: it rises although only the last token is rewarded.',
        show: 'chart-task',
        needs: 'step',
      },
      {
        text: 'Open a group: the ✓ marks under the intermediate answers are the running products. The model invented the chain because it is the only way to get the last token right.',
        show: 'group',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the trained model (length 3, or solved at length 6) and look at its multiplication table.',
        show: 'jump',
      },
    ],
    expect:
      'Measured (headless, 4 seeds): length 3 by step 250–300, length 4 by 350–450, length 6 by 500–650, solved (held-out pass@1 ≥ 0.99 on 512 fresh chains) by step 550–800. The recorded runs drawn under yours (CPU engine, seeds 0–3): length 3 at steps 221–281, length 6 at 441–581; on 512 fresh length-6 chains greedy pass@1 0.93 / 1.00 / 0.98 / 1.00 at step 800 (measured before the train/held-out split: S3 has 46,656 length-6 chains and a run draws about 50,000, so most were in training; the split now holds a tenth of them out) and 0.97 / 1.00 / 1.00 / 1.00 at step 900. In the page on a software GPU (≈ 1.4 steps/s): length 3 after ≈ 3 min, length 4 after ≈ 6 min.',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [
      { label: 'no KL anchor', set: { klBeta: 0, refSync: 'none' } },
      { label: 'no entropy bonus', set: { entropyAlpha: 0 } },
      { label: 'exact entropy bonus', set: { entropyMode: 'exact', entropyAlpha: 0.1 } },
    ],
    checkpoints: [
      {
        label: 'at length 3',
        file: 'checkpoints/cot-discovery-length3.safetensors',
        note: 'seed 1 at step 220 of the recorded run, when its curriculum reached length 3',
      },
      {
        label: 'solved (length 6)',
        file: 'checkpoints/cot-discovery-solved.safetensors',
        note: 'seed 1 at step 800 of the recorded run (length 6 since step 551): greedy pass@1 1.000 and CoT alignment 1.000 on 512 length-6 chains (trained before the train/held-out split: on the held-out part too 1.000, but about two thirds of all chains were in its training draws)',
      },
    ],
    ablation: {
      question:
        'Which entropy regulator gets the flagship through: the uniform one (α 0.05, pulling toward the uniform distribution) or the exact entropy bonus (α 0.1)?',
      literature:
        'The seed paper (the spin-glass landscape paper, docs/methods.md) argues that the choice of entropy regulator decides whether RLVR crosses the landscape\'s barriers. On this engine (README, "Learning results") the exact bonus let a seed freeze at length 2 with rows collapsed onto wrong products (its gradient −p(log p + H) vanishes on a one-hot row), while the uniform regulator solved 4/4 seeds in 550–800 steps; those runs were made one recipe at a time. This ablation runs both on the same seeds, and its answer is whatever these runs show.',
      reading:
        'If the uniform regulator solves more seeds, or sooner, at p < 0.05, the collapse explanation holds here; "not different at this many seeds" means 4 seeds cannot tell, not that the regulators are equal. The final curriculum level shows how far the unsolved runs got.',
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
    summary:
      'The chain-of-thought task with the whole chain shown at once and a single answer token: the model must compose the chain in one pass, and stalls.',
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 1, steps: 1000 },
    explanation:
      'The cot-discovery recipe, but the whole chain is shown at once (block layout) and the policy may write a single token: the answer (scratch = 1). A 2-layer model must now compose the whole chain in one forward pass. Short chains are learned; then the pass rate stalls and the level stops advancing, while cot-discovery keeps going.',
    guide: [
      {
        text: 'The same S3 chains, but the model answers at once: no intermediate tokens, no room to compute.',
        show: 'group',
      },
      {
        text: 'Press ▶. Lengths 1 and 2 are learned: one multiplication fits in one forward pass.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'Then the level stops advancing and the pass rate sinks toward chance (1/6) as chains grow.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run at step 700: it reached length 3 at step 361 and is still there; the charts show it up to there, and ▶ continues it.',
        show: 'jump',
      },
      {
        text: 'The lesson: the scratchpad, not more reward, makes the problem learnable; a chain of thought is computation the model needs room for.',
      },
    ],
    expect:
      'Measured (headless, seeds 0 and 3, 550–700 steps): length 2 by step 50, length 3 by step 350, then stuck at length 3; at length 6 the greedy pass rate is 0.166 (chance 1/6). cot-discovery reaches length 6 in the same budget. The recorded run (seed 0, SwiftShader, 700 steps): length 2 at step 11, length 3 at step 361, still at length 3 at step 700 (held-out greedy pass@1 0.34–0.53 there).',
    charts: ['reward', 'level', 'entropy'],
    checkpoints: [
      {
        label: 'step 700, stuck at length 3',
        file: 'checkpoints/no-cot-room-step700.safetensors',
        note: 'seed 0 at step 700 of the recorded run: at length 3 since step 361, held-out greedy pass@1 0.53',
      },
    ],
    variants: [{ label: 'room to think', set: { 'task.layout': 'interleaved', 'task.scratch': 0 } }],
    ablation: {
      question: 'Does room to think (writing every running product before the answer) make long chains learnable?',
      literature:
        'The seed paper finds that a transformer trained from scratch with a last-token reward discovers a chain of thought for iterated S3 multiplication, and that the intermediate tokens are what make long chains learnable. On this engine no-cot-room reached only length 3 in 550–700 steps (seeds 0 and 3) while cot-discovery solved length 6 on 4/4 seeds (README); those runs were made one recipe at a time. This ablation runs both on the same seeds, and its answer is whatever these runs show.',
      reading:
        'The final curriculum level is the main figure: a chain length the model passes at 0.9. "Solved" is held-out pass@1 ≥ 0.97 at length 6; a difference is claimed only at p < 0.05 over seeds.',
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
    summary:
      'Without an entropy regulator the policy can become certain before it is right, and then every group is all-equal and learning stops.',
    set: { ...S3_SHORT, lr: 1e-2, entropyAlpha: 0, entropyTarget: 0, steps: 300 },
    explanation:
      'Plain GRPO with no entropy regulariser and an aggressive learning rate (1e-2) on a short S3 chain (length 4, interleaved). The failure to look for: the entropy falls toward 0 before the pass rate reaches 1, groups with no spread rise toward 1 (every group all right or all wrong, so no gradient) and the pass rate freezes. The "adaptive entropy" variant starts at α = 0.05 and moves α by 0.005 per step to hold the mean entropy at 0.5 nats. The spin-glass paper argues the choice of entropy regulator is what gets RLVR across the landscape\'s barriers.',
    guide: [
      {
        text: 'Press ▶ and watch the entropy: without a regulator it falls fast.',
        show: 'chart-entropy',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run at step 100 (collapsing) or 200 (collapsed): the charts show that run up to there, and ▶ continues it.',
        show: 'jump',
      },
      {
        text: 'A certain policy gives identical answers: groups with no spread rise and carry no signal.',
        show: 'chart-groups',
        needs: 'step',
      },
      {
        text: 'Run the "adaptive entropy" variant (same seed): α rises when the entropy falls below its target.',
        show: 'variants',
      },
      { text: 'Compare the two reward curves at equal steps.', show: 'chart-reward', needs: 'step' },
    ],
    expect:
      'Measured (seed 0, 300 steps): without a regulator the entropy falls from 2.24 to 0.01 nats and 99% of the groups have no spread by the end, while held-out pass@1 stays at 0.20 (chance: 0.17). The adaptive variant keeps the entropy at 1.6 nats and only 38% of the groups without spread, but in 300 steps its held-out pass@1 is no better (0.12–0.20).',
    charts: ['reward', 'entropy', 'groups', 'alpha'],
    checkpoints: [
      {
        label: 'step 100, collapsing',
        file: 'checkpoints/entropy-collapse-step100.safetensors',
        note: 'seed 0 at step 100 of the recorded run: entropy 0.92 nats and falling, 53% of groups without spread, held-out pass@1 0.20',
      },
      {
        label: 'collapsed',
        file: 'checkpoints/entropy-collapse-collapsed.safetensors',
        note: 'seed 0 at step 200 of the recorded run: entropy 0.04 nats, 99% of groups without spread, held-out pass@1 0.20 (chance 0.17)',
      },
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
    name: 'clip-higher',
    title: 'DAPO clip-higher',
    summary:
      'When samples are reused the update is clipped; raising only the upper clip bound lets unlikely good tokens grow faster.',
    set: { ...S3_SHORT, epochs: 2, minibatches: 4, epsHigh: 0.28, lr: 3e-3, steps: 300 },
    explanation:
      'Samples are reused (2 epochs × 4 minibatches), so the ratio ρ = π/π_old leaves 1 and clipping acts. With symmetric clipping (0.2) a token that was unlikely but good can only grow by 20% per batch, while likely tokens keep sharpening and the entropy falls. DAPO\'s clip-higher raises the upper bound to 0.28. Compare the share of clipped tokens and the entropy with the "symmetric clip" variant.',
    guide: [
      {
        text: 'With one epoch and one minibatch the ratio π/π_old is exactly 1 and nothing is clipped; here every batch is used 8 times.',
      },
      { text: 'Press ▶, then run the "symmetric clip" variant with the same seed.', show: 'variants' },
      {
        text: 'Fewer tokens are clipped above with ε_high = 0.28: fewer good updates are cut.',
        show: 'chart-clip',
        needs: 'step',
      },
      {
        text: 'DAPO reports that the entropy declines more slowly with clip-higher: compare the entropy curves.',
        show: 'chart-entropy',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run at step 150 (entropy still above 1 nat): the charts show it up to there, and ▶ continues it.',
        show: 'jump',
      },
    ],
    expect:
      'Measured (seed 0, 300 steps each): with ε_high 0.28 the entropy is 1.01 / 1.05 / 0.93 nats at steps 100 / 200 / 300 (the recorded run, made again later with the checkpoints: 0.73 / 1.04 / 0.76), with the symmetric clip 0.52 / 0.30 / 0.02, where every group ends without spread (61% with clip-higher). The clip itself binds rarely here (0.3% and 0.2% of tokens above, 1.1% and 0.5% below), and neither run learns the task in 300 steps (held-out pass@1 0.08–0.20; chance 0.17).',
    charts: ['reward', 'entropy', 'clip'],
    checkpoints: [
      {
        label: 'step 150',
        file: 'checkpoints/clip-higher-step150.safetensors',
        note: 'seed 0 at step 150 of the recorded run: entropy 1.05–1.22 nats, 44% of groups without spread, held-out pass@1 0.19',
      },
    ],
    variants: [{ label: 'symmetric clip', set: { epsHigh: 0.2 } }],
    ablation: {
      question:
        'Does raising only the upper clip bound (ε_high 0.28 against a symmetric 0.2) keep the entropy up and learn faster?',
      literature:
        "DAPO (Yu et al. 2025) reports that clip-higher keeps the policy's entropy from collapsing and improves accuracy, on a 32B model reasoning about mathematics. Whether that carries over to a tiny model on S3 chains is what this ablation measures; its answer is whatever these runs show.",
      reading:
        'Look first at the mechanism: fewer tokens clipped above and a higher entropy with clip-higher. A difference in steps to solve or final held-out pass@1 is claimed only at p < 0.05 over seeds.',
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
    summary:
      "With groups of 4 most GRPO groups are all wrong and teach nothing; MaPP's posterior-based advantage learns from them too.",
    set: { ...S3_SHORT, estimator: 'mapp', groupSize: 4, batchPrompts: 16, mappPool: 128, lr: 3e-3, steps: 300 },
    explanation:
      "With groups of only 4 at a low pass rate, most GRPO groups are all wrong (zero advantage) and the advantage of an answer depends on which peers it happened to be sampled with. MaPP keeps a Beta posterior of each prompt's pass rate over a finite pool of 128 prompts and replaces the GRPO advantage by its expectation over the peers' outcomes, so even all-wrong groups give a (negative) signal, and it samples the prompts whose pass rate is most uncertain.",
    guide: [
      { text: 'Press ▶, then run the "GRPO" variant with the same seed.', show: 'variants' },
      {
        text: 'Early on most GRPO groups of 4 contain no success and have no spread: they teach nothing.',
        show: 'chart-groups',
        needs: 'step',
      },
      {
        text: 'Open a group: with MaPP an all-wrong group still gets negative advantages.',
        show: 'group',
        needs: 'advantages',
      },
      {
        text: 'MaPP trains on 128 fixed prompts: the held-out points on the reward chart show whether it generalises.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run at step 150: its reward on the pool is 0.46 (0.17 at step 50), its held-out pass@1 still chance.',
        show: 'jump',
      },
    ],
    expect:
      "Measured (seed 0, 300 steps each): MaPP's reward on its pool of 128 prompts climbs 0.09 → 0.39 while GRPO's stays at 0.16–0.18; but both policies collapse (entropy 0.02 and 0.05 nats, every group without spread by the end) and neither generalises: held-out pass@1 0.19 and 0.20, chance 0.17. MaPP learned its pool, not the task. The recorded run (made again with its checkpoints): pool reward 0.17 at step 50, 0.40 at 100, 0.52 at 200, entropy 0.14 nats at step 100, held-out pass@1 0.19 throughout.",
    charts: ['reward', 'groups', 'advantages'],
    checkpoints: [
      {
        label: 'step 150',
        file: 'checkpoints/mapp-vs-grpo-step150.safetensors',
        note: 'seed 0 at step 150 of the recorded run: reward on its pool 0.46, entropy 0.03 nats, held-out pass@1 0.19 (chance 0.17)',
      },
    ],
    variants: [{ label: 'GRPO', set: { estimator: 'grpo' } }],
    ablation: {
      question:
        'With groups of 4 at a low pass rate, where most GRPO groups are all wrong and teach nothing, does MaPP learn faster?',
      literature:
        'MaPP (docs/methods.md) claims that its Beta-posterior advantage gets a signal from groups with no success, which GRPO discards, and so learns faster with small groups at a low pass rate. The answer here is whatever these runs show.',
      reading:
        'MaPP trains on a fixed pool of 128 prompts, so compare the held-out pass@1 on fresh prompts, not the training reward (a higher training reward alone could be memorisation). "Groups with no spread" shows how many groups GRPO learned nothing from.',
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
    summary:
      "RL from the maze base model with GRPO as first published: each group's advantages divided by its std, each walk's loss averaged over its own tokens.",
    set: { ...MAZE_LOSS_ABLATION, grpoScale: 'group', aggregation: 'seq-mean-token-mean' },
    explanation:
      "The recipe of maze-base-rl (its base model, binary reward, curriculum on the goal's distance, KL anchor, lr 1e-3), with GRPO as the DeepSeekMath paper wrote it: the centred rewards divided by the group's std, and each walk's token losses averaged over that walk (seq-mean-token-mean). Two biases follow (Dr. GRPO, Liu et al. 2025). The std division gives a maze that one walk of four solved (+1.5 for it, −0.5 for the others) the same weight as one that three solved; and the per-walk average gives each token of a long walk less weight than each token of a short one, so a long wrong walk is pushed down less per token. Walks here end where the policy writes the end token, so their lengths vary. maze-dr-grpo removes both; maze-base-rl averages over all the batch's tokens instead (token-mean). Over 4 seeds of 600 steps, GRPO as published reached level 4 on every seed and Dr. GRPO on none; Dr. GRPO with the KL anchor and the regulator halved (its advantages are half these) matched GRPO (the expected texts; docs/results.md).",
    guide: [
      {
        text: 'First load the base model (trained ▾), the one maze-base-rl starts from: from random weights, ▶ learns no mazes.',
        show: 'jump',
      },
      {
        text: "Press ▶, then open a group: each walk is drawn on the maze, coloured by its advantage. GRPO divides by the group's spread: one right walk of four gets +1.5, whatever the maze.",
        show: 'group',
        needs: 'advantages',
      },
      {
        text: "Each walk's loss is averaged over its own tokens, so a long wrong walk is pushed down less per token: watch the answer length beside the reward.",
        show: 'chart-length',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run at step 600 (level 4): greedy walks reach G in 53% of whole 4×4 mazes (the base model: 4%; maze-dr-grpo at step 600: 42%). ▶ continues it.',
        show: 'jump',
      },
    ],
    expect:
      'Measured on the CPU engine, headless, 4 seeds × 600 steps from the shipped base model (about 17 min a pair of runs on two cores). Level 3 (goals up to three moves away) at steps 211–281 and level 4 at 351–501 on 4 of 4 seeds; greedy walks end on G in 36–44% of 256 held-out whole 4×4 mazes at step 400 and 53–56% at step 600 (0.531 / 0.527 / 0.555 / 0.547; the base model: 4%). maze-dr-grpo on the same seeds: level 3 at 311–401, level 4 on none by step 600, 38–42% of whole mazes at step 600. GRPO as published was ahead on every seed, by 0.11–0.16 (level 4 reached on 4 of 4 seeds against 0 of 4: p = 0.029). Its gradient was over the clip (norm 1) in 26–43% of its steps; its walks grew to 15–17 tokens, and 13–21 of 256 greedy walks hit a wall (Dr. GRPO: 2–8).',
    charts: ['reward', 'level', 'length', 'entropy'],
    init: mazeBaseModel('maze-grpo').file,
    checkpoints: [
      mazeBaseModel('maze-grpo'),
      {
        label: 'step 600',
        file: 'checkpoints/maze-grpo-step600.safetensors',
        note: 'seed 0 at step 600 of the recorded run (level 4 since step 351): greedy walks end on G in 53% (0.531) of 256 held-out whole 4×4 mazes',
      },
    ],
    // maze-dr-grpo's two changes, so that the lesson and its ablation compare the two on one screen.
    variants: [{ label: 'Dr. GRPO', set: { grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' } }],
    ablation: {
      question:
        'From the same base model, does GRPO as published reach level 4 (goals up to four moves away) sooner than Dr. GRPO?',
      literature:
        'Dr. GRPO (Liu et al. 2025, "Understanding R1-Zero-like training", docs/methods.md) argues that GRPO\'s division by the group\'s std and its per-answer length normalisation bias the update, and that removing both costs nothing. On this engine, 4 seeds × 600 steps each from the maze base model (docs/results.md): GRPO reached level 4 on 4 of 4 seeds and Dr. GRPO on none (p = 0.029), and Dr. GRPO with the KL anchor and the regulator halved matched GRPO. This ablation runs both on the same seeds from the same base model, and its answer is whatever these runs show.',
      reading:
        "Every run starts from the lesson's base model. If GRPO reaches level 4 on more seeds or sooner, the two recipes differ at these settings; maze-dr-grpo's variant \"half KL and α\" then says whether GRPO's biases or the regularisers' weight against Dr. GRPO's smaller advantages made the difference. About 17 minutes a pair of runs on two CPU cores; minutes on a real GPU.",
      variants: ['Dr. GRPO'],
      seeds: 4,
      steps: 600,
      solved: { metric: 'level', target: 4 },
      metrics: ['level', 'eval/pass@1_greedy', 'reward', 'entropy'],
    },
  },
  {
    name: 'maze-dr-grpo',
    title: 'Mazes with Dr. GRPO',
    summary:
      'The same RL with Dr. GRPO: no std division and a constant length normaliser, so every token of every walk weighs the same.',
    set: { ...MAZE_LOSS_ABLATION, grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' },
    explanation:
      'Dr. GRPO ("GRPO done right", Liu et al. 2025) on maze-grpo\'s recipe: the centred reward is not divided by the group\'s std (no difficulty bias: one right walk of four gets +0.75, three of four +0.25 each), and each walk\'s token losses are summed and divided by a constant, the longest answer allowed (no length bias). One side effect: without the std division the advantages are about half as large (a group of four 0/1 rewards has a std of 0.5–0.58), while the KL anchor and the uniform regulator keep their weights (the aggregation scales all three alike), so those two pull about twice as hard relative to the reward. Over 4 seeds of 600 steps it reached level 4 on none, where maze-grpo did on all four; with β and α halved (the variant "half KL and α") it matched maze-grpo (the expected text; docs/results.md).',
    guide: [
      { text: 'First load the base model (trained ▾), the one maze-grpo starts from.', show: 'jump' },
      {
        text: 'Press ▶ and open a group: without the std division one right walk of four gets +0.75, not +1.5.',
        show: 'group',
        needs: 'advantages',
      },
      {
        text: 'Compare the level and the answer length with maze-grpo at equal steps.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'Why slower? Its advantages are half GRPO\'s, against the same KL anchor and regulator. The "half KL and α" variant restores GRPO\'s balance.',
        show: 'variants',
      },
      {
        text: "No time to wait? Load the recorded run at step 600 (still level 3): greedy walks reach G in 42% of whole 4×4 mazes, where maze-grpo's reached 53%. ▶ continues it.",
        show: 'jump',
      },
    ],
    expect:
      "Measured on the CPU engine, headless, 4 seeds × 600 steps from the shipped base model (about 17 min a pair of runs on two cores). Level 3 at steps 311–401 and level 4 on none of 4 seeds by step 600; greedy walks end on G in 10–31% of 256 held-out whole 4×4 mazes at step 400 and 38–42% at step 600 (0.422 / 0.422 / 0.414 / 0.383; the base model: 4%). maze-grpo on the same seeds was ahead on every one, by 0.11–0.16 (level 4 at 351–501 on 4 of 4). Dr. GRPO's walks kept to the walls better (2–8 of 256 greedy walks hit one, GRPO 13–21) and its entropy stayed higher (0.62–0.66 nats over steps 501–600, GRPO 0.37–0.42): the base model's habits, held by an anchor and a regulator that weigh twice as much against its half-size advantages. With both halved (the variant \"half KL and α\", the same 4 seeds) it learned as maze-grpo did: level 4 at 401–491 on 4 of 4, 52–60% of whole mazes at step 600 (mean 0.548 against maze-grpo's 0.540, p = 0.625).",
    charts: ['reward', 'level', 'length', 'entropy'],
    init: mazeBaseModel('maze-dr-grpo').file,
    checkpoints: [
      mazeBaseModel('maze-dr-grpo'),
      {
        label: 'step 600',
        file: 'checkpoints/maze-dr-grpo-step600.safetensors',
        note: 'seed 0 at step 600 of the recorded run (level 3 since step 401): greedy walks end on G in 42% (0.422) of 256 held-out whole 4×4 mazes',
      },
    ],
    // Dr. GRPO's advantages are about half GRPO's (no std division) while β and α stay: halving both
    // restores GRPO's balance of reward against anchor (docs/results.md, the control row).
    variants: [{ label: 'half KL and α', set: { klBeta: 0.025, entropyAlpha: 0.005 } }],
  },
  {
    name: 'maze-base-rl',
    title: 'Mazes: a base model that walks, then RL',
    summary:
      'A model first learns to walk in mazes from random walks that never look at the goal (a base model); RL, rewarded only for ending on the goal, then teaches it to go there.',
    set: {
      ...MAZE_BASE_RL,
      // 3,000 steps at lr 1e-3, then 600 at 3e-4: at a constant 1e-3 the four seeds hovered at
      // 0.84–0.91 on the whole 4×4 over steps 2,600–3,000; the lower lr took all four to 0.94–0.97,
      // 600 more steps at 1e-3 to 0.92–0.94, lower at every checkpoint (docs/results.md). The
      // budget leaves room after the last trained model (step 3,600) for ▶ to continue it.
      steps: 4000,
      lrDropStep: 3000,
      lrDropTo: 3e-4,
    },
    explanation:
      "Two phases, as in RLVR on a pretrained model; the lesson ships the first and runs the second. The base model: 1,500 supervised steps on random legal walks that never look at the goal. The prompt ends with the start cell's note (\"row,column\"), and after each move the walk writes the cell it reached (the walk's scratchpad, as the running product is in the group chains), so every move follows a note of where the walk stands; it learns to read the walls and to know where it is, not to solve. Then RL with a binary reward (1 only for a walk that ends on the goal without entering a wall), GRPO on 32 mazes × 4 walks a step with dynamic sampling (groups whose walks all scored the same are replaced by fresh mazes, up to 4 rounds), a curriculum on the goal's distance (one or two moves, then three, then three or four, …, up to the whole 4×4) that moves on once 90% of held-out mazes pass, a KL anchor (k3, β 0.05) to the base model that keeps its legal moves and true notes, a uniform regulator (α 0.01) and a learning rate of 1e-3 (at 3e-3 the notes were lost within 25 steps and the walks stalled), lowered to 3e-4 after step 3,000 (at 1e-3 the seeds had hovered at 84–91% of whole mazes since step 2,600; 600 steps at 3e-4 took all four to 94–97%, where 600 more at 1e-3 gave 86–95% on the way and 92–94% at the end, lower at every checkpoint; figures on mazes drawn as in training, before the train/held-out split). Many mazes per step matter more than many walks per maze: the policy must learn where the goal is from here. BODHI argues that RLVR narrows the ways a model solves a maze (fewer distinct correct paths) while it improves its respect for the walls: compare the base model's walks with the trained one's.",
    guide: [
      {
        text: 'First load the base model (trained ▾): RL starts from it. Without it, ▶ runs RL from random weights, which has not learned mazes in any measured run.',
        show: 'jump',
      },
      {
        text: "The prompt is a 4×4 maze and the start cell; the answer is a walk from S, and after each move the model writes the cell it reached. The base model's walks wander and rarely stop on G, but keep to the open cells.",
        show: 'group',
      },
      {
        text: 'Press ▶: now only ending on G is rewarded. The goal starts one or two moves away; the level rises when 90% of held-out mazes pass.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'Open a group: each walk is drawn on the maze, coloured by its advantage; a walk into a wall is marked where it hit.',
        show: 'group',
        needs: 'advantages',
      },
      {
        text: 'Does RL keep several ways to the goal, or one? "Ways to G" beside the group\'s maze draws 256 recorded walks of the base model beside 256 of a trained one, on held-out mazes with two shortest paths: count how often each shortest path is taken, not the detours.',
        show: 'chart-task',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load a recorded run (trained before the train/held-out split): greedy walks reach G in 72% of held-out whole 4×4 mazes at step 800 and 95% at 3,600; runs trained on the split reach 89–93% at 3,600. ▶ continues it.',
        show: 'jump',
      },
    ],
    expect:
      "Measured on the CPU engine, headless. On held-out mazes that training never drew (the train/held-out split; a walk counts only if it writes its end within 16 moves), 2 seeds of a base model and RL trained on training mazes only: the base model's greedy walks end on G in 3% of 256 held-out whole 4×4 mazes; after RL 78% / 73% at step 2,400 and 89% / 93% at step 3,600 (on grids training never drew 90% / 95%; about 2 h a run, two runs sharing two cores). The shipped models and recorded runs predate the split: their figures (4 seeds, 57–63% at step 800, 88–91% at 3,000, 94–97% at 3,600 after the lr drop to 3e-4) were measured on mazes drawn as the training ones, most of which training had seen. Most failed walks take a wrong turn at the first or second move; many walks step past G and come back, which the binary reward pays. BODHI, counted on shortest paths (64 held-out mazes with the goal two moves away by two shortest paths, 256 sampled walks each): among the first 4 shortest walks of a maze the base model takes 1.67 distinct paths, the shipped step 2,400 1.49 and step 3,600 1.25 (Simpson evenness 0.29 → 0.20 → 0.11); among the first 4 correct walks 3.92 → 3.41 → 3.28 distinct; walls touched 1.5% → 2.8% → 4.0% of walks, while pass@1 rises 0.12 → 0.83. RL narrows the ways, most after the lr drop; the count of all distinct correct walks (6.9 → 24 per maze) rises only because the detours do. On the two split seeds the narrowing is small (1.64 / 1.48 distinct among 4 shortest walks).",
    charts: ['reward', 'level', 'task', 'entropy'],
    // Half the goals nearer than the level's distance; with the start note it made no difference on
    // the whole task (one seed, 0.605 against 0.602 at step 800; docs/results.md).
    variants: [{ label: 'nearer goals', set: { 'task.nearGoals': 50 } }],
    init: 'checkpoints/maze-base-rl-base.safetensors',
    checkpoints: [
      {
        label: 'base model',
        file: 'checkpoints/maze-base-rl-base.safetensors',
        note: 'seed 1 at step 0: the base model (1,500 warm-start steps on random legal walks, 32 walks a step, sftLr 3e-3) before any RL; its greedy walks end on G in 3% of 256 held-out whole 4×4 mazes (0.027)',
      },
      {
        label: 'step 800',
        file: 'checkpoints/maze-base-rl-step800.safetensors',
        note: 'seed 0 at step 800 of the recorded run (level 6), trained before the train/held-out split: greedy walks end on G in 72% (0.723) of 256 held-out whole 4×4 mazes',
      },
      {
        label: 'step 2,400',
        file: 'checkpoints/maze-base-rl-step2400.safetensors',
        note: 'seed 0 at step 2400 of the recorded run (level 10, the whole task since step 2,131): greedy walks end on G in 88% (0.879) of 256 held-out whole 4×4 mazes (trained before the split)',
      },
      {
        label: 'step 3,000',
        file: 'checkpoints/maze-base-rl-step3000.safetensors',
        note: 'seed 3 at step 3000 of its recorded run (level 10, the whole task since step 2,531), just before the lr drop: greedy walks end on G in 93% (0.934) of 256 held-out whole 4×4 mazes (trained before the split)',
      },
      {
        label: 'step 3,600',
        file: 'checkpoints/maze-base-rl-step3600.safetensors',
        note: 'seed 3 at step 3600 of its recorded run, 600 steps after the lr drop to 3e-4: greedy walks end on G in 95% (0.953) of 256 held-out whole 4×4 mazes (trained before the split)',
      },
    ],
    walks: 'reference/maze-base-rl-walks.json',
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
      {
        text: 'Open a group to see how a per-position reward scores a half-sorted answer.',
        show: 'group',
        needs: 'step',
      },
    ],
    expect: 'Measured (headless, seeds 1–4): held-out greedy pass@1 ≥ 0.9 by steps 100–200, 10–20 s each.',
    charts: ['reward', 'entropy', 'advantages'],
    ablation: {
      question: 'Does a learning rate of 1e-2 undo a solved sort that 3e-3 holds?',
      literature:
        'Adam divides each gradient by a running estimate of its size, so once a batch is solved its tiny, noisy gradients still become full-size steps; on this engine held-out pass@1 swung 1.0 → 0.6 at 1e-2 while four seeds held 1.0 at 3e-3 (README). The answer here is whatever these runs show.',
      reading:
        'Both rates may solve equally fast; the final held-out pass@1 is where 1e-2 should lose. Small enough for a software GPU: 2 cells × 4 seeds × 300 steps.',
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
    summary:
      "Three recipes that differ only in how a group's rewards become advantages and how token losses are averaged: does the choice matter, over seeds, on a small task?",
    set: {
      ...SMALL_SORT,
      'task.length': 4,
      'task.alphabet': 4,
      estimator: 'grpo',
      grpoScale: 'group',
      aggregation: 'seq-mean-token-mean',
    },
    explanation:
      "The start-here task (sort 4 letters, a reward per right position) with GRPO as in the DeepSeekMath paper: advantage = (reward − group mean) / group std, and each answer's loss averaged over its own tokens (seq-mean-token-mean). Dr. GRPO (Liu et al. 2025) drops the division by the std (which, they argue, up-weights groups that are nearly solved or nearly hopeless) and sums token losses over a constant length (per-answer averaging, they argue, lets long wrong answers off lightly). RLOO (Ahmadian et al. 2024) subtracts the mean of the other G − 1 answers, which is G/(G − 1) times Dr. GRPO's centred reward; here it keeps GRPO's per-answer averaging, so it differs from GRPO by the division alone. The papers report their claims on large language models; on this task the answer is whatever the runs show.",
    guide: [
      {
        text: "Three recipes, one task: they differ only in how a group's scores become advantages and how the loss is averaged over tokens.",
        show: 'loop',
      },
      {
        text: "Press ▶: this is GRPO as first published, each score minus its group's mean, divided by the group's spread.",
        show: 'chart-advantages',
        needs: 'advantages',
      },
      {
        text: 'Run the "Dr. GRPO" variant: no division by the spread, and a constant length normaliser. Its authors claim both biases of GRPO are removed.',
        show: 'variants',
      },
      {
        text: 'Run "RLOO": each score minus the mean of the other answers of its group. Compare the answer lengths and the reward curves.',
        show: 'chart-length',
        needs: 'step',
      },
      {
        text: 'One run of each is an anecdote: the ablation runs every recipe on 4 seeds and claims a difference only where the seeds support it.',
        show: 'chart-reward',
        needs: 'step',
      },
    ],
    expect:
      "Measured (rlvr sweep --preset advantage-estimators --backend cpu, seeds 0–3, 300 steps; the faint curves are GRPO's four runs): all three learn. GRPO's reward reached 0.5 by steps 82–95 and 0.8 by 200–224; over the last 10 steps the reward was 0.86 (GRPO), 0.91 (Dr. GRPO) and 0.83 (RLOO). Held-out pass@1 at step 300: GRPO 0.25–0.88 (mean 0.64), Dr. GRPO 0.75–1.00 (0.88), RLOO 0.31–0.75 (0.50); only Dr. GRPO solved a seed (2 of 4, at step 300). With 4 seeds none of these differences is significant (smallest p = 0.17). A run is the start-here model: under a minute on a software GPU.",
    charts: ['reward', 'advantages', 'length', 'entropy'],
    variants: [
      { label: 'Dr. GRPO', set: { grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' } },
      { label: 'RLOO', set: { estimator: 'rloo' } },
    ],
    ablation: {
      question:
        'Does the advantage estimator (GRPO, Dr. GRPO or RLOO) change how fast a small model learns, over seeds?',
      literature:
        "Dr. GRPO (Liu et al. 2025) reports that removing GRPO's std division and per-answer length averaging gives the same accuracy with shorter wrong answers; RLOO (Ahmadian et al. 2024) reports that a leave-one-out baseline matches or beats PPO-style training at lower cost. Both claims come from large language models; on this small task the answer is whatever these runs show.",
      reading:
        'Compare steps to solve and the final held-out pass@1, then the answer length (the length bias Dr. GRPO removes). On a task this easy, "not different at this many seeds" is the likely and honest outcome.',
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
    summary:
      'The cot-discovery recipe on A4, the 12 rotations of a tetrahedron: 144 products to discover from a last-token reward instead of 36, so the wait at length 2 is long.',
    set: { ...COT_INTERLEAVED, 'task.group': 'A4', steps: 2500 },
    explanation:
      'cot-discovery with only the group changed: A4, the even permutations of four objects (order 12). The environment writes x_t, the model writes y_t, and only the last y is checked. At length 2 the model must find all 144 products x₁·x₂, and a guess is right 1 time in 12; with 16 prompts × 16 samples a step brings each product about B·G/n³ = 0.15 successes, 8× fewer than S3\'s 1.2, so length 2 takes far longer; past it, each longer chain reuses the same products. The "more samples" variant raises the prompts per step to 64 (B·G/n³ = 0.59). A4 is solvable (its derived series is 12, 4, 1), so a fixed-depth network can in principle multiply its chains at once; the chain of thought is the easy way, not the only one.',
    guide: [
      {
        text: 'The task: chains of the 12 rotations of a tetrahedron (A4); the environment writes each element, the model writes the running product after it, and only the last one is checked.',
        show: 'group',
      },
      {
        text: "Press ▶. At length 2 a guess is right 1 time in 12: the chance line sits at half of S3's.",
        show: 'chart-reward',
      },
      {
        text: 'The level stays at 2 for a long time: 144 products must each be found by trial and error, and each is drawn in only a few groups a step.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'Once length 2 is passed the longer chains come quickly: CoT alignment shows the running products written although only the last is rewarded.',
        show: 'chart-task',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run where it left length 2 (step 1,260, after the long wait) or solved at length 6 (step 2,000): the charts show that run up to there, and ▶ continues it.',
        show: 'jump',
      },
      {
        text: 'Run the "more samples" variant: 4× the prompts per step gives each product 4× the successes; compare the steps to leave length 2.',
        show: 'variants',
      },
    ],
    expect:
      'Measured on a software GPU (seed 0, 2,500 steps in 2 hours, the recorded run): length 2 from step 11 to step 1,261, the long wait; then length 3 at 1,261, 4 at 1,541, 5 at 1,661 and 6 at 1,831; held-out greedy pass@1 0.97–1.00 from step 1,900 (0.992 on 512 fresh length-6 chains at step 2,000, CoT alignment 0.999). During the wait, at step 1,000, 22 of the 39 length-2 products it got wrong had collapsed (p(right) below 0.01); by step 1,260, 9 of 19: the uniform regulator pulls them back. Watching it live needs a real GPU: on a software GPU that is hours, so load the trained models. On an H200 (6,000-step budget) 4 of 4 seeds solved at steps 1,500–2,100, 135–164 s each. The "more samples" variant has no recorded run yet.',
    needsGpu: 'Needs a real GPU: 2 h in software; load a model',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [{ label: 'more samples', set: { batchPrompts: 64 } }],
    checkpoints: [
      {
        label: 'left length 2',
        file: 'checkpoints/cot-a4-length3.safetensors',
        note: 'seed 0 at step 1260, when its curriculum reached length 3 after 1,250 steps at length 2 (greedy pass@1 0.86 on 512 fresh length-2 chains)',
      },
      {
        label: 'solved (length 6)',
        file: 'checkpoints/cot-a4-solved.safetensors',
        note: 'seed 0 at step 2000 of the recorded run: greedy pass@1 0.992 and CoT alignment 0.999 on 512 fresh length-6 chains',
      },
    ],
  },
  {
    name: 'cot-s4',
    title: 'A chain of thought on S4: more samples for more products',
    summary:
      "S4 has 24 elements and 576 products: with cot-discovery's 256 samples a step each product is rarely right and learning stalls at length 2, so this recipe samples 8× more.",
    // The recorded runs are 3,000 steps; the budget leaves room after the last trained model
    // (step 3,000) for ▶ to continue it.
    set: { ...COT_S4, steps: 3500 },
    explanation:
      'cot-discovery on S4 (order 24), with 64 prompts × 32 samples a step instead of 16 × 16. Why: at length 2 the policy must find all 576 products and a guess is right 1 time in 24, so a step of B prompts × G samples brings each product about B·G/n³ successes — 1.2 for S3 at 16 × 16, but 0.018 for S4, and the plain recipe stayed at length 2 (1,600 and 1,700 steps on an H200; 600 on a software GPU, where a decoded checkpoint showed nearly every product still at chance, not collapsed). The model is not the limit: a supervised warm start with the same 2-layer, width-32 model learns all 576 products in 300 steps. 64 × 32 gives 0.15 per product per step, the rate at which A4 was solved (in 1,500–2,100 steps on an H200); it is also about the most that fits a 1 GB GPU budget. On a larger GPU more samples a step should shorten the wait. The "as cot-discovery" variant is the plain recipe.',
    guide: [
      {
        text: 'The task: chains of the 24 permutations of four objects. Only the last running product is checked.',
        show: 'group',
      },
      {
        text: 'Each step samples 64 prompts × 32 answers: the 576 products of S4 each need successes to be learned, and a guess is right only 1 time in 24.',
        show: 'chart-reward',
      },
      {
        text: "Watch the level: with cot-discovery's 16 × 16 it stays at 2; here it moves on, after a long wait (1,100–1,200 steps in the recorded runs).",
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run where it left length 2 (step 1,130) or solved (step 3,000): the charts show that run up to there, and ▶ continues it.',
        show: 'jump',
      },
      {
        text: 'Run the "as cot-discovery" variant (16 prompts × 16 answers) with the same seed and compare the level curves.',
        show: 'variants',
      },
      {
        text: 'A stalled run can be diagnosed: rlvr eval --breaks decodes the held-out chains and lists the products the policy gets wrong, with the probability it gives the right one.',
      },
    ],
    expect:
      'Measured on two seeds, the recorded runs (seed 0 on the CPU engine, 3,000 steps in 2.8 h; seed 1 on an H200, 276 s with six other runs sharing it): length 2 from step 11 to step 1,131 / 1,211, the long wait; then length 3, 4, 5 and 6 at steps 1,131 / 1,251 / 1,341 / 1,421 (seed 0) and 1,211 / 1,791 / 2,061 / 2,141 (seed 1). At step 3,000, greedy pass@1 on 512 fresh length-6 chains 1.000 / 0.986. So 64 × 32 samples a step carry S4 past length 2. Watching it live needs a real GPU: on a software GPU that is hours, so load the trained models. The plain recipe ("as cot-discovery") stayed at length 2: 1,600 and 1,700 steps on an H200 (seeds 0 and 1), and 600 steps on a software GPU (seed 0) ended at held-out 0.14 with 451 of 512 chains breaking at y₂ and only 1 of 291 wrong products collapsed: the products were never found, not lost.',
    needsGpu: 'Needs a real GPU: 3 h in software; load a model',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [{ label: 'as cot-discovery', set: { batchPrompts: 16, groupSize: 16 } }],
    checkpoints: [
      {
        label: 'left length 2',
        file: 'checkpoints/cot-s4-length3.safetensors',
        note: 'seed 0 at step 1130, when its curriculum reached length 3 after 1,120 steps at length 2 (greedy pass@1 0.92 on 512 fresh length-2 chains)',
      },
      {
        label: 'solved (length 6)',
        file: 'checkpoints/cot-s4-solved.safetensors',
        note: 'seed 0 at step 3000 of the recorded run: greedy pass@1 1.000 on 512 fresh length-6 chains',
      },
    ],
  },
  {
    name: 'cot-a5',
    title: 'A chain of thought on A5, the smallest non-solvable group',
    summary:
      'A5 has 60 elements: no fixed-depth network multiplies its chains at once (unless complexity classes collapse), but a chain of thought turns each chain into single products.',
    set: { ...COT_A5, steps: 3000 },
    explanation:
      'cot-discovery on A5, the rotations of an icosahedron (order 60), with 64 prompts × 32 samples a step. A5 is the smallest non-solvable group: iterated multiplication in it is NC¹-complete (Barrington 1989), while a transformer of fixed depth computes within TC⁰ (Merrill and Sabharwal 2023), so unless TC⁰ = NC¹ no fixed-depth transformer multiplies A5 chains of every length at once. For solvable groups (S3, A4, S4) shallow shortcuts exist (Liu et al. 2023, "Transformers learn shortcuts to automata"). Written one running product per token, the chain becomes single products, which a fixed depth does compute. The cost is the table: 3,600 products, each right 1 time in 60 at first, so a step brings each product about B·G/n³ successes: only 0.0095 at 64 × 32 (the most that fits a 1 GB GPU budget), 16× below A4\'s rate at 16 × 16, which solved A4 in 1,500–2,100 steps on an H200. On a large GPU raise batchPrompts and groupSize (256 × 64 gives 0.076 and needs about 8 GB).',
    guide: [
      {
        text: 'The task: chains of the 60 rotations of an icosahedron (A5). The model writes every running product; only the last is checked.',
        show: 'group',
      },
      {
        text: 'A5 is the smallest group whose chains no fixed-depth network can multiply in one go; written out step by step, each token is one product.',
      },
      {
        text: 'Press ▶. A guess is right 1 time in 60, and there are 3,600 products to find: the reward starts at the chance line and stays near it for long.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'The level is the figure to watch: each step up is a longer chain passed at 0.9 on held-out prompts.',
        show: 'chart-level',
        needs: 'step',
      },
      { text: 'Compare no-cot-a5: the same recipe with the chain shown at once and one answer token.' },
    ],
    expect:
      "Measured on one seed on an H200 (seed 0, the recorded run: 3,000 steps in 232 s with six other runs sharing the GPU): length 1 (copy the element) passed at step 11, then length 2, one product, to the end. The reward rose only from the chance line (0.016 over steps 20–120) to 0.047 (the last 100 steps); held-out greedy 0.02–0.11. At step 3,000, on 512 fresh length-2 chains, greedy 0.043 with 441 different wrong products, 3 of them collapsed (p(right) below 0.01): the products were never found, not lost. So this recipe does not carry A5 past its first product in 3,000 steps; more samples a step (256 × 64 on a large GPU) or a wider model are the next things to try. Watching it live needs a real GPU: on a software GPU that is hours. A warning from a smaller run: a supervised warm start of 400 steps with this 2-layer, width-32 model reached only 0.057 on A5 length 2 (chance 0.017), where S4's 576 products took 300 steps to reach 1.000, so for A5's 3,600 products the model's width may be the limit before the signal is.",
    needsGpu: 'Needs a real GPU: hours in software; see the run',
    charts: ['reward', 'level', 'task', 'entropy'],
  },
  {
    name: 'no-cot-a5',
    title: 'A5 with no room to think',
    summary:
      'The control for cot-a5: the whole A5 chain at once and a single answer token, so the model must compose the chain in one forward pass.',
    set: { ...COT_A5, 'task.layout': 'block', 'task.scratch': 1, steps: 3000 },
    explanation:
      'cot-a5 with the chain shown whole (block layout) and room for one answer token (scratch 1), as no-cot-room is to cot-discovery. For A5 the theory says more than for S3: iterated A5 multiplication is NC¹-complete (Barrington 1989) and a fixed-depth transformer computes within TC⁰ (Merrill and Sabharwal 2023), so as the chains grow a 2-layer model answering at once should fail unless TC⁰ = NC¹. At lengths this short a finite table could still be memorised in principle; what the runs show is the measurement. The "room to think" variant is cot-a5.',
    guide: [
      { text: 'The same A5 chains, shown at once; the model writes one token, the answer.', show: 'group' },
      {
        text: 'Press ▶. Length 1 (copy) and length 2 (one product) fit in one forward pass.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'Then each longer chain is a composition the 2-layer model must do inside itself: watch the pass rate at the chance line 1/60.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'Run "room to think" (cot-a5) on the same seed: the only difference is the scratchpad.',
        show: 'variants',
      },
    ],
    expect:
      "Measured on one seed on an H200 (seed 0, the recorded run: 3,000 steps in 219 s with six other runs sharing the GPU): length 1 passed at step 31, then length 2 to the end, as cot-a5 (at length 2 the two layouts ask the same thing: one product, one token). The reward 0.035 over steps 20–120 and 0.044 over the last 100 (chance 1/60 = 0.017); at step 3,000 greedy 0.063 on 512 fresh length-2 chains. Neither lesson reached the chains where the theory speaks (length 3 and more): the recipe does not find A5's products yet. The theory expects the pass rate near the chance line once chains are longer than the model can compose in one pass. Watching it live needs a real GPU: on a software GPU that is hours.",
    needsGpu: 'Needs a real GPU: hours in software; see the run',
    charts: ['reward', 'level', 'entropy'],
    variants: [{ label: 'room to think', set: { 'task.layout': 'interleaved', 'task.scratch': 0 } }],
    ablation: {
      question:
        'On A5, the smallest non-solvable group, does room to think (one running product per token) make chains of 6 learnable where one answer token fails?',
      literature:
        "Iterated multiplication in A5 is NC¹-complete (Barrington 1989) and fixed-depth transformers compute within TC⁰ (Merrill and Sabharwal 2023), so answering at once should fail on long enough chains unless TC⁰ = NC¹, while a chain of thought reduces each step to one product. On S3 this engine's no-cot-room reached only length 3 while cot-discovery solved length 6 (README). This ablation runs both on A5 on the same seeds, and its answer is whatever these runs show.",
      reading:
        'The final curriculum level is the main figure. "Solved" is held-out pass@1 ≥ 0.97 at length 6; with 4 seeds a cell a difference is claimed only at p < 0.05. Both failing says the recipe does not reach A5 yet, not that the theory is wrong.',
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
    summary:
      'The S3 chain shown whole, then a scratchpad of k tokens and the answer last: the model must find each next element in the prompt itself, the non-myopic setting.',
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 0, steps: 1000 },
    explanation:
      'The block layout of no-cot-room (BOS x₁ … x_k SEP) with a scratchpad as long as the chain (scratch 0 = k) instead of one answer token; only the last y is rewarded, and the curriculum starts at length 1 as in cot-discovery. Interleaved (cot-discovery) hands the model x_t right before y_t, so each step is myopic: one product of the two tokens just written. Here y_j must fetch x_j from the prompt by its position and multiply it into y_{j−1}: the scratchpad still makes the chain single products, but where to look must be learned as well, and nothing forces the scratchpad to hold running products — the model may use it any way that gets the last token right. The "no room" variant is no-cot-room; "interleaved" is cot-discovery.',
    guide: [
      {
        text: 'The same S3 chains as cot-discovery, but shown whole before the answer; the model may write k tokens and only the last is checked.',
        show: 'group',
      },
      {
        text: 'Press ▶. Length 1 is a copy of x₁, length 2 a single product, as in cot-discovery.',
        show: 'chart-level',
        needs: 'step',
      },
      {
        text: 'CoT alignment: does the scratchpad hold the running products x₁, x₁x₂, …, although nothing rewards them?',
        show: 'chart-task',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load the recorded run at length 3 (step 310) or at step 750: its answers are right 62% of the time at length 3, yet its first scratch token is the running product (x₁ itself) in only 18% of the chains. Open a group: right answers without the ✓ marks of running products under the scratchpad.',
        show: 'jump',
      },
      {
        text: 'Compare "no room" (one answer token, as no-cot-room) and "interleaved" (the elements handed over one at a time, as cot-discovery) on the same seed.',
        show: 'variants',
      },
    ],
    expect:
      'Measured (seed 0, SwiftShader, 1000 steps in 47 min): length 2 at step 21, length 3 at step 311, still at length 3 at step 1000, where the held-out greedy pass@1 had climbed from 0.36 to 0.83. The scratchpad is not a chain of running products: on 512 fresh length-3 chains (S3 has only 216, all of them drawn in training: a training-set figure) the step-1000 model answers 82% right, but 369 of those 422 right answers follow a scratchpad whose tokens are not the running products (CoT alignment 0.44). cot-discovery (interleaved) reaches length 6 by step 500–650; no-cot-room (one answer token) also stops at length 3.',
    charts: ['reward', 'level', 'task', 'entropy'],
    variants: [
      { label: 'no room', set: { 'task.scratch': 1 } },
      { label: 'interleaved', set: { 'task.layout': 'interleaved' } },
    ],
    checkpoints: [
      {
        label: 'at length 3',
        file: 'checkpoints/cot-block-length3.safetensors',
        note: 'seed 0 at step 310, when its curriculum reached length 3 (held-out greedy pass@1 0.23 there on 512 fresh chains)',
      },
      {
        label: 'step 750',
        file: 'checkpoints/cot-block-step750.safetensors',
        note: 'seed 0 at step 750 of the recorded run: at length 3, greedy pass@1 0.62 on 512 fresh length-3 chains, 264 of its 318 right answers after a scratchpad that is not the running products',
      },
    ],
    ablation: {
      question:
        'With the whole S3 chain shown first, does a scratchpad of k tokens make length 6 learnable where one answer token stalls?',
      literature:
        'The seed paper finds the chain of thought discovered in the interleaved ("myopic") layout, where each step is one product of the two tokens before it. In the block layout a scratchpad must also learn where in the prompt the next element is. On this engine no-cot-room (block, one token) reached length 3 and cot-discovery (interleaved) solved length 6 on 4/4 seeds (README). This ablation runs the block scratchpad against no room on the same seeds, and its answer is whatever these runs show.',
      reading:
        'The final level is the main figure, then CoT alignment: a solved run with alignment near 1 found the running products; a solved run with low alignment found another use of the scratchpad. "Solved" is held-out pass@1 ≥ 0.97 at length 6.',
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
    summary:
      "The estimator is code you can read and edit in the page: GRPO without its division by the group's spread. Does that one line matter, over seeds?",
    set: {
      ...SMALL_SORT,
      'task.length': 4,
      'task.alphabet': 4,
      estimator: 'custom',
      customEstimator: GRPO_NO_STD_SOURCE,
    },
    explanation:
      "The start-here task (sort 4 letters, a reward per right position) with the estimator written as code: GRPO, each reward minus its group's mean, but no longer divided by the group's standard deviation (one line changed; the code tab shows it). That is Dr. GRPO's advantage (Liu et al. 2025), who argue the division up-weights groups that are nearly solved or nearly hopeless, where the spread is small. The code runs in a sandbox beside the trainer, loaded once per run, and its output is checked at every step (length, finite values, inputs untouched). Given GRPO's own code the custom path is the built-in run bit for bit, so any difference the ablation finds is the line's.",
    guide: [
      {
        text: "This lesson's estimator is code: GRPO with one line changed, no division by the group's spread. Open the code tab (your estimator) to read it.",
        show: 'loop',
      },
      { text: 'Press ▶: the run trains with that code, loaded once and checked at every step.', show: 'play' },
      {
        text: "Look at the advantages: undivided, a group's advantages are as large as its rewards differ, so nearly solved groups push less than under GRPO.",
        show: 'chart-advantages',
        needs: 'advantages',
      },
      { text: 'Run the "GRPO" variant on the same seed, then compare the reward curves.', show: 'variants' },
      {
        text: 'One run each is an anecdote: the ablation runs both estimators on 4 seeds, and its verdict names the custom cell.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'Break it on purpose: return one value too few, divide by zero, or loop forever. The run stops at that step with the line, and keeps its weights and charts.',
      },
    ],
    expect:
      'Measured (rlvr sweep --preset your-estimator --backend cpu, seeds 0–3, 300 steps): GRPO and the one-line change each solved 2 of 4 seeds (held-out pass@1 ≥ 0.9: GRPO at steps 200 and 300, the change at 250 and 300); final held-out pass@1 0.88 [0.59, 1.00] against 0.86 [0.60, 1.00]: not different at this many seeds (p = 1.00).',
    charts: ['reward', 'advantages', 'entropy'],
    variants: [{ label: 'GRPO', set: { estimator: 'grpo' } }],
    ablation: {
      question:
        "Does dividing by the group's spread (GRPO) or not (your one-line change) change how fast a small model learns to sort, over seeds?",
      literature:
        'Dr. GRPO (Liu et al. 2025) reports that dropping the division removes a difficulty bias without costing accuracy, on large language models. On this small task the answer is whatever these runs show.',
      reading:
        'Compare steps to solve and the final held-out pass@1. "Not different at this many seeds" is an honest and likely answer on a task this easy; the custom cell\'s code is in the exported JSON and every run\'s config.',
      grid: { estimator: ['grpo', 'custom'] },
      seeds: 4,
      steps: 300,
      solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
      metrics: ['eval/pass@1_greedy', 'reward', 'entropy'],
    },
  },
  {
    name: 'maze-5x5',
    title: 'Mazes 5×5: keep a hand on the wall, then RL',
    summary:
      'Where the shortest path is beyond a small model, a walk that needs no plan is not: a warm start on walks that keep the right hand on the wall, then RL rewarded only for ending on the goal.',
    set: {
      ...MAZE_WALL_5X5,
      // The recorded runs are 300 steps; the budget leaves room for ▶ to continue them.
      steps: 1000,
    },
    explanation:
      "Two phases. The warm start: 4,000 supervised steps (32 walks a step) on walks that keep the right hand on the wall until they stand on G: at each cell the first open way from the right round, into dead ends and back out. In a maze without loops that walk always arrives, and within the 25-move budget it does in 96% of 5×5 mazes (for the rest the warm start is shown a shortest path). Why not the shortest path, which maze-base-rl's RL finds on 4×4? Its first move, the exit of S that leads to G, needs the whole path in one pass: told the shortest path on 64,000 mazes, this model (width 32, 2 layers) ends on G in 59% of whole 5×5 mazes, and RL from a base model of random walks stopped at the same 60%. The wall needs no plan, only the walls round the cell the walk stands on and the way it came. Then RL, rewarded only for ending on G without entering a wall, on whole mazes from the first step: GRPO on 32 mazes × 4 walks a step with dynamic sampling (groups whose walks all scored the same are replaced by fresh mazes, up to 4 rounds), a KL anchor (k3, β 0.05) to the warm start, no regulator (it pulled a near-certain wall walker toward uniform) and lr 3e-4. A warm start on demonstrations is not a base model: it knows where G is, to stop there. It is how RLVR is mostly done (supervised first, then RL), and it shows what RL does not do here: take a model past a policy it cannot hold.",
    guide: [
      {
        text: 'First load the warm start (trained ▾): 4,000 supervised steps on walks that keep the right hand on the wall until G. RL starts from it.',
        show: 'jump',
      },
      {
        text: "The prompt is a 5×5 maze and the start cell. The warm start's walks hug the wall, into dead ends and back, and stop on G in most mazes: detours are paid, only the end counts.",
        show: 'group',
      },
      {
        text: 'Press ▶: only ending on G is rewarded, on whole mazes. Most groups are all right; dynamic sampling looks for mazes where the four walks differ.',
        show: 'chart-groups',
        needs: 'step',
      },
      {
        text: 'Why the wall? Told the shortest path, this model ends on G in 59% of 5×5 mazes: the first move needs the whole path in one pass. RL polishes a policy the model can hold; it did not find one it cannot.',
        show: 'chart-reward',
        needs: 'step',
      },
      {
        text: 'No time to wait? Load step 300 of a recorded run: greedy walks end on G in 96% of whole 5×5 mazes (the warm start: 95%; a weaker warm start of 83% rose to 94% in 200 steps).',
        show: 'jump',
      },
    ],
    expect:
      "Measured on the CPU engine, headless. On the train/held-out split (warm start and RL on training mazes only; 256 held-out whole 5×5 mazes, a walk right only with its end token within 25 moves), 4 seeds: the warm starts end on G in 92% / 92% / 91% / 93%, and 200 RL steps take them to 96% / 94% / 94% / 96% (RL adds 2–4 points on every seed, most in the first 100 steps). The figures that follow predate the split and the strict budget. The warm start, 4,000 supervised steps on right-hand walks to G (about 20 min a seed, two runs sharing two cores): its greedy walks end on G in 83% / 95% / 97% / 92% of 256 held-out whole 5×5 mazes (seeds 0–3); the shipped one is seed 1 (0.949). RL from it, 3 seeds of 300 steps (about 19 min each): 0.969 / 0.969 / 0.965 at step 100 and 0.969 / 0.965 / 0.969 at step 300 (seeds 0–2), its sampled walks 0.92 → 0.96 on held-out mazes. RL from each seed's own warm start (the same seed for both phases): 0.938 / 0.965 / 0.977 / 0.961 (seeds 0–3 after 200 steps, seed 1 after 300): 4 of 4 past 0.9, where the warm starts alone passed on 3 of 4. Told the shortest path instead, the same model ends on G in 59% of whole 5×5 mazes after 2,000 supervised steps; RL from a base model of random walks reached 57–62% (4 seeds, H200). Where the walks fail, they have left the wall: on 256 other mazes, seed 1 at step 300 keeps a hand on the wall to G in 232 walks, and its failures are among the 24 that leave both hands.",
    charts: ['reward', 'task', 'entropy', 'groups'],
    init: 'checkpoints/maze-5x5-warm-start.safetensors',
    checkpoints: [
      {
        label: 'warm start',
        file: 'checkpoints/maze-5x5-warm-start.safetensors',
        note: "seed 1 at step 0: the warm start (4,000 supervised steps on right-hand walks to G, 32 walks a step, sftLr 3e-3, seed 1) under this lesson's settings; its greedy walks end on G in 95% (0.945 with the strict budget) of 256 held-out whole 5×5 mazes (trained before the train/held-out split)",
      },
      {
        label: 'step 300',
        file: 'checkpoints/maze-5x5-step300.safetensors',
        note: 'seed 1 at step 300 of its recorded run (trained before the train/held-out split): greedy walks end on G in 96% (0.965) of 256 held-out whole 5×5 mazes, strict budget',
      },
    ],
  },
];
