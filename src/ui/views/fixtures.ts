// Test fixtures: a RolloutView built from real task instances and chosen completions, the way
// the trainer builds one (template, completion facts, verifier), without an engine.

import type { RolloutView } from '../../worker/protocol';
import { buildTemplate, completionFacts, rolloutShape, verifyBatch } from '../../rl/rollout';
import { makeRng, type Rng } from '../../core/random';
import { getTask } from '../../tasks/registry';
import type { TaskInstance, TaskParams } from '../../tasks/types';

export interface FixtureOptions {
  task: string;
  params: TaskParams;
  B: number;
  G: number;
  seed?: number;
  /** Tokens of the completion region at the policy positions (fixed ones are overwritten by the template). */
  completion: (inst: TaskInstance, g: number, rng: Rng) => number[];
  /** Include per-token and response-level advantages (default true). */
  advantages?: boolean;
}

export function fixtureRollout(o: FixtureOptions): RolloutView {
  const task = getTask(o.task);
  const rng = makeRng(o.seed ?? 1, 9);
  const params = { ...o.params };
  const instances = Array.from({ length: o.B }, () => task.sample(rng, params));
  return buildRolloutView(instances, o.G, {
    step: 3,
    completion: (n) => o.completion(instances[Math.floor(n / o.G)], n % o.G, rng),
    tokenLogp: () => -rng.next() * 2,
    tokenEntropy: () => rng.next() * 1.5,
    advantages: o.advantages !== false,
  });
}

export interface ViewBuild {
  step: number;
  /** Completion tokens of sequence n (g-major within each prompt), called once per n in order. */
  completion: (n: number) => number[];
  /** log π_old and entropy of each sampled token, called in that order per token. */
  tokenLogp: () => number;
  tokenEntropy: () => number;
  /** Include per-token and response-level advantages. */
  advantages: boolean;
}

/** The RolloutView of these instances with G completions each, built the way the trainer builds one. */
export function buildRolloutView(instances: TaskInstance[], G: number, o: ViewBuild): RolloutView {
  const task = getTask(instances[0].task);
  const s = rolloutShape(instances, G);
  const fixed = buildTemplate(instances, s);
  const tokens = Int32Array.from(fixed, (t) => Math.max(t, 0));
  const logp = new Float32Array(s.N * s.T);
  const entropy = new Float32Array(s.N * s.T);
  for (let n = 0; n < s.N; n++) {
    const comp = o.completion(n);
    for (let c = 0; c < s.Lc; c++) {
      const at = n * s.T + s.Lp + c;
      if (fixed[at] >= 0) continue;
      tokens[at] = comp[c] ?? 0;
      logp[at] = o.tokenLogp();
      entropy[at] = o.tokenEntropy();
    }
  }
  const facts = completionFacts({ tokens, logp, entropy }, instances, s, false);
  const v = verifyBatch(task, instances, tokens, s);
  const view: RolloutView = {
    step: o.step,
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
  if (o.advantages) {
    // Group-centred rewards, broadcast over each completion's trained tokens.
    const seq = new Float64Array(s.N);
    for (let b = 0; b < s.B; b++) {
      let mean = 0;
      for (let g = 0; g < s.G; g++) mean += v.rewards[b * s.G + g] / s.G;
      for (let g = 0; g < s.G; g++) seq[b * s.G + g] = v.rewards[b * s.G + g] - mean;
    }
    const adv = new Float32Array(s.N * s.Lc);
    for (let j = 0; j < adv.length; j++) adv[j] = facts.mask[j] ? seq[Math.floor(j / s.Lc)] : 0;
    view.advantages = adv;
    view.seqAdvantages = seq;
  }
  return view;
}

/** The correct answer for even g, a random token of the vocabulary at each position for odd g. */
export function answerOrNoise(vocabSize: number) {
  return (inst: TaskInstance, g: number, rng: Rng): number[] =>
    g % 2 === 0 ? inst.answerTokens : Array.from({ length: inst.completionLength }, () => rng.int(vocabSize));
}
