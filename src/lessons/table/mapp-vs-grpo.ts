// The lesson mapp-vs-grpo: its entry of the lesson table (table/index.ts puts the lessons in order).

import { passAblationVerdict, S3_SHORT } from '../recipes';
import type { Preset } from '../types';

export const mappVsGrpo: Preset = {
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
    ...passAblationVerdict('frac_reward_zero_std', 'reward'),
  },
};
