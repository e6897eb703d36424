// The lesson cot-discovery: its entry of the lesson table (table/index.ts puts the lessons in order).

import { chainAblationVerdict, COT_INTERLEAVED } from '../recipes';
import type { Preset } from '../types';

export const cotDiscovery: Preset = {
  name: 'cot-discovery',
  title: 'A chain of thought discovered from a last-token reward',
  summary:
    'Rewarded only for the last product of a chain of S3 elements, a transformer trained from scratch learns to write every running product: a chain of thought nobody rewarded.',
  set: { ...COT_INTERLEAVED, steps: 1000 },
  explanation:
    "A 2-layer, width-32 transformer (about 27,000 weights) multiplies chains of elements of S3, the 6 symmetries of a triangle. The environment writes x_t and the model writes y_t after it; only the last y is checked against the product of the chain. A length curriculum starts at 1 (copy the element) and moves up when the held-out pass rate reaches 0.9, so every y_t is the rewarded last token at some level. Recipe: groups of 16; an entropy-style regulator toward the uniform distribution (entropyMode uniform, α 0.05) that keeps pulling back answers collapsed onto a wrong element; a KL anchor (k3, β 0.5) to the policy that solved the previous length, re-taken at each advance and free on the new positions; weights initialised at 5× GPT-2's scale (model.initStd 0.1), without which the first product — an interaction no single input predicts — stayed on a plateau. From the seed paper: a transformer from scratch, last-token reward only, learns an algorithmic chain of thought for iterated non-Abelian group multiplication.",
  guide: [
    {
      text: 'The task: multiply a chain of triangle symmetries (e, r, r², s, sr, sr²). Only the last answer is checked.',
      show: 'group',
    },
    {
      text: 'Press ▶. Length 1 (copy the element) is learned in a few steps; at length 2 a guess is right 1 time in 6 (the chance line).',
      show: 'chart-reward',
    },
    {
      text: 'When the held-out pass rate reaches 0.9 the chain gets one element longer: the curriculum level steps up, and the reward dips and recovers.',
      show: 'chart-level',
      needs: 'step',
    },
    {
      text: 'CoT alignment is the share of intermediate answers that equal the running product: it rises although only the last token is rewarded.',
      show: 'chart-task',
      needs: 'step',
    },
    {
      text: 'Open a group: the ✓ marks under the intermediate answers are the running products. The model invented the chain because it is the only way to get the last token right.',
      show: 'group',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the trained model (length 3, or solved at length 6) and look at its multiplication table.',
      show: 'jump',
    },
  ],
  expect:
    'Measured before the train/held-out split (headless, 4 seeds): length 3 by step 250–300, length 4 by 350–450, length 6 by 500–650, solved (held-out pass@1 ≥ 0.99 on 512 fresh chains) by step 550–800. The recorded runs drawn under yours (CPU engine, seeds 0–1, trained on the train part of the split): length 3 at steps 241 / 251, length 6 at 591 / 571; on 512 held-out length-6 chains, never drawn in training, greedy pass@1 1.00 / 1.00 at step 800 and at step 900; seeds 2 and 3, trained the same way but not recorded, 1.00 / 1.00 at step 800 (length 6 at steps 581 / 531). In the page on a software GPU (≈ 1.4 steps/s): length 3 after ≈ 3 min, length 4 after ≈ 6 min.',
  charts: ['reward', 'level', 'task', 'entropy'],
  variants: [
    { label: 'no KL anchor', set: { klBeta: 0, refSync: 'none' } },
    { label: 'no entropy bonus', set: { entropyAlpha: 0 } },
    { label: 'exact entropy bonus', set: { entropyMode: 'exact', entropyAlpha: 0.1 } },
  ],
  checkpoints: [
    {
      label: 'at length 3',
      file: 'checkpoints/cot-discovery-length3.safetensors',
      note: 'seed 0 at step 240 of the recorded run, when its curriculum reached length 3',
    },
    {
      label: 'solved (length 6)',
      file: 'checkpoints/cot-discovery-solved.safetensors',
      note: 'seed 0 at step 800 of the recorded run (length 6 since step 591), trained on the train part of the split: greedy pass@1 1.000 on 512 held-out length-6 chains, every intermediate answer the running product (CoT alignment 1.000)',
    },
  ],
  ablation: {
    question:
      'Which entropy regulator gets the flagship through: the uniform one (α 0.05, pulling toward the uniform distribution) or the exact entropy bonus (α 0.1)?',
    literature:
      'The seed paper (the spin-glass landscape paper, docs/methods.md) argues that the choice of entropy regulator decides whether RLVR crosses the landscape\'s barriers. On this engine (README, "Learning results") the exact bonus let a seed freeze at length 2 with rows collapsed onto wrong products (its gradient −p(log p + H) vanishes on a one-hot row), while the uniform regulator solved 4/4 seeds in 550–800 steps; those runs were made one recipe at a time. This ablation runs both on the same seeds, and its answer is whatever these runs show.',
    reading:
      'If the uniform regulator solves more seeds, or sooner, at p < 0.05, the collapse explanation holds here; "not different at this many seeds" means 4 seeds cannot tell, not that the regulators are equal. The final curriculum level shows how far the unsolved runs got.',
    variants: ['exact entropy bonus'],
    seeds: 4,
    steps: 1500,
    ...chainAblationVerdict('eval/task/cot_alignment_prefix'),
  },
};
