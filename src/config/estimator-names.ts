// The estimators' names, apart from the knob table so that the custom code's examples
// (custom-code.ts, which knobs.ts reads its templates from) can name the built-in they
// reproduce without a circle through knobs.ts.

/** `custom`: the config's own code (customEstimator, docs/custom-estimators.md). */
export const ESTIMATORS = [
  'reinforce',
  'reinforce_baseline',
  'rloo',
  'grpo',
  'softmax_grpo',
  'mapp',
  'passk',
  'avspo',
  'lampo',
  'custom',
] as const;
export type Estimator = (typeof ESTIMATORS)[number];
