// What custom code sees (docs/custom-estimators.md, "The interface"): the same information the
// built-in estimators get, as one frozen `batch` object per call. The types below are the
// documentation of that object; the builders turn the trainer's arrays into a SandboxInput.
//
// Layout everywhere: B prompts × G completions, completion i = b*G + g, N = B*G; T completion
// positions, token (i, t) at i*T + t.

import type { RolloutBatch } from '../estimators';
import type { SandboxInput } from './sandbox';

/** What both kinds of code get. */
interface BatchBase {
  readonly B: number;
  readonly G: number;
  readonly N: number;
  readonly T: number;
  /** The RL step this batch trains (1, 2, …). */
  readonly step: number;
  /** [N] 1 when the verifier says correct. */
  readonly correct: Uint8Array;
  /** [N] completion length (policy + env tokens up to and including EOS). */
  readonly lengths: Int32Array;
  /** [N] the task's strategy signature of each completion. */
  readonly signatures: readonly string[];
  /** [N] the task's error signature ("correct" when correct). */
  readonly errorSignatures: readonly string[];
  /** [B] a stable id of each prompt (the same prompt has the same key at every step). */
  readonly promptKeys: readonly string[];
}

/** advantages(batch) gets this, and returns N numbers (one per completion) or N*T (one per token). */
export interface EstimatorBatch extends BatchBase {
  /** [N] the rewards: the verifier's, after your reward shaping and overlongBuffer's penalty when on. */
  readonly rewards: Float64Array;
  /** [N*T] 1 where the policy sampled the token and it is trained (0 for env-written and after EOS). */
  readonly mask: Float32Array;
  /** [N*T] entropy of the full next-token distribution at that position (0 where mask = 0). */
  readonly entropy: Float32Array;
  /** [N*T] log-probability of the sampled token under the sampling policy (0 where mask = 0). */
  readonly logp: Float32Array;
}

/** rewards(batch) gets this, and returns N numbers: the rewards the estimator sees. */
export interface RewardBatch extends BatchBase {
  /** [N] the verifier's rewards. */
  readonly rewards: Float64Array;
  /** [N] each completion as its tokens, up to and including EOS (the vocabulary's strings). */
  readonly completions: readonly (readonly string[])[];
  /** [B] the prompt text of each group. */
  readonly prompts: readonly string[];
}

function input(
  scalars: Record<string, number>,
  typed: SandboxInput['typed'],
  strings: Record<string, string[]>,
  nested: Record<string, string[][]> = {},
): SandboxInput {
  return {
    scalarKeys: Object.keys(scalars),
    scalars,
    typedKeys: Object.keys(typed),
    typed,
    stringKeys: Object.keys(strings),
    strings,
    nestedKeys: Object.keys(nested),
    nested,
  };
}

/** The estimator's input for one step's batch (the arrays are the trainer's: the sandbox copies them). */
export function estimatorInput(batch: RolloutBatch, step: number): SandboxInput {
  const { B, G, T } = batch;
  return input(
    { B, G, N: B * G, T, step },
    {
      rewards: batch.rewards,
      correct: batch.correct,
      lengths: batch.lengths,
      mask: batch.mask,
      entropy: batch.entropy,
      logp: batch.logp ?? new Float32Array(batch.mask.length),
    },
    { signatures: batch.signatures, errorSignatures: batch.errorSignatures, promptKeys: batch.promptKeys },
  );
}

export interface RewardFacts {
  B: number;
  G: number;
  T: number;
  step: number;
  rewards: Float64Array;
  correct: Uint8Array;
  lengths: Int32Array;
  signatures: string[];
  errorSignatures: string[];
  completions: string[][];
  prompts: string[];
  promptKeys: string[];
}

/** The reward shaping's input for one step's verified batch. */
export function rewardInput(f: RewardFacts): SandboxInput {
  return input(
    { B: f.B, G: f.G, N: f.B * f.G, T: f.T, step: f.step },
    { rewards: f.rewards, correct: f.correct, lengths: f.lengths },
    { signatures: f.signatures, errorSignatures: f.errorSignatures, prompts: f.prompts, promptKeys: f.promptKeys },
    { completions: f.completions },
  );
}

/** The output lengths an estimator may return: N (one per completion), or N*T (one per token) when T > 1. */
export function estimatorLengths(batch: { B: number; G: number; T: number }): { length: number; meaning: string }[] {
  const N = batch.B * batch.G;
  const out = [{ length: N, meaning: 'N, one per completion' }];
  if (batch.T > 1) out.push({ length: N * batch.T, meaning: 'N*T, one per token' });
  return out;
}

/** What the shaping of one step's verified rollouts gets, from the trainer's snapshot. */
export function rewardFacts(
  s: {
    shape: { B: number; G: number; N: number; Lp: number; Lc: number; T: number };
    instances: readonly { promptText: string }[];
    tokens: Int32Array;
    facts: { lengths: Int32Array };
    verified: { rewards: Float64Array; correct: Uint8Array; signatures: string[]; errorSignatures: string[] };
    vocab: readonly string[];
  },
  promptKeys: string[],
  step: number,
): RewardFacts {
  const { shape, tokens, facts, verified, vocab } = s;
  const completions: string[][] = [];
  for (let n = 0; n < shape.N; n++) {
    const start = n * shape.T + shape.Lp;
    const ids = tokens.subarray(start, start + Math.min(shape.Lc, Math.max(0, facts.lengths[n])));
    completions.push(Array.from(ids, (id) => vocab[id] ?? `<${id}>`));
  }
  return {
    B: shape.B,
    G: shape.G,
    T: shape.Lc,
    step,
    rewards: verified.rewards,
    correct: verified.correct,
    lengths: facts.lengths,
    signatures: verified.signatures,
    errorSignatures: verified.errorSignatures,
    completions,
    prompts: s.instances.map((i) => i.promptText),
    promptKeys,
  };
}
