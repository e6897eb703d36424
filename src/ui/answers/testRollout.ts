// Test helper: a RolloutView from chosen instances and chosen completions, built the way the
// trainer builds one (template, completion facts, verifier), with fixed per-token numbers so
// that tests can predict them. (src/ui/views/fixtures.ts samples its instances; here the test
// picks them, e.g. a maze whose walls it knows; both build the view with its buildRolloutView.)

import type { RolloutView } from '../../worker/protocol';
import { buildRolloutView } from '../views/fixtures';
import type { TaskInstance } from '../../tasks/types';
import type { Phase } from '../../rl/step-metrics';

export interface TestRolloutOptions {
  /** Completion tokens per answer, g-major within each prompt: completions[b][g]. Fixed positions are overwritten by the template. */
  completions: number[][][];
  /** Include GRPO-style advantages (reward minus group mean; default true). */
  advantages?: boolean;
  phase?: Phase;
}

/** log π_old of every sampled token (probability e^−0.5 ≈ 0.61). */
export const TEST_LOGP = -0.5;
/** Entropy of every sampled token. */
export const TEST_ENTROPY = 0.25;

export function testRollout(instances: TaskInstance[], o: TestRolloutOptions): RolloutView {
  const G = o.completions[0].length;
  const view = buildRolloutView(instances, G, {
    step: 7,
    completion: (n) => o.completions[Math.floor(n / G)][n % G],
    tokenLogp: () => TEST_LOGP,
    tokenEntropy: () => TEST_ENTROPY,
    advantages: o.advantages !== false,
  });
  if (o.phase) view.phase = o.phase;
  return view;
}
