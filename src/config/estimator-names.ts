// The estimators' names, apart from the knob table so that the custom code's examples
// (code-examples.ts; knobs.ts reads the templates from user-code.ts) can name the built-in they
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
