// The lesson consensus-collapse: its entry of the lesson table (table/index.ts puts the lessons in order).

import { SMALL_SORT } from '../recipes';
import type { Preset } from '../types';

const BASE = 'checkpoints/consensus-collapse-base.safetensors';

export const consensusCollapse: Preset = {
  name: 'consensus-collapse',
  title: 'Label-free RL collapses',
  summary:
    "Rewarding a group's majority answer instead of the verifier teaches the policy to agree with itself, not to be right: agreement rises to 1 while held-out pass@1 falls to near 0.",
  set: {
    ...SMALL_SORT,
    'task.length': 5,
    'task.alphabet': 4,
    rewardSource: 'consensus',
    steps: 100,
    evalEvery: 10,
    evalPrompts: 64,
  },
  explanation:
    'OM-GRPO\'s label-free reward (docs/methods.md): in each group of 8 answers the majority answer gets 1 and the others 0, and no verifier is asked. It starts from a model that already sorts (300 verifier-rewarded steps of 5 letters from {a, b, c, d}, held-out greedy pass@1 0.84), so the majority is usually right at first. But the reward pays for agreement, and the cheapest agreement is one answer for every prompt: the policy becomes certain, each group unanimous (consensus rate 1, reward 1) and what it agrees on is no longer the sorted word. pass@1 and held-out evaluation still come from the verifier, so the chart shows the two coming apart. The "verifier control" variant trains the same base on the verifier\'s reward.',
  guide: [
    {
      text: 'First load the base model (trained ▾): a sorter trained on the verifier, held-out pass@1 0.84. From random weights there is no majority worth agreeing with.',
      show: 'jump',
    },
    {
      text: 'Press ▶ and watch the consensus rate rise toward 1 while pass@1 (what the verifier says) falls.',
      show: 'chart-consensus',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run at step 20 (collapsing) or 100 (collapsed): the charts show that run up to there, and ▶ continues it.',
      show: 'jump',
    },
    {
      text: 'The reward chart says the run is perfect: reward 1 at pass@1 near 0. A reward that can be earned without being right will be.',
      show: 'chart-reward',
      needs: 'step',
    },
    {
      text: 'Run the "verifier control" variant (same base, same seed): it keeps sorting.',
      show: 'variants',
    },
  ],
  expect:
    'Measured on the CPU engine, 8 seeds × 100 steps from the shipped base model: the consensus rate ends at 0.96–1.00 (mean of the last 10 steps) and sampled pass@1 at 0 on every seed, while held-out greedy pass@1 falls from 0.84 to 0–0.06 at step 100 (0–0.34 already at step 10). The verifier control from the same base and seeds ends at 0.56–0.94. About 20 s a run.',
  charts: ['reward', 'consensus', 'entropy', 'groups'],
  init: BASE,
  checkpoints: [
    {
      label: 'base model',
      file: BASE,
      note: "seed 0 at step 0: 300 verifier-rewarded steps of sort-easy's recipe on 5 letters of 4 (held-out greedy pass@1 0.84), under this lesson's settings",
    },
    {
      label: 'step 20, collapsing',
      file: 'checkpoints/consensus-collapse-step20.safetensors',
      note: 'seed 0 at step 20 of the recorded run: consensus rate 0.73, sampled pass@1 0.05, held-out greedy pass@1 0.02',
    },
    {
      label: 'collapsed',
      file: 'checkpoints/consensus-collapse-step100.safetensors',
      note: 'seed 0 at step 100 of the recorded run: consensus rate 1.00 (reward 1), sampled pass@1 0, held-out greedy pass@1 0.02, entropy 0.02 nats',
    },
  ],
  variants: [{ label: 'verifier control', set: { rewardSource: 'verifier' } }],
};
