// The lesson maze-grpo: its entry of the lesson table (table/index.ts puts the lessons in order).

import { DR_GRPO, GRPO_AS_PUBLISHED, MAZE_LOSS_ABLATION, mazeLossCheckpoints } from '../recipes';
import type { Preset } from '../types';

export const mazeGrpo: Preset = {
  name: 'maze-grpo',
  title: 'Mazes with original GRPO',
  summary:
    "RL from the maze base model with GRPO as first published: each group's advantages divided by its std, each walk's loss averaged over its own tokens.",
  set: { ...MAZE_LOSS_ABLATION, ...GRPO_AS_PUBLISHED },
  explanation:
    "The recipe of maze-base-rl (its base model as it was before the train/held-out split, binary reward, curriculum on the goal's distance, KL anchor, lr 1e-3), with GRPO as the DeepSeekMath paper wrote it: the centred rewards divided by the group's std, and each walk's token losses averaged over that walk (seq-mean-token-mean). Two biases follow (Dr. GRPO, Liu et al. 2025). The std division gives a maze that one walk of four solved (+1.5 for it, −0.5 for the others) the same weight as one that three solved; and the per-walk average gives each token of a long walk less weight than each token of a short one, so a long wrong walk is pushed down less per token. Walks here end where the policy writes the end token, so their lengths vary. maze-dr-grpo removes both; maze-base-rl averages over all the batch's tokens instead (token-mean). Over 4 seeds of 600 steps, GRPO as published reached level 4 on every seed and Dr. GRPO on none; Dr. GRPO with the KL anchor and the regulator halved (its advantages are half these) matched GRPO (the expected texts; docs/results.md).",
  guide: [
    {
      text: 'First load the base model (trained ▾), the one maze-base-rl started from before the train/held-out split: from random weights, ▶ learns no mazes.',
      show: 'jump',
    },
    {
      text: "Press ▶, then open a group: each walk is drawn on the maze, coloured by its advantage. GRPO divides by the group's spread: one right walk of four gets +1.5, whatever the maze.",
      show: 'group',
      needs: 'advantages',
    },
    {
      text: "Each walk's loss is averaged over its own tokens, so a long wrong walk is pushed down less per token: watch the answer length beside the reward.",
      show: 'chart-length',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run at step 600 (level 4): greedy walks reach G in 53% of whole 4×4 mazes (the base model: 4%; maze-dr-grpo at step 600: 42%). ▶ continues it.',
      show: 'jump',
    },
  ],
  expect:
    'Measured on the CPU engine, headless, 4 seeds × 600 steps from the shipped base model (about 17 min a pair of runs on two cores). Level 3 (goals up to three moves away) at steps 211–281 and level 4 at 351–501 on 4 of 4 seeds; greedy walks end on G in 36–44% of 256 held-out whole 4×4 mazes at step 400 and 53–56% at step 600 (0.531 / 0.527 / 0.555 / 0.547; the base model: 4%). maze-dr-grpo on the same seeds: level 3 at 311–401, level 4 on none by step 600, 38–42% of whole mazes at step 600. GRPO as published was ahead on every seed, by 0.11–0.16 (level 4 reached on 4 of 4 seeds against 0 of 4: p = 0.029). Its gradient was over the clip (norm 1) in 26–43% of its steps; its walks grew to 15–17 tokens, and 13–21 of 256 greedy walks hit a wall (Dr. GRPO: 2–8).',
  charts: ['reward', 'level', 'length', 'entropy'],
  ...mazeLossCheckpoints(
    'maze-grpo',
    'seed 0 at step 600 of the recorded run (level 4 since step 351): greedy walks end on G in 53% (0.531) of 256 held-out whole 4×4 mazes',
  ),
  // maze-dr-grpo's two changes, so that the lesson and its ablation compare the two on one screen.
  variants: [{ label: 'Dr. GRPO', set: DR_GRPO }],
  ablation: {
    question:
      'From the same base model, does GRPO as published reach level 4 (goals up to four moves away) sooner than Dr. GRPO?',
    literature:
      'Dr. GRPO (Liu et al. 2025, "Understanding R1-Zero-like training", docs/methods.md) argues that GRPO\'s division by the group\'s std and its per-answer length normalisation bias the update, and that removing both costs nothing. On this engine, 4 seeds × 600 steps each from the maze base model (docs/results.md): GRPO reached level 4 on 4 of 4 seeds and Dr. GRPO on none (p = 0.029), and Dr. GRPO with the KL anchor and the regulator halved matched GRPO. This ablation runs both on the same seeds from the same base model, and its answer is whatever these runs show.',
    reading:
      "Every run starts from the lesson's base model. If GRPO reaches level 4 on more seeds or sooner, the two recipes differ at these settings; maze-dr-grpo's variant \"half KL and α\" then says whether GRPO's biases or the regularisers' weight against Dr. GRPO's smaller advantages made the difference. About 17 minutes a pair of runs on two CPU cores; minutes on a real GPU.",
    variants: ['Dr. GRPO'],
    seeds: 4,
    steps: 600,
    solved: { metric: 'level', target: 4 },
    metrics: ['level', 'eval/pass@1_greedy', 'reward', 'entropy'],
  },
};
