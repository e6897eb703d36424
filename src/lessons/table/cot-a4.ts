// The lesson cot-a4: its entry of the lesson table (table/index.ts puts the lessons in order).

import { COT_INTERLEAVED } from '../recipes';
import type { Preset } from '../types';

export const cotA4: Preset = {
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
  needsGpu: 'Needs a real GPU: 3 h in software; load a model',
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
};
