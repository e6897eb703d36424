// A label-free reward, OM-GRPO's consensus (docs/methods.md): within each group the majority
// answer is rewarded 1 and every other answer 0; no verifier is asked. An answer is a
// completion's tokens before its first EOS (all of them when it has none). Empty answers never
// win: a group whose commonest answer is empty, or whose answers are all empty, has no majority
// and rewards nothing. Ties go to the tied answer that appears first in the group, so the reward
// is a function of the group alone.

import { EOS } from '../tasks/types';
import { completionOf, type RolloutShape } from './rollout';

export interface ConsensusReward {
  /** [N] 1 for a completion that gives its group's majority answer, else 0. */
  rewards: Float64Array;
  /** [B] the share of the group that agrees with its majority answer (0 when there is none). */
  agreement: Float64Array;
  /** Mean of `agreement` over the groups: the run's consensus rate. */
  rate: number;
}

/** The answer of one completion: its tokens before the first EOS, as a key. */
export function answerKey(completion: readonly number[]): string {
  const eos = completion.indexOf(EOS);
  return (eos < 0 ? completion : completion.slice(0, eos)).join(',');
}

/** Consensus rewards from each completion's answer key, B groups of G in group order. */
export function consensusFromAnswers(answers: readonly string[], B: number, G: number): ConsensusReward {
  if (answers.length !== B * G)
    throw new RangeError(`consensusFromAnswers: ${answers.length} answers, expected B·G = ${B * G}`);
  const rewards = new Float64Array(B * G);
  const agreement = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    const counts = new Map<string, number>(); // insertion order = first appearance, for ties
    for (let g = 0; g < G; g++) {
      const a = answers[b * G + g];
      if (a !== '') counts.set(a, (counts.get(a) ?? 0) + 1);
    }
    let majority = '';
    let best = 0;
    for (const [a, n] of counts) {
      if (n > best) {
        majority = a;
        best = n;
      }
    }
    if (best === 0) continue;
    agreement[b] = best / G;
    for (let g = 0; g < G; g++) if (answers[b * G + g] === majority) rewards[b * G + g] = 1;
  }
  const rate = B ? agreement.reduce((s, x) => s + x, 0) / B : 0;
  return { rewards, agreement, rate };
}

/** Consensus rewards of a sampled batch (tokens [N,T] laid out by `shape`). */
export function consensusRewards(tokens: Int32Array, shape: RolloutShape): ConsensusReward {
  const answers: string[] = [];
  for (let n = 0; n < shape.N; n++) answers.push(answerKey(completionOf(tokens, n, shape)));
  return consensusFromAnswers(answers, shape.B, shape.G);
}
