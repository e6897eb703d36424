// Test helpers: small hand-written batches and a fast-check arbitrary of valid batches.
// Imported by tests only.

import fc from 'fast-check';
import type { RolloutBatch } from './estimators';

export interface BatchSpec {
  B: number;
  G: number;
  T: number;
  rewards: number[];
  correct?: number[];
  mask?: number[];
  entropy?: number[];
  /** [N*T] log-probabilities of the sampled tokens (default −1 at policy tokens, 0 elsewhere). */
  logp?: number[];
  lengths?: number[];
  signatures?: string[];
  errorSignatures?: string[];
  promptKeys?: string[];
}

/** A batch from plain arrays; omitted fields: correct = (r ≥ 0.5), mask all 1, entropy 1, logp −1, lengths T. */
export function makeBatch(spec: BatchSpec): RolloutBatch {
  const { B, G, T, rewards } = spec;
  const N = B * G;
  const correct = spec.correct ?? rewards.map((r) => (r >= 0.5 ? 1 : 0));
  return {
    B,
    G,
    T,
    rewards: Float64Array.from(rewards),
    correct: Uint8Array.from(correct),
    mask: Float32Array.from(spec.mask ?? new Array<number>(N * T).fill(1)),
    entropy: Float32Array.from(spec.entropy ?? new Array<number>(N * T).fill(1)),
    logp: Float32Array.from(spec.logp ?? (spec.mask ?? new Array<number>(N * T).fill(1)).map((m) => (m ? -1 : 0))),
    lengths: Int32Array.from(spec.lengths ?? new Array<number>(N).fill(T)),
    signatures: spec.signatures ?? new Array<string>(N).fill('s'),
    errorSignatures: spec.errorSignatures ?? correct.map((c) => (c ? 'correct' : 'wrong')),
    promptKeys: spec.promptKeys ?? Array.from({ length: B }, (_, b) => `p${b}`),
  };
}

export interface ArbBatchOptions {
  /** Rewards in [−1, 1] (as after overlong shaping) instead of [0, 1]. */
  shaped?: boolean;
  /** Every group has a single reward and a single verdict. */
  allEqualGroups?: boolean;
  maxG?: number;
}

const reward01 = fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true }));
const rewardShaped = fc.oneof(fc.constantFrom(-1, 0, 1), fc.double({ min: -1, max: 1, noNaN: true }));

/** Any valid batch: B 1..3, G 1..maxG, T 1..5, small signature alphabets so clusters form. */
export function arbBatch(opts: ArbBatchOptions = {}): fc.Arbitrary<RolloutBatch> {
  const reward = opts.shaped ? rewardShaped : reward01;
  return fc
    .record({
      B: fc.integer({ min: 1, max: 3 }),
      G: fc.integer({ min: 1, max: opts.maxG ?? 6 }),
      T: fc.integer({ min: 1, max: 5 }),
    })
    .chain(({ B, G, T }) => {
      const N = B * G;
      const perSeq = <A>(a: fc.Arbitrary<A>) => fc.array(a, { minLength: N, maxLength: N });
      const perGroup = <A>(a: fc.Arbitrary<A>) => fc.array(a, { minLength: B, maxLength: B });
      const perTok = <A>(a: fc.Arbitrary<A>) => fc.array(a, { minLength: N * T, maxLength: N * T });
      const rewardsAndCorrect = opts.allEqualGroups
        ? fc.record({ r: perGroup(reward), c: perGroup(fc.boolean()) }).map(({ r, c }) => ({
            rewards: Array.from({ length: N }, (_, i) => r[Math.floor(i / G)]),
            correct: Array.from({ length: N }, (_, i) => (c[Math.floor(i / G)] ? 1 : 0)),
          }))
        : fc.record({ rewards: perSeq(reward), correct: perSeq(fc.constantFrom(0, 1)) });
      return fc
        .record({
          rc: rewardsAndCorrect,
          mask: perTok(fc.constantFrom(0, 1, 1, 1)),
          entropy: perTok(fc.oneof(fc.constant(0), fc.double({ min: 0, max: 8, noNaN: true }))),
          logp: perTok(fc.oneof(fc.constant(0), fc.double({ min: -12, max: 0, noNaN: true }))),
          lengths: perSeq(fc.integer({ min: 0, max: T })),
          signatures: perSeq(fc.constantFrom('a', 'b', 'c')),
          errors: perSeq(fc.constantFrom('e1', 'e2', 'e3')),
        })
        .map(({ rc, mask, entropy, logp, lengths, signatures, errors }) =>
          makeBatch({
            B,
            G,
            T,
            rewards: rc.rewards,
            correct: rc.correct,
            mask,
            entropy: entropy.map((h, j) => (mask[j] ? h : 0)),
            logp: logp.map((l, j) => (mask[j] ? l : 0)),
            lengths,
            signatures,
            errorSignatures: errors.map((e, i) => (rc.correct[i] ? 'correct' : e)),
          }),
        );
    });
}

/** A generated example (src/config/code-examples.generated.json) with its OPTIONS line set to `options`. */
export function withOptions(source: string, options: Readonly<Record<string, string | number>>): string {
  const line = /^const OPTIONS = \{[^\n]*\};$/m;
  if (!line.test(source)) throw new Error('the example has no OPTIONS line');
  return source.replace(line, `const OPTIONS = ${JSON.stringify(options)};`);
}
