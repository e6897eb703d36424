// The lesson dead-groups: its entry of the lesson table (table/index.ts puts the lessons in order).

import type { Preset } from '../types';

export const deadGroups: Preset = {
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
};
