// Views of one step's rollouts and of what the policy learned (mounted by the App).
//
// RolloutInspector — every group's completions, tokens coloured by advantage / entropy / ratio.
// CayleyTableView, LearnedTableView — the true Cayley table and the policy's learned one.

export { RolloutInspector, type RolloutInspectorProps } from './RolloutInspector';
export {
  CayleyTableView,
  LearnedTableView,
  type CayleyTableViewProps,
  type LearnedTableViewProps,
} from './CayleyTable';
export { inspectorData, type ColourBy, type InspectorRollout } from './inspector-data';
export * as colour from './colour';
