// The lesson reward-hacking: its entry of the lesson table (table/index.ts puts the lessons in order).

import { SMALL_SORT } from '../recipes';
import type { Preset } from '../types';

export const rewardHacking: Preset = {
  name: 'reward-hacking',
  title: 'A noisy verifier is hacked',
  summary:
    'A verifier that checks only part of the answer is maximised, not obeyed: the policy learns the cheapest answer it accepts, and the true pass stays at 0.',
  // The methods suite's sorting (5 letters of 4), all or nothing, with a verifier that checks only the order.
  set: {
    ...SMALL_SORT,
    'task.length': 5,
    'task.alphabet': 4,
    'task.reward': 'exact',
    'task.verifier': 'ordered',
    evalEvery: 25,
    evalPrompts: 64,
  },
  explanation:
    'Sort 5 letters from {a, b, c, d}, all or nothing, on sort-easy\'s 1-layer, width-16 model. The verifier has a hole: it checks that the 5 letters are in order (task.verifier = ordered), not that they are the prompt\'s, so "aaaaa" passes for every prompt. Every reward comes from it, and RL follows the reward: the verifier\'s pass climbs to 1 while the true pass (what an exact verifier says, logged as task/true_pass) stays at 0. The policy writes one word, the same for every prompt. With the exact verifier and no partial credit, a guess is never right and nothing is learned (the "exact verifier" variant); with per-letter credit it learns the real task (the "exact, partial credit" variant). Held-out evaluation scores with the same verifier, so it is fooled too; only the true pass tells.',
  guide: [
    {
      text: 'The verifier here checks only that the 5 letters are in order, not that they are the prompt\'s: "aaaaa" passes for every prompt.',
    },
    {
      text: 'No time to wait? Load the recorded run at step 120 (the hack spreading) or 200 (hacked): the charts show it up to there.',
      show: 'jump',
    },
    {
      text: "The verifier's pass climbs to 1; the true pass, what an exact verifier would say, stays at 0.",
      show: 'chart-verifier',
      needs: 'step',
    },
    {
      text: 'Open a group: every answer is the same word, whatever the prompt, and every one is rewarded.',
      show: 'group',
      needs: 'step',
    },
    {
      text: 'Run the "exact, partial credit" variant: an honest verifier with credit per letter learns the real task.',
      show: 'variants',
    },
  ],
  expect:
    'Measured (CPU engine, seeds 0–7, 300 steps, 16–35 s each): the verifier\'s pass reaches 0.9 at steps 115–179 and ends at 0.98–1.00, while the true pass stays 0.00 (held-out greedy true pass 0.00–0.02 at step 300); each seed ends writing one word for every prompt ("aaaaa" on 4 seeds, "ddddd" on 3, "bbbbb" on 1). The exact verifier, all or nothing: reward 0 at every step on 8 of 8 seeds. Exact with partial credit: held-out greedy true pass 0.64–0.88 at step 300.',
  charts: ['reward', 'verifier', 'entropy'],
  checkpoints: [
    {
      label: 'step 120, hacking',
      file: 'checkpoints/reward-hacking-step120.safetensors',
      note: 'seed 1 at step 120 of the recorded run: the verifier passes 52% of the sampled answers, the true pass is 0; greedy, it writes "bbbbb" for every prompt',
    },
    {
      label: 'step 200, hacked',
      file: 'checkpoints/reward-hacking-step200.safetensors',
      note: 'seed 1 at step 200 of the recorded run: the verifier passes 98% of the answers, the true pass is 0, entropy 0.01 nats',
    },
  ],
  variants: [
    { label: 'exact verifier', set: { 'task.verifier': 'exact' } },
    { label: 'exact, partial credit', set: { 'task.verifier': 'exact', 'task.reward': 'partial' } },
  ],
};
