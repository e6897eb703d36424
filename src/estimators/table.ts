// THE estimator table: one row per built-in advantage estimator, in the order the knob lists
// them (docs/add-an-estimator.md). The `estimator` knob's values and prose, the validation, the
// dispatch of the advantage pipeline, the group-size rule, the methods suite's cells and the
// custom-code examples are all derived from it (./index.ts); nothing else lists the estimators.

import { avspoEstimator } from './avspo';
import { grpoEstimator } from './grpo';
import { lampoEstimator } from './lampo';
import { mappEstimator, mappOwnPosteriors } from './mapp';
import { passKEstimator } from './passk';
import { reinforceEstimator } from './reinforce';
import { reinforceBaselineEstimator } from './reinforce-baseline';
import { rlooEstimator } from './rloo';
import { softmaxGrpoEstimator } from './softmax-grpo';
import type { EstimatorRow } from './types';

export const ESTIMATOR_TABLE = [
  {
    name: 'reinforce',
    kind: 'group',
    peers: false,
    title: 'REINFORCE',
    doc: 'A=r',
    paper: 'REINFORCE (Williams 1992)',
    params: [],
    advantages: reinforceEstimator,
  },
  {
    name: 'reinforce_baseline',
    kind: 'group',
    peers: false,
    title: 'REINFORCE with a baseline',
    doc: 'r − batch mean',
    paper: 'REINFORCE (Williams 1992)',
    params: [],
    advantages: reinforceBaselineEstimator,
  },
  {
    name: 'rloo',
    kind: 'group',
    peers: true,
    title: 'RLOO',
    doc: 'r − mean of the G−1 peers',
    paper: 'RLOO (Ahmadian et al. 2024)',
    params: [],
    advantages: rlooEstimator,
    suite: { source: 'RLOO (Ahmadian et al. 2024)' },
  },
  {
    name: 'grpo',
    kind: 'group',
    peers: true,
    title: 'GRPO',
    doc: 'group z-score',
    paper: 'GRPO (Shao et al. 2024)',
    params: ['grpoScale'],
    advantages: grpoEstimator,
    // The suite's baseline (src/ablation/methods-suite.ts), not one of its methods.
  },
  {
    name: 'softmax_grpo',
    kind: 'group',
    peers: true,
    title: 'SoftmaxGRPO',
    doc: 'G·softmax(r/τ) − 1',
    paper: 'SoftmaxGRPO',
    params: ['softmaxTau'],
    advantages: softmaxGrpoEstimator,
    suite: { source: 'SoftmaxGRPO (τ 0.5)' },
  },
  {
    name: 'mapp',
    kind: 'group',
    peers: true,
    title: 'MaPP',
    doc: 'Beta-Binomial marginalised GRPO over a finite prompt pool',
    paper: 'MaPP',
    params: [],
    advantages: mappEstimator,
    suite: { source: 'MaPP (the seed paper)' },
    example: {
      entry: mappOwnPosteriors.name,
      state: 'new Map()',
      stateDoc: 'prompt key -> [alpha, beta]: kept as long as the run (not saved in checkpoints)',
    },
  },
  {
    name: 'passk',
    kind: 'group',
    peers: true,
    title: 'pass@k',
    doc: 'the analytic pass@k advantage',
    paper: 'Pass@k training (Chen et al. 2025)',
    params: ['passK'],
    advantages: passKEstimator,
    // k = 2: below every task's G (the mazes' groups are 4, where k = 4 gives every advantage 0).
    suite: { set: { passK: '2' }, source: 'Pass@k training (Chen et al. 2025), k = 2' },
  },
  {
    name: 'avspo',
    kind: 'group',
    peers: true,
    title: 'AVSPO',
    doc: 'GRPO with virtual samples of the opposite outcome in all-equal groups',
    paper: 'AVSPO (the advantage-collapse-rate paper, docs/methods.md)',
    params: ['avspoVirtual'],
    advantages: avspoEstimator,
    suite: { source: 'AVSPO (the advantage-collapse-rate paper), V = 1' },
  },
  {
    name: 'lampo',
    kind: 'group',
    peers: true,
    title: 'LamPO',
    doc: "pairwise reward gaps weighted by the policy's confidence",
    paper: 'LamPO (docs/methods.md)',
    params: ['lampoTau'],
    advantages: lampoEstimator,
    suite: { source: 'LamPO, τ = 1' },
  },
] as const satisfies readonly EstimatorRow[];
