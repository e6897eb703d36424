// The estimators layer (docs/add-an-estimator.md): the table and what every other layer derives
// from it. Derived here, not in table.ts, so that a table with one more row (a test's) changes
// every list below.

import { ESTIMATOR_TABLE } from './table';
import type { EstimatorRow } from './types';

export * from './types';
export { ESTIMATOR_TABLE } from './table';
export { GRPO_EPS, groupIsAllEqual, sampleStd, unbiasedPassAtK, allMissProbability } from './group-stats';

/** The built-in estimators' names, in the table's order. */
export type BuiltinEstimator = (typeof ESTIMATOR_TABLE)[number]['name'];
/** `custom`: the config's own code (customEstimator, docs/custom-estimators.md). */
export type Estimator = BuiltinEstimator | 'custom';

const ROWS: readonly EstimatorRow[] = ESTIMATOR_TABLE;

/** The values of the `estimator` knob: every row's name, then `custom`. */
export const ESTIMATORS: readonly Estimator[] = [...ROWS.map((r) => r.name as BuiltinEstimator), 'custom'];

/** Estimators that compare a completion with its group peers: they need groupSize ≥ 2. */
export const GROUP_ESTIMATORS: readonly Estimator[] = ROWS.filter((r) => r.peers).map(
  (r) => r.name as BuiltinEstimator,
);

/** The row of a built-in estimator; a RangeError naming the allowed values otherwise. */
export function estimatorRow(name: string): EstimatorRow {
  const row = ROWS.find((r) => r.name === name);
  if (!row) {
    const allowed = ROWS.map((r) => r.name).join(', ');
    throw new RangeError(`estimator must be one of ${allowed} (or custom), got "${name}"`);
  }
  return row;
}

/** Every row, typed as rows (the table itself keeps its literal names for the Estimator type). */
export function estimatorRows(): readonly EstimatorRow[] {
  return ROWS;
}
