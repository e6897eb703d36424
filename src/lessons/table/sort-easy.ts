// The lesson sort-easy: its entry of the lesson table (table/index.ts puts the lessons in order).

import { passAblationVerdict, SMALL_SORT } from '../recipes';
import type { Preset } from '../types';

export const sortEasy: Preset = {
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
    ...passAblationVerdict('reward', 'entropy'),
  },
};
