// The lesson no-cot-room: its entry of the lesson table (table/index.ts puts the lessons in order).

import { chainAblationVerdict, COT_RECIPE, NO_ROOM, ROOM_TO_THINK } from '../recipes';
import type { Preset } from '../types';

export const noCotRoom: Preset = {
  name: 'no-cot-room',
  title: 'The same task with no room to think',
  summary:
    'The chain-of-thought task with the whole chain shown at once and a single answer token: the model must compose the chain in one pass, and stalls.',
  set: { ...COT_RECIPE, ...NO_ROOM, steps: 1000 },
  explanation:
    'The cot-discovery recipe, but the whole chain is shown at once (block layout) and the policy may write a single token: the answer (scratch = 1). A 2-layer model must now compose the whole chain in one forward pass. Short chains are learned; then the pass rate stalls and the level stops advancing, while cot-discovery keeps going.',
  guide: [
    {
      text: 'The same S3 chains, but the model answers at once: no intermediate tokens, no room to compute.',
      show: 'group',
    },
    {
      text: 'Press ▶. Lengths 1 and 2 are learned: one multiplication fits in one forward pass.',
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'Then the level stops advancing and the pass rate sinks toward chance (1/6) as chains grow.',
      show: 'chart-reward',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run at step 700: it reached length 3 at step 361 and is still there; the charts show it up to there, and ▶ continues it.',
      show: 'jump',
    },
    {
      text: 'The lesson: the scratchpad, not more reward, makes the problem learnable; a chain of thought is computation the model needs room for.',
    },
  ],
  expect:
    'Measured (headless, seeds 0 and 3, 550–700 steps): length 2 by step 50, length 3 by step 350, then stuck at length 3; at length 6 the greedy pass rate is 0.166 (chance 1/6). cot-discovery reaches length 6 in the same budget. The recorded run (seed 0, SwiftShader, 700 steps): length 2 at step 11, length 3 at step 361, still at length 3 at step 700 (held-out greedy pass@1 0.34–0.53 there).',
  charts: ['reward', 'level', 'entropy'],
  checkpoints: [
    {
      label: 'step 700, stuck at length 3',
      file: 'checkpoints/no-cot-room-step700.safetensors',
      note: 'seed 0 at step 700 of the recorded run: at length 3 since step 361, held-out greedy pass@1 0.53',
    },
  ],
  variants: [{ label: 'room to think', set: ROOM_TO_THINK }],
  ablation: {
    question: 'Does room to think (writing every running product before the answer) make long chains learnable?',
    literature:
      'The seed paper finds that a transformer trained from scratch with a last-token reward discovers a chain of thought for iterated S3 multiplication, and that the intermediate tokens are what make long chains learnable. On this engine no-cot-room reached only length 3 in 550–700 steps (seeds 0 and 3) while cot-discovery solved length 6 on 4/4 seeds (README); those runs were made one recipe at a time. This ablation runs both on the same seeds, and its answer is whatever these runs show.',
    reading:
      'The final curriculum level is the main figure: a chain length the model passes at 0.9. "Solved" is held-out pass@1 ≥ 0.97 at length 6; a difference is claimed only at p < 0.05 over seeds.',
    variants: ['room to think'],
    seeds: 4,
    steps: 1500,
    ...chainAblationVerdict('reward'),
  },
};
