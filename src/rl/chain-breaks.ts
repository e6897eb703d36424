// Where a greedy chain of thought first goes wrong, on an engine; the report itself is the groupmul
// task's (src/tasks/groupmul/breaks.ts). One greedy decode, then the probability of the right
// running product at every y under those prefixes.

import type { PolicyEngine } from './engine';
import { buildTemplate, rolloutShape } from './rollout';
import {
  chainBreakReport,
  getGroup,
  policyPositions,
  prefixProducts,
  targetPrefixLength,
  type ChainBreakReport,
  type GroupMulInstance,
} from '../tasks/groupmul';
import { NUM_SPECIAL } from '../tasks/types';

/**
 * Decodes the prompts greedily on the engine (one sample call), scores the right running product
 * at every y under those prefixes (one logProbs call), and reports where the chains break.
 * Probabilities are at the engine's temperature (the run's sampling temperature: 1 in every groupmul preset).
 */
export async function greedyChainBreaks(
  engine: PolicyEngine,
  instances: readonly GroupMulInstance[],
  seed: number,
): Promise<ChainBreakReport> {
  const shape = rolloutShape(instances, 1);
  const greedy = await engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
    seed: seed >>> 0,
    step: 0,
    invTemp: 1,
    topK: 1,
  });
  const g = getGroup(instances[0].params.group);
  const positions = policyPositions(instances[0].params);
  const s = positions.length;
  const k = instances[0].params.length;
  // Row Lp + c − 1 predicts completion position c: its target is the right product of that y.
  const targets = new Int32Array(shape.N * shape.T).fill(-1);
  instances.forEach((inst, n) => {
    const prefix = prefixProducts(g.table, inst.chain);
    positions.forEach((c, j) => {
      targets[n * shape.T + shape.Lp + c - 1] = NUM_SPECIAL + prefix[targetPrefixLength(j, k, s) - 1];
    });
  });
  const rightLogp = await engine.logProbs(greedy.tokens, targets, shape.N, shape.T);
  return chainBreakReport(instances, greedy.tokens, greedy.logp, rightLogp, shape);
}
