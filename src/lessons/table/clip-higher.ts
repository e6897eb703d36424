// The lesson clip-higher: its entry of the lesson table (table/index.ts puts the lessons in order).

import { passAblationVerdict, S3_SHORT } from '../recipes';
import type { Preset } from '../types';

export const clipHigher: Preset = {
  name: 'clip-higher',
  title: 'DAPO clip-higher',
  summary:
    'When samples are reused the update is clipped; raising only the upper clip bound lets unlikely good tokens grow faster.',
  set: { ...S3_SHORT, epochs: 2, minibatches: 4, epsHigh: 0.28, lr: 3e-3, steps: 300 },
  explanation:
    'Samples are reused (2 epochs × 4 minibatches), so the ratio ρ = π/π_old leaves 1 and clipping acts. With symmetric clipping (0.2) a token that was unlikely but good can only grow by 20% per batch, while likely tokens keep sharpening and the entropy falls. DAPO\'s clip-higher raises the upper bound to 0.28. Compare the share of clipped tokens and the entropy with the "symmetric clip" variant.',
  guide: [
    {
      text: 'With one epoch and one minibatch the ratio π/π_old is exactly 1 and nothing is clipped; here every batch is used 8 times.',
    },
    { text: 'Press ▶, then run the "symmetric clip" variant with the same seed.', show: 'variants' },
    {
      text: 'Fewer tokens are clipped above with ε_high = 0.28: fewer good updates are cut.',
      show: 'chart-clip',
      needs: 'step',
    },
    {
      text: 'DAPO reports that the entropy declines more slowly with clip-higher: compare the entropy curves.',
      show: 'chart-entropy',
      needs: 'step',
    },
    {
      text: 'No time to wait? Load the recorded run at step 150 (entropy still above 1 nat): the charts show it up to there, and ▶ continues it.',
      show: 'jump',
    },
  ],
  expect:
    'Measured (seed 0, 300 steps each): with ε_high 0.28 the entropy is 1.01 / 1.05 / 0.93 nats at steps 100 / 200 / 300 (the recorded run, made again later with the checkpoints: 0.73 / 1.04 / 0.76), with the symmetric clip 0.52 / 0.30 / 0.02, where every group ends without spread (61% with clip-higher). The clip itself binds rarely here (0.3% and 0.2% of tokens above, 1.1% and 0.5% below), and neither run learns the task in 300 steps (held-out pass@1 0.08–0.20; chance 0.17).',
  charts: ['reward', 'entropy', 'clip'],
  checkpoints: [
    {
      label: 'step 150',
      file: 'checkpoints/clip-higher-step150.safetensors',
      note: 'seed 0 at step 150 of the recorded run: entropy 1.05–1.22 nats, 44% of groups without spread, held-out pass@1 0.19',
    },
  ],
  variants: [{ label: 'symmetric clip', set: { epsHigh: 0.2 } }],
  ablation: {
    question:
      'Does raising only the upper clip bound (ε_high 0.28 against a symmetric 0.2) keep the entropy up and learn faster?',
    literature:
      "DAPO (Yu et al. 2025) reports that clip-higher keeps the policy's entropy from collapsing and improves accuracy, on a 32B model reasoning about mathematics. Whether that carries over to a tiny model on S3 chains is what this ablation measures; its answer is whatever these runs show.",
    reading:
      'Look first at the mechanism: fewer tokens clipped above and a higher entropy with clip-higher. A difference in steps to solve or final held-out pass@1 is claimed only at p < 0.05 over seeds.',
    variants: ['symmetric clip'],
    seeds: 4,
    steps: 600,
    ...passAblationVerdict('entropy', 'clip_ratio/high_mean', 'reward'),
  },
};
