// Test helper: a RolloutView from chosen instances and chosen completions, built the way the
// trainer builds one (template, completion facts, verifier), with fixed per-token numbers so
// that tests can predict them. (src/ui/views/fixtures.ts samples its instances; here the test
// picks them, e.g. a maze whose walls it knows.)

import type { RolloutView } from '../../worker/protocol';
import { buildTemplate, completionFacts, rolloutShape, verifyBatch } from '../../rl/rollout';
import { getTask } from '../../tasks/registry';
import type { TaskInstance } from '../../tasks/types';
import type { Phase } from '../../rl/metrics';

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
  const task = getTask(instances[0].task);
  const G = o.completions[0].length;
  const s = rolloutShape(instances, G);
  const fixed = buildTemplate(instances, s);
  const tokens = Int32Array.from(fixed, (t) => Math.max(t, 0));
  const logp = new Float32Array(s.N * s.T);
  const entropy = new Float32Array(s.N * s.T);
  for (let n = 0; n < s.N; n++) {
    const comp = o.completions[Math.floor(n / G)][n % G];
    for (let c = 0; c < s.Lc; c++) {
      const at = n * s.T + s.Lp + c;
      if (fixed[at] >= 0) continue;
      tokens[at] = comp[c] ?? 0;
      logp[at] = TEST_LOGP;
      entropy[at] = TEST_ENTROPY;
    }
  }
  const facts = completionFacts({ tokens, logp, entropy }, instances, s, false);
  const v = verifyBatch(task, instances, tokens, s);
  const view: RolloutView = {
    step: 7,
    shape: s,
    instances,
    vocab: task.vocab(instances[0].params),
    tokens,
    mask: facts.mask,
    entropy: facts.entropy,
    logp: facts.logp,
    rewards: v.rewards,
    correct: v.correct,
  };
  if (o.phase) view.phase = o.phase;
  if (o.advantages !== false) {
    const seq = new Float64Array(s.N);
    for (let b = 0; b < s.B; b++) {
      let mean = 0;
      for (let g = 0; g < G; g++) mean += v.rewards[b * G + g] / G;
      for (let g = 0; g < G; g++) seq[b * G + g] = v.rewards[b * G + g] - mean;
    }
    const adv = new Float32Array(s.N * s.Lc);
    for (let j = 0; j < adv.length; j++) adv[j] = facts.mask[j] ? seq[Math.floor(j / s.Lc)] : 0;
    view.advantages = adv;
    view.seqAdvantages = seq;
  }
  return view;
}
