// The lesson no-cot-a5: its entry of the lesson table (table/index.ts puts the lessons in order).

import { chainAblationVerdict, COT_A5, NO_ROOM, ROOM_TO_THINK } from '../recipes';
import type { Preset } from '../types';

export const noCotA5: Preset = {
  name: 'no-cot-a5',
  title: 'A5 with no room to think',
  summary:
    'The control for cot-a5: the whole A5 chain at once and a single answer token, so the model must compose the chain in one forward pass.',
  set: { ...COT_A5, ...NO_ROOM, steps: 3000 },
  explanation:
    'cot-a5 with the chain shown whole (block layout) and room for one answer token (scratch 1), as no-cot-room is to cot-discovery. For A5 the theory says more than for S3: iterated A5 multiplication is NC¹-complete (Barrington 1989) and a fixed-depth transformer computes within TC⁰ (Merrill and Sabharwal 2023), so as the chains grow a 2-layer model answering at once should fail unless TC⁰ = NC¹. At lengths this short a finite table could still be memorised in principle; what the runs show is the measurement. The "room to think" variant is cot-a5.',
  guide: [
    { text: 'The same A5 chains, shown at once; the model writes one token, the answer.', show: 'group' },
    {
      text: 'Press ▶. Length 1 (copy) and length 2 (one product) fit in one forward pass.',
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'Then each longer chain is a composition the 2-layer model must do inside itself: watch the pass rate at the chance line 1/60.',
      show: 'chart-reward',
      needs: 'step',
    },
    {
      text: 'Run "room to think" (cot-a5) on the same seed: the only difference is the scratchpad.',
      show: 'variants',
    },
  ],
  expect:
    "Measured on one seed on an H200 (seed 0, the recorded run: 3,000 steps in 219 s with six other runs sharing the GPU): length 1 passed at step 31, then length 2 to the end, as cot-a5 (at length 2 the two layouts ask the same thing: one product, one token). The reward 0.035 over steps 20–120 and 0.044 over the last 100 (chance 1/60 = 0.017); at step 3,000 greedy 0.063 on 512 fresh length-2 chains. Neither lesson reached the chains where the theory speaks (length 3 and more): the recipe does not find A5's products yet. The theory expects the pass rate near the chance line once chains are longer than the model can compose in one pass. Watching it live needs a real GPU: on a software GPU that is hours.",
  needsGpu: 'Needs a real GPU: 22 h in software; see the run',
  charts: ['reward', 'level', 'entropy'],
  variants: [{ label: 'room to think', set: ROOM_TO_THINK }],
  ablation: {
    question:
      'On A5, the smallest non-solvable group, does room to think (one running product per token) make chains of 6 learnable where one answer token fails?',
    literature:
      "Iterated multiplication in A5 is NC¹-complete (Barrington 1989) and fixed-depth transformers compute within TC⁰ (Merrill and Sabharwal 2023), so answering at once should fail on long enough chains unless TC⁰ = NC¹, while a chain of thought reduces each step to one product. On S3 this engine's no-cot-room reached only length 3 while cot-discovery solved length 6 (README). This ablation runs both on A5 on the same seeds, and its answer is whatever these runs show.",
    reading:
      'The final curriculum level is the main figure. "Solved" is held-out pass@1 ≥ 0.97 at length 6; with 4 seeds a cell a difference is claimed only at p < 0.05. Both failing says the recipe does not reach A5 yet, not that the theory is wrong.',
    variants: ['room to think'],
    seeds: 4,
    steps: 6000,
    ...chainAblationVerdict('reward'),
  },
};
