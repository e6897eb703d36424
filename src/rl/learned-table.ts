// The policy's learned multiplication table (groupmul, interleaved layout).
//
// In the interleaved layout the right y_t depends only on y_{t−1} and x_t (docs/tasks.md), so
// the policy's choice of y_2 after [BOS, x1 = a, y1 = a, x2 = x] is its learned product a·x:
// y1 = a is the correct running product after one element. All n² pairs go to the engine in
// ONE greedy (topK = 1) sample call; the returned logp is under the full tempered softmax, so
// exp(logp) is the probability of the argmax token (docs/engine.md, sample_token).

import type { PolicyEngine } from './engine';
import { getGroup } from '../tasks/groups';
import { BOS, NUM_SPECIAL } from '../tasks/types';

/** The policy's most likely y_t for each (y_{t−1}, x_t) pair: a learned Cayley table. */
export interface LearnedTable {
  /** element names, index = element id */
  elements: string[];
  /** [n][n] argmax element id for (previous running product a, next input x) */
  argmax: number[][];
  /** [n][n] its probability under the policy */
  prob: number[][];
  /** [n][n] the true product a·x (right action, as the task defines it) */
  truth: number[][];
}

/** Sequence length of one probe: BOS a a x ?. */
export const PROBE_T = 5;

export interface LearnedTableOptions {
  /** Seed of the sampling key (irrelevant to a greedy draw, but part of the engine contract). */
  seed: number;
  /** Inverse temperature of the policy whose probabilities are reported (default 1). */
  invTemp?: number;
}

/** Template [n², 5]: row a·n + x is [BOS, a, a, x, −1] (element i is token NUM_SPECIAL + i). */
export function probeTemplate(n: number): Int32Array {
  const fixed = new Int32Array(n * n * PROBE_T);
  for (let a = 0; a < n; a++) {
    for (let x = 0; x < n; x++) {
      const row = (a * n + x) * PROBE_T;
      fixed[row] = BOS;
      fixed[row + 1] = NUM_SPECIAL + a;
      fixed[row + 2] = NUM_SPECIAL + a;
      fixed[row + 3] = NUM_SPECIAL + x;
      fixed[row + 4] = -1;
    }
  }
  return fixed;
}

export async function learnedTable(engine: PolicyEngine, group: string, opts: LearnedTableOptions): Promise<LearnedTable> {
  const g = getGroup(group);
  const n = g.order;
  const { vocabSize: V, nPositions } = engine.layout.config;
  if (V < NUM_SPECIAL + n) {
    throw new RangeError(`learnedTable: group ${group} needs a vocabulary of ${NUM_SPECIAL + n} tokens, the model has ${V}`);
  }
  if (nPositions < PROBE_T) {
    throw new RangeError(`learnedTable: needs model.nPositions ≥ ${PROBE_T}, the model has ${nPositions}`);
  }
  const N = n * n;
  const result = await engine.sample(probeTemplate(n), N, PROBE_T, {
    seed: opts.seed >>> 0, step: 0, invTemp: opts.invTemp ?? 1, topK: 1,
  });
  const argmax: number[][] = [];
  const prob: number[][] = [];
  for (let a = 0; a < n; a++) {
    const am: number[] = [];
    const pr: number[] = [];
    for (let x = 0; x < n; x++) {
      const at = (a * n + x) * PROBE_T + PROBE_T - 1;
      const token = result.tokens[at];
      const element = token - NUM_SPECIAL;
      am.push(element >= 0 && element < n ? element : -1);
      pr.push(Math.exp(result.logp[at]));
    }
    argmax.push(am);
    prob.push(pr);
  }
  return {
    elements: [...g.elementNames],
    argmax,
    prob,
    truth: g.table.map((row) => [...row]),
  };
}
