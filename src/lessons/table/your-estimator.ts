// The lesson your-estimator: its entry of the lesson table (table/index.ts puts the lessons in order).

import { GRPO_NO_STD_SOURCE } from '../../config/code-examples';
import { passAblationVerdict, SMALL_SORT } from '../recipes';
import type { Preset } from '../types';

export const yourEstimator: Preset = {
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
    ...passAblationVerdict('reward', 'entropy'),
  },
};
