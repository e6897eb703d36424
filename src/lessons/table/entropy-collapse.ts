// The lesson entropy-collapse: its entry of the lesson table (table/index.ts puts the lessons in order).

import { S3_SHORT } from '../recipes';
import type { Preset } from '../types';

export const entropyCollapse: Preset = {
  name: 'entropy-collapse',
  title: 'Entropy collapse, and an adaptive entropy bonus',
  summary:
    'Without an entropy regulator the policy can become certain before it is right, and then every group is all-equal and learning stops.',
  set: { ...S3_SHORT, lr: 1e-2, entropyAlpha: 0, entropyTarget: 0, steps: 300 },
  explanation:
    'Plain GRPO with no entropy regulariser and an aggressive learning rate (1e-2) on a short S3 chain (length 4, interleaved). The failure to look for: the entropy falls toward 0 before the pass rate reaches 1, groups with no spread rise toward 1 (every group all right or all wrong, so no gradient) and the pass rate freezes. The "adaptive entropy" variant starts at α = 0.05 and moves α by 0.005 per step to hold the mean entropy at 0.5 nats. The spin-glass paper argues the choice of entropy regulator is what gets RLVR across the landscape\'s barriers.',
  guide: [
    {
      text: 'Press ▶ and watch the entropy: without a regulator it falls fast.',
      show: 'chart-entropy',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run at step 100 (collapsing) or 200 (collapsed): the charts show that run up to there, and ▶ continues it.',
      show: 'jump',
    },
    {
      text: 'A certain policy gives identical answers: groups with no spread rise and carry no signal.',
      show: 'chart-groups',
      needs: 'step',
    },
    {
      text: 'Run the "adaptive entropy" variant (same seed): α rises when the entropy falls below its target.',
      show: 'variants',
    },
    { text: 'Compare the two reward curves at equal steps.', show: 'chart-reward', needs: 'step' },
  ],
  expect:
    'Measured (seed 0, 300 steps): without a regulator the entropy falls from 2.24 to 0.01 nats and 99% of the groups have no spread by the end, while held-out pass@1 stays at 0.20 (chance: 0.17). The adaptive variant keeps the entropy at 1.6 nats and only 38% of the groups without spread, but in 300 steps its held-out pass@1 is no better (0.12–0.20).',
  charts: ['reward', 'entropy', 'groups', 'alpha'],
  checkpoints: [
    {
      label: 'step 100, collapsing',
      file: 'checkpoints/entropy-collapse-step100.safetensors',
      note: 'seed 0 at step 100 of the recorded run: entropy 0.92 nats and falling, 53% of groups without spread, held-out pass@1 0.20',
    },
    {
      label: 'collapsed',
      file: 'checkpoints/entropy-collapse-collapsed.safetensors',
      note: 'seed 0 at step 200 of the recorded run: entropy 0.04 nats, 99% of groups without spread, held-out pass@1 0.20 (chance 0.17)',
    },
  ],
  variants: [
    { label: 'adaptive entropy', set: { entropyAlpha: 0.05, entropyTarget: 0.5, entropyAlphaStep: 0.005 } },
    {
      label: 'sampled regulator',
      set: { entropyAlpha: 0.05, entropyTarget: 0.5, entropyAlphaStep: 0.005, entropyMode: 'sampled' },
    },
  ],
};
