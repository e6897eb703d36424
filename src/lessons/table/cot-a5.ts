// The lesson cot-a5: its entry of the lesson table (table/index.ts puts the lessons in order).

import { COT_A5 } from '../recipes';
import type { Preset } from '../types';

export const cotA5: Preset = {
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
  needsGpu: 'Needs a real GPU: 33 h in software; see the run',
  charts: ['reward', 'level', 'task', 'entropy'],
};
