// The lesson cot-block: its entry of the lesson table (table/index.ts puts the lessons in order).

import { chainAblationVerdict, COT_RECIPE } from '../recipes';
import type { Preset } from '../types';

export const cotBlock: Preset = {
  name: 'cot-block',
  title: 'Room to think after the whole chain',
  summary:
    'The S3 chain shown whole, then a scratchpad of k tokens and the answer last: the model must find each next element in the prompt itself, the non-myopic setting.',
  set: { ...COT_RECIPE, 'task.layout': 'block', 'task.scratch': 0, steps: 1000 },
  explanation:
    'The block layout of no-cot-room (BOS x₁ … x_k SEP) with a scratchpad as long as the chain (scratch 0 = k) instead of one answer token; only the last y is rewarded, and the curriculum starts at length 1 as in cot-discovery. Interleaved (cot-discovery) hands the model x_t right before y_t, so each step is myopic: one product of the two tokens just written. Here y_j must fetch x_j from the prompt by its position and multiply it into y_{j−1}: the scratchpad still makes the chain single products, but where to look must be learned as well, and nothing forces the scratchpad to hold running products — the model may use it any way that gets the last token right. The "no room" variant is no-cot-room; "interleaved" is cot-discovery.',
  guide: [
    {
      text: 'The same S3 chains as cot-discovery, but shown whole before the answer; the model may write k tokens and only the last is checked.',
      show: 'group',
    },
    {
      text: 'Press ▶. Length 1 is a copy of x₁, length 2 a single product, as in cot-discovery.',
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'CoT alignment: does the scratchpad hold the running products x₁, x₁x₂, …, although nothing rewards them?',
      show: 'chart-task',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run at length 3 (step 310) or at step 750: its answers are right 62% of the time at length 3, yet its first scratch token is the running product (x₁ itself) in only 18% of the chains. Open a group: right answers without the ✓ marks of running products under the scratchpad.',
      show: 'jump',
    },
    {
      text: 'Compare "no room" (one answer token, as no-cot-room) and "interleaved" (the elements handed over one at a time, as cot-discovery) on the same seed.',
      show: 'variants',
    },
  ],
  expect:
    'Measured (seed 0, SwiftShader, 1000 steps in 47 min): length 2 at step 21, length 3 at step 311, still at length 3 at step 1000, where the held-out greedy pass@1 had climbed from 0.36 to 0.83. The scratchpad is not a chain of running products: on 512 fresh length-3 chains (S3 has only 216, all of them drawn in training: a training-set figure) the step-1000 model answers 82% right, but 369 of those 422 right answers follow a scratchpad whose tokens are not the running products (CoT alignment 0.44). cot-discovery (interleaved) reaches length 6 by step 500–650; no-cot-room (one answer token) also stops at length 3.',
  charts: ['reward', 'level', 'task', 'entropy'],
  variants: [
    { label: 'no room', set: { 'task.scratch': 1 } },
    { label: 'interleaved', set: { 'task.layout': 'interleaved' } },
  ],
  checkpoints: [
    {
      label: 'at length 3',
      file: 'checkpoints/cot-block-length3.safetensors',
      note: 'seed 0 at step 310, when its curriculum reached length 3 (held-out greedy pass@1 0.23 there on 512 fresh chains)',
    },
    {
      label: 'step 750',
      file: 'checkpoints/cot-block-step750.safetensors',
      note: 'seed 0 at step 750 of the recorded run: at length 3, greedy pass@1 0.62 on 512 fresh length-3 chains, 264 of its 318 right answers after a scratchpad that is not the running products',
    },
  ],
  ablation: {
    question:
      'With the whole S3 chain shown first, does a scratchpad of k tokens make length 6 learnable where one answer token stalls?',
    literature:
      'The seed paper finds the chain of thought discovered in the interleaved ("myopic") layout, where each step is one product of the two tokens before it. In the block layout a scratchpad must also learn where in the prompt the next element is. On this engine no-cot-room (block, one token) reached length 3 and cot-discovery (interleaved) solved length 6 on 4/4 seeds (README). This ablation runs the block scratchpad against no room on the same seeds, and its answer is whatever these runs show.',
    reading:
      'The final level is the main figure, then CoT alignment: a solved run with alignment near 1 found the running products; a solved run with low alignment found another use of the scratchpad. "Solved" is held-out pass@1 ≥ 0.97 at length 6.',
    variants: ['no room'],
    seeds: 4,
    steps: 1500,
    ...chainAblationVerdict('eval/task/cot_alignment_prefix'),
  },
};
