// The further lessons of the preset table (src/config/presets.ts): sorting and the advantage
// estimators, longer chains and larger groups, the block layout, and your own estimator.

import { GRPO_NO_STD_SOURCE } from './custom-code';
import type { Preset } from './preset-types';
import { COT_A5, COT_INTERLEAVED, COT_RECIPE, COT_S4, SMALL_SORT } from './preset-recipes';

export const FURTHER_LESSONS: readonly Preset[] = [
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
    set: { ...COT_INTERLEAVED, 'task.group': 'A4' },
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
    set: COT_S4,
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
    set: COT_A5,
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
    set: { ...COT_A5, 'task.layout': 'block', 'task.scratch': 1 },
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
    set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 0 },
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
