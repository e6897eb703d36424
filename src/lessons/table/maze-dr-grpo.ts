// The lesson maze-dr-grpo: its entry of the lesson table (table/index.ts puts the lessons in order).

import { DR_GRPO, MAZE_LOSS_ABLATION, mazeLossCheckpoints } from '../recipes';
import type { Preset } from '../types';

export const mazeDrGrpo: Preset = {
  name: 'maze-dr-grpo',
  title: 'Mazes with Dr. GRPO',
  summary:
    'The same RL with Dr. GRPO: no std division and a constant length normaliser, so every token of every walk weighs the same.',
  set: { ...MAZE_LOSS_ABLATION, ...DR_GRPO },
  explanation:
    'Dr. GRPO ("GRPO done right", Liu et al. 2025) on maze-grpo\'s recipe: the centred reward is not divided by the group\'s std (no difficulty bias: one right walk of four gets +0.75, three of four +0.25 each), and each walk\'s token losses are summed and divided by a constant, the longest answer allowed (no length bias). One side effect: without the std division the advantages are about half as large (a group of four 0/1 rewards has a std of 0.5–0.58), while the KL anchor and the uniform regulator keep their weights (the aggregation scales all three alike), so those two pull about twice as hard relative to the reward. Over 4 seeds of 600 steps it reached level 4 on none, where maze-grpo did on all four; with β and α halved (the variant "half KL and α") it matched maze-grpo (the expected text; docs/results.md).',
  guide: [
    { text: 'First load the base model (trained ▾), the one maze-grpo starts from.', show: 'jump' },
    {
      text: 'Press ▶ and open a group: without the std division one right walk of four gets +0.75, not +1.5.',
      show: 'group',
      needs: 'advantages',
    },
    {
      text: 'Compare the level and the answer length with maze-grpo at equal steps.',
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'Why slower? Its advantages are half GRPO\'s, against the same KL anchor and regulator. The "half KL and α" variant restores GRPO\'s balance.',
      show: 'variants',
    },
    {
      text: "No time to wait? Load the recorded run at step 600 (still level 3): greedy walks reach G in 42% of whole 4×4 mazes, where maze-grpo's reached 53%. ▶ continues it.",
      show: 'jump',
    },
  ],
  expect:
    "Measured on the CPU engine, headless, 4 seeds × 600 steps from the shipped base model (about 17 min a pair of runs on two cores). Level 3 at steps 311–401 and level 4 on none of 4 seeds by step 600; greedy walks end on G in 10–31% of 256 held-out whole 4×4 mazes at step 400 and 38–42% at step 600 (0.422 / 0.422 / 0.414 / 0.383; the base model: 4%). maze-grpo on the same seeds was ahead on every one, by 0.11–0.16 (level 4 at 351–501 on 4 of 4). Dr. GRPO's walks kept to the walls better (2–8 of 256 greedy walks hit one, GRPO 13–21) and its entropy stayed higher (0.62–0.66 nats over steps 501–600, GRPO 0.37–0.42): the base model's habits, held by an anchor and a regulator that weigh twice as much against its half-size advantages. With both halved (the variant \"half KL and α\", the same 4 seeds) it learned as maze-grpo did: level 4 at 401–491 on 4 of 4, 52–60% of whole mazes at step 600 (mean 0.548 against maze-grpo's 0.540, p = 0.625).",
  charts: ['reward', 'level', 'length', 'entropy'],
  ...mazeLossCheckpoints(
    'maze-dr-grpo',
    'seed 0 at step 600 of the recorded run (level 3 since step 401): greedy walks end on G in 42% (0.422) of 256 held-out whole 4×4 mazes',
  ),
  // Dr. GRPO's advantages are about half GRPO's (no std division) while β and α stay: halving both
  // restores GRPO's balance of reward against anchor (docs/results.md, the control row).
  variants: [{ label: 'half KL and α', set: { klBeta: 0.025, entropyAlpha: 0.005 } }],
};
