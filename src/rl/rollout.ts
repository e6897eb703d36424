// From task instances to the engine's arrays and back.
//
// A sequence is the prompt (Lp tokens, BOS first) followed by the completion region (Lc
// positions), T = Lp + Lc. The template fixes the prompt and every completion position the
// environment writes; the policy samples the rest. Group g of prompt b is sequence n = b·G + g.
//
// Two index spaces:
// - completion space [N, Lc]: what the estimators and metrics see (position c of the region);
// - row space [N, T]: what the loss sees; row r predicts token r+1, so completion position c
//   is trained through row Lp + c − 1.

import type { ProbeShape, Task, TaskInstance } from '../tasks/types';
import { EOS } from '../tasks/types';
import type { MinibatchData } from './engine';
import { nextTokenTargets, type SampleResult } from '../core/abi';

/** B prompts × G answers = N sequences of T = Lp + Lc tokens (Lc: the completion region, EOS position included); a task's probe lays a batch out the same way. */
export type RolloutShape = ProbeShape;

export function rolloutShape(instances: readonly TaskInstance[], G: number): RolloutShape {
  const B = instances.length;
  if (B === 0) throw new RangeError('rollout needs at least one prompt');
  const Lp = instances[0].promptTokens.length;
  const Lc = instances[0].completionLength;
  for (const inst of instances) {
    if (inst.promptTokens.length !== Lp || inst.completionLength !== Lc) {
      throw new RangeError(
        `every prompt of a batch must have the same shape; got ${inst.promptTokens.length}+${inst.completionLength}, expected ${Lp}+${Lc}`,
      );
    }
  }
  return { B, G, N: B * G, Lp, Lc, T: Lp + Lc };
}

/** Template [N,T]: prompt and env-written tokens, −1 where the policy samples. */
export function buildTemplate(instances: readonly TaskInstance[], s: RolloutShape): Int32Array {
  const fixed = new Int32Array(s.N * s.T).fill(-1);
  instances.forEach((inst, b) => {
    for (let g = 0; g < s.G; g++) {
      const row = (b * s.G + g) * s.T;
      inst.promptTokens.forEach((t, i) => (fixed[row + i] = t));
      inst.fixed.forEach((t, c) => {
        if (t !== null) fixed[row + s.Lp + c] = t;
      });
    }
  });
  return fixed;
}

/** The completion region of sequence n (what the verifier reads). */
export function completionOf(tokens: Int32Array, n: number, s: RolloutShape): number[] {
  const start = n * s.T + s.Lp;
  return Array.from(tokens.subarray(start, start + s.Lc));
}

/** Group b of a sampled batch (its G rows of `sample`, laid out by `shape`). */
export interface SampledGroup {
  inst: TaskInstance;
  sample: SampleResult;
  shape: RolloutShape;
  b: number;
}

/** Groups from one or more sampled batches (dynamic sampling keeps groups of several tries), gathered into one batch. */
export function gatherGroups(
  groups: readonly SampledGroup[],
  G: number,
): { instances: TaskInstance[]; shape: RolloutShape; sample: SampleResult } {
  const instances = groups.map((k) => k.inst);
  const shape = rolloutShape(instances, G);
  const tokens = new Int32Array(shape.N * shape.T);
  const logp = new Float32Array(shape.N * shape.T);
  const entropy = new Float32Array(shape.N * shape.T);
  groups.forEach((k, b) => {
    const from = k.b * G * shape.T,
      len = G * shape.T,
      to = b * G * shape.T;
    tokens.set(k.sample.tokens.subarray(from, from + len), to);
    logp.set(k.sample.logp.subarray(from, from + len), to);
    entropy.set(k.sample.entropy.subarray(from, from + len), to);
  });
  return { instances, shape, sample: { tokens, logp, entropy } };
}

/** Per-sequence facts of the completion space. */
export interface CompletionFacts {
  /** [N·Lc] 1 where the policy sampled the token and it counts (up to and including the first EOS). */
  mask: Float32Array;
  /** [N·Lc] entropy of the distribution that produced each policy token (0 elsewhere). */
  entropy: Float32Array;
  /** [N·Lc] log π_old of each policy token (0 elsewhere). */
  logp: Float32Array;
  /** [N] completion length: up to and including the first EOS, or Lc if none. */
  lengths: Int32Array;
  /** [N] 1 when the region holds no EOS (the completion was cut off). */
  truncated: Uint8Array;
}

/**
 * Masks and per-token facts in completion space. With `maskTruncated` a completion with no EOS
 * gets no gradient at all (DAPO's overlong filtering).
 */
export function completionFacts(
  sample: SampleResult,
  instances: readonly TaskInstance[],
  s: RolloutShape,
  maskTruncated: boolean,
): CompletionFacts {
  const { N, Lc, Lp, T, G } = s;
  const mask = new Float32Array(N * Lc);
  const entropy = new Float32Array(N * Lc);
  const logp = new Float32Array(N * Lc);
  const lengths = new Int32Array(N);
  const truncated = new Uint8Array(N);
  for (let n = 0; n < N; n++) {
    const inst = instances[Math.floor(n / G)];
    let eos = -1;
    for (let c = 0; c < Lc; c++) {
      if (sample.tokens[n * T + Lp + c] === EOS) {
        eos = c;
        break;
      }
    }
    truncated[n] = eos < 0 ? 1 : 0;
    lengths[n] = eos < 0 ? Lc : eos + 1;
    if (truncated[n] && maskTruncated) continue;
    for (let c = 0; c < lengths[n]; c++) {
      if (inst.fixed[c] !== null && inst.fixed[c] !== undefined) continue;
      const j = n * Lc + c;
      mask[j] = 1;
      entropy[j] = sample.entropy[n * T + Lp + c];
      logp[j] = sample.logp[n * T + Lp + c];
    }
  }
  return { mask, entropy, logp, lengths, truncated };
}

export interface VerifiedBatch {
  rewards: Float64Array; // [N]
  correct: Uint8Array; // [N]
  signatures: string[]; // [N]
  errorSignatures: string[]; // [N]
  /** [B] the task's group metrics (absent keys: not meaningful for that group). */
  groupMetrics: Record<string, number>[];
}

/** Runs the task's verifier on every completion. Verifiers are total; this never throws. */
export function verifyBatch(
  task: Task,
  instances: readonly TaskInstance[],
  tokens: Int32Array,
  s: RolloutShape,
): VerifiedBatch {
  const { N, G, B } = s;
  const rewards = new Float64Array(N);
  const correct = new Uint8Array(N);
  const signatures: string[] = [];
  const errorSignatures: string[] = [];
  const groupMetrics: Record<string, number>[] = [];
  for (let b = 0; b < B; b++) {
    const inst = instances[b];
    const comps: number[][] = [];
    for (let g = 0; g < G; g++) {
      const n = b * G + g;
      const comp = completionOf(tokens, n, s);
      comps.push(comp);
      const v = task.verify(inst, comp);
      rewards[n] = v.reward;
      correct[n] = v.correct ? 1 : 0;
      signatures.push(task.signature(inst, comp));
      errorSignatures.push(task.errorSignature(inst, comp));
    }
    groupMetrics.push(task.groupMetrics ? task.groupMetrics(inst, comps) : {});
  }
  return { rewards, correct, signatures, errorSignatures, groupMetrics };
}

/**
 * Row-space training arrays for all N sequences, from completion-space advantages and masks.
 * `klLimit`: completion positions c < klLimit get the KL term (the curriculum anchor leaves
 * the positions a difficulty step added free); pass Lc for all.
 */
export function rowArrays(
  tokens: Int32Array,
  s: RolloutShape,
  adv: Float32Array, // [N·Lc]
  tokenMask: Float32Array, // [N·Lc]
  logp: Float32Array, // [N·Lc]
  klLimit: number,
): MinibatchData {
  const { N, T, Lp, Lc } = s;
  const R = N * T;
  const out: MinibatchData = {
    tokens: tokens.slice(0, R),
    targets: nextTokenTargets(tokens, N, T),
    oldLogp: new Float32Array(R),
    adv: new Float32Array(R),
    mask: new Float32Array(R),
    klMask: new Float32Array(R),
  };
  for (let n = 0; n < N; n++) {
    for (let c = 0; c < Lc; c++) {
      const j = n * Lc + c;
      if (tokenMask[j] === 0) continue;
      const r = n * T + Lp + c - 1;
      out.mask[r] = 1;
      out.adv[r] = adv[j];
      out.oldLogp[r] = logp[j];
      if (c < klLimit) out.klMask[r] = 1;
    }
  }
  return out;
}

/** Rows of sequences `order[from..to)` gathered into a minibatch (contiguous copy). */
export function sliceMinibatch(
  all: MinibatchData,
  T: number,
  order: readonly number[],
  from: number,
  to: number,
): MinibatchData {
  const n = to - from;
  const pick = <A extends Int32Array | Float32Array>(src: A): A => {
    const dst = new (src.constructor as new (len: number) => A)(n * T);
    for (let i = 0; i < n; i++) dst.set(src.subarray(order[from + i] * T, (order[from + i] + 1) * T), i * T);
    return dst;
  };
  return {
    tokens: pick(all.tokens),
    targets: pick(all.targets),
    oldLogp: pick(all.oldLogp),
    adv: pick(all.adv),
    mask: pick(all.mask),
    klMask: pick(all.klMask),
  };
}

/** Supervised rows for SFT warm start: prompt + the instance's correct completion. */
export function sftArrays(instances: readonly TaskInstance[], s: RolloutShape): MinibatchData {
  const { B, T, Lp, Lc } = s;
  const tokens = new Int32Array(B * T);
  instances.forEach((inst, b) => {
    tokens.set(inst.promptTokens, b * T);
    tokens.set(inst.answerTokens.slice(0, Lc), b * T + Lp);
  });
  const R = B * T;
  const data: MinibatchData = {
    tokens,
    targets: nextTokenTargets(tokens, B, T),
    oldLogp: new Float32Array(R),
    adv: new Float32Array(R),
    mask: new Float32Array(R),
    klMask: new Float32Array(R),
  };
  instances.forEach((inst, b) => {
    // Train the policy positions of the answer (env-written tokens are given, not predicted).
    for (let c = 0; c < Lc; c++)
      if (inst.fixed[c] === null || inst.fixed[c] === undefined) data.mask[b * T + Lp + c - 1] = 1;
  });
  return data;
}
