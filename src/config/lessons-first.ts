// The first lessons of the preset table (src/config/presets.ts): start here, dead groups, the
// chain-of-thought discovery and its control, entropy collapse, clip-higher, MaPP and the mazes.

import type { Preset } from './preset-types';
import { COT_INTERLEAVED, COT_RECIPE, S3_SHORT, SMALL_MAZE, SMALL_SORT } from './preset-recipes';

export const FIRST_LESSONS: readonly Preset[] = [
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
    set: { task: 'sort', 'task.length': 8, 'task.alphabet': 16, 'task.reward': 'exact' },
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
    set: COT_INTERLEAVED,
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
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 1 },
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
    set: { ...S3_SHORT, lr: 1e-2, entropyAlpha: 0, entropyTarget: 0 },
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
    set: { ...S3_SHORT, epochs: 2, minibatches: 4, epsHigh: 0.28, lr: 3e-3 },
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
    set: { ...S3_SHORT, estimator: 'mapp', groupSize: 4, batchPrompts: 16, mappPool: 128, lr: 3e-3 },
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
    set: { ...SMALL_MAZE, estimator: 'grpo', grpoScale: 'group', aggregation: 'seq-mean-token-mean' },
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
    set: { ...SMALL_MAZE, estimator: 'grpo', grpoScale: 'none', aggregation: 'seq-mean-token-sum-norm' },
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
];
