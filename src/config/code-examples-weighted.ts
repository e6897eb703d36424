// The custom-code examples that are a built-in estimator with a group weight on its output (a
// knob that applies to any estimator, step 2 of the advantage pipeline): generated from their
// source like the built-ins' (code-examples-gen.ts, into code-examples.generated.json by id).

import type { BuiltinEstimator } from '../estimators';
import { gcsWeighting } from '../estimators/gcs';

export interface WeightedExample {
  readonly id: string;
  readonly title: string;
  /** The built-in whose advantages are weighted, its knobs at their defaults. */
  readonly estimator: BuiltinEstimator;
  /** The weight: a function of src/estimators/ called as weight(seqAdv, correct, B, G, value). */
  readonly weight: (
    seqAdv: Float64Array,
    correct: ArrayLike<number>,
    B: number,
    G: number,
    value: number,
  ) => Float64Array;
  /** The weight's knob and its value in the example. */
  readonly knob: string;
  readonly value: number;
}

export const WEIGHTED_EXAMPLES: readonly WeightedExample[] = [
  {
    id: 'gcs',
    title: "GRPO with GCS's Gaussian group weight",
    estimator: 'grpo',
    weight: gcsWeighting,
    knob: 'gcsSigma',
    value: 0.25,
  },
];
