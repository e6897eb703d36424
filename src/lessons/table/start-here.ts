// The lesson start-here: its entry of the lesson table (table/index.ts puts the lessons in order).

import { SMALL_SORT } from '../recipes';
import type { Preset } from '../types';

export const startHere: Preset = {
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
};
