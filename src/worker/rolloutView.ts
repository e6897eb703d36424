// The trainer's rollout snapshot as the plain data the page's inspector reads (RolloutView).

import type { RolloutSnapshot } from '../rl/trainer';
import type { Phase } from '../rl/step-metrics';
import type { RolloutView } from './protocol';

/**
 * A view of the snapshot after `phase` (undefined: after the whole step). The arrays are shared
 * with the snapshot: postMessage copies them, so the trainer may keep using its own.
 */
export function rolloutView(snapshot: RolloutSnapshot, step: number, phase?: Phase): RolloutView {
  const view: RolloutView = {
    step,
    shape: snapshot.shape,
    instances: snapshot.instances,
    vocab: snapshot.vocab,
    tokens: snapshot.tokens,
    mask: snapshot.facts.mask,
    entropy: snapshot.facts.entropy,
    logp: snapshot.facts.logp,
    rewards: snapshot.verified.rewards,
    correct: snapshot.verified.correct,
  };
  if (phase !== undefined) view.phase = phase;
  if (snapshot.advantages) {
    view.advantages = snapshot.advantages.adv;
    view.seqAdvantages = snapshot.advantages.seqAdv;
  }
  if (snapshot.ratio) view.ratio = snapshot.ratio;
  return view;
}
