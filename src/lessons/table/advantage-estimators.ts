// The lesson advantage-estimators: its entry of the lesson table (table/index.ts puts the lessons in order).

import { passAblationVerdict, SMALL_SORT } from '../recipes';
import type { Preset } from '../types';

export const advantageEstimators: Preset = {
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
    question: 'Does the advantage estimator (GRPO, Dr. GRPO or RLOO) change how fast a small model learns, over seeds?',
    literature:
      "Dr. GRPO (Liu et al. 2025) reports that removing GRPO's std division and per-answer length averaging gives the same accuracy with shorter wrong answers; RLOO (Ahmadian et al. 2024) reports that a leave-one-out baseline matches or beats PPO-style training at lower cost. Both claims come from large language models; on this small task the answer is whatever these runs show.",
    reading:
      'Compare steps to solve and the final held-out pass@1, then the answer length (the length bias Dr. GRPO removes). On a task this easy, "not different at this many seeds" is the likely and honest outcome.',
    variants: ['Dr. GRPO', 'RLOO'],
    seeds: 4,
    steps: 300,
    ...passAblationVerdict('reward', 'completions/mean_length', 'entropy'),
  },
};
