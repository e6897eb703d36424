// The lesson cot-s4: its entry of the lesson table (table/index.ts puts the lessons in order).

import { COT_S4 } from '../recipes';
import type { Preset } from '../types';

export const cotS4: Preset = {
  name: 'cot-s4',
  title: 'A chain of thought on S4: more samples for more products',
  summary:
    "S4 has 24 elements and 576 products: with cot-discovery's 256 samples a step each product is rarely right and learning stalls at length 2, so this recipe samples 8× more.",
  // The recorded runs are 3,000 steps; the budget leaves room after the last trained model
  // (step 3,000) for ▶ to continue it.
  set: { ...COT_S4, steps: 3500 },
  explanation:
    'cot-discovery on S4 (order 24), with 64 prompts × 32 samples a step instead of 16 × 16. Why: at length 2 the policy must find all 576 products and a guess is right 1 time in 24, so a step of B prompts × G samples brings each product about B·G/n³ successes — 1.2 for S3 at 16 × 16, but 0.018 for S4, and the plain recipe stayed at length 2 (1,600 and 1,700 steps on an H200; 600 on a software GPU, where a decoded checkpoint showed nearly every product still at chance, not collapsed). The model is not the limit: a supervised warm start with the same 2-layer, width-32 model learns all 576 products in 300 steps. 64 × 32 gives 0.15 per product per step, the rate at which A4 was solved (in 1,500–2,100 steps on an H200); it is also about the most that fits a 1 GB GPU budget. On a larger GPU more samples a step should shorten the wait. The "as cot-discovery" variant is the plain recipe.',
  guide: [
    {
      text: 'The task: chains of the 24 permutations of four objects. Only the last running product is checked.',
      show: 'group',
    },
    {
      text: 'Each step samples 64 prompts × 32 answers: the 576 products of S4 each need successes to be learned, and a guess is right only 1 time in 24.',
      show: 'chart-reward',
    },
    {
      text: "Watch the level: with cot-discovery's 16 × 16 it stays at 2; here it moves on, after a long wait (1,100–1,200 steps in the recorded runs).",
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run where it left length 2 (step 1,130) or solved (step 3,000): the charts show that run up to there, and ▶ continues it.',
      show: 'jump',
    },
    {
      text: 'Run the "as cot-discovery" variant (16 prompts × 16 answers) with the same seed and compare the level curves.',
      show: 'variants',
    },
    {
      text: 'A stalled run can be diagnosed: rlvr eval --breaks decodes the held-out chains and lists the products the policy gets wrong, with the probability it gives the right one.',
    },
  ],
  expect:
    'Measured on two seeds, the recorded runs (seed 0 on the CPU engine, 3,000 steps in 2.8 h; seed 1 on an H200, 276 s with six other runs sharing it): length 2 from step 11 to step 1,131 / 1,211, the long wait; then length 3, 4, 5 and 6 at steps 1,131 / 1,251 / 1,341 / 1,421 (seed 0) and 1,211 / 1,791 / 2,061 / 2,141 (seed 1). At step 3,000, greedy pass@1 on 512 fresh length-6 chains 1.000 / 0.986. So 64 × 32 samples a step carry S4 past length 2. Watching it live needs a real GPU: on a software GPU that is hours, so load the trained models. The plain recipe ("as cot-discovery") stayed at length 2: 1,600 and 1,700 steps on an H200 (seeds 0 and 1), and 600 steps on a software GPU (seed 0) ended at held-out 0.14 with 451 of 512 chains breaking at y₂ and only 1 of 291 wrong products collapsed: the products were never found, not lost.',
  needsGpu: 'Needs a real GPU: 31 h in software; load a model',
  charts: ['reward', 'level', 'task', 'entropy'],
  variants: [{ label: 'as cot-discovery', set: { batchPrompts: 16, groupSize: 16 } }],
  checkpoints: [
    {
      label: 'left length 2',
      file: 'checkpoints/cot-s4-length3.safetensors',
      note: 'seed 0 at step 1130, when its curriculum reached length 3 after 1,120 steps at length 2 (greedy pass@1 0.92 on 512 fresh length-2 chains)',
    },
    {
      label: 'solved (length 6)',
      file: 'checkpoints/cot-s4-solved.safetensors',
      note: 'seed 0 at step 3000 of the recorded run: greedy pass@1 1.000 on 512 fresh length-6 chains',
    },
  ],
};
