// Chance: what a policy that guesses gets. Each position the policy writes gets a token drawn
// uniformly from the task's own tokens (elements, letters, moves; the end token too where the
// policy chooses where to stop), the environment's positions are kept, and the task's verifier
// scores the result. The charts draw it as the line a run must rise above.

import { makeRng } from '../core/random';
import { EOS, NUM_SPECIAL, type Task, type TaskParams } from './types';

export interface Chance {
  /** Expected reward of a uniform guess. */
  reward: number;
  /** Probability that a uniform guess is fully right. */
  pass: number;
}

/** Monte Carlo estimate over `samples` instances, one guess each (deterministic for a seed). */
export function chanceOf(task: Task, params: TaskParams, samples = 2000, seed = 7): Chance {
  const rng = makeRng(seed, 0x6368);
  const vocabSize = task.vocab(params).length;
  let reward = 0;
  let pass = 0;
  for (let i = 0; i < samples; i++) {
    const inst = task.sample(rng, params);
    // The end token is a choice only where the answer's end is not written by the environment.
    const eosAt = inst.answerTokens.indexOf(EOS);
    const policyEnds = eosAt >= 0 && (inst.fixed[eosAt] === null || inst.fixed[eosAt] === undefined);
    const choices = vocabSize - NUM_SPECIAL + (policyEnds ? 1 : 0);
    const completion: number[] = [];
    for (let c = 0; c < inst.completionLength; c++) {
      const f = inst.fixed[c];
      if (f !== null && f !== undefined) completion.push(f);
      else {
        const k = rng.int(choices);
        completion.push(k === vocabSize - NUM_SPECIAL ? EOS : NUM_SPECIAL + k);
      }
    }
    const v = task.verify(inst, completion);
    reward += v.reward;
    if (v.correct) pass++;
  }
  return { reward: reward / samples, pass: pass / samples };
}
