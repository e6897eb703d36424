// What every estimator of the table sees and returns (docs/estimators.md): one step's rollouts,
// the options the built-ins read, and the state a stateful one (MaPP) is given.

/** One step's rollouts: B prompts × G completions = N sequences; T = completion positions. */
export interface RolloutBatch {
  B: number;
  G: number;
  T: number;
  /** [N] verifier rewards (in [0,1], or shifted by overlong shaping); sequence i = b*G + g. */
  rewards: Float64Array;
  /** [N] 1 when the verifier says correct. */
  correct: Uint8Array;
  /** [N*T] 1 where the policy sampled the token and it is trained (0 for env-written and after EOS). */
  mask: Float32Array;
  /** [N*T] entropy of the full next-token distribution at that position (0 where mask = 0). */
  entropy: Float32Array;
  /** [N] completion length (policy + env tokens up to and including EOS). */
  lengths: Int32Array;
  /** [N] strategy signature (task.signature). */
  signatures: string[];
  /** [N] task.errorSignature ("correct" when correct). */
  errorSignatures: string[];
  /** [B] stable id of each prompt (for MaPP's per-prompt posterior). */
  promptKeys: string[];
  /**
   * [N*T] log π_old(y_t) of each sampled token under the sampling policy (0 where mask = 0).
   * LamPO needs it; the trainer always gives it, hand-made batches may leave it out.
   */
  logp?: Float32Array;
}

/** What GRPO divides the centred reward by. */
export const GRPO_SCALES = ['group', 'batch', 'none'] as const;
export type GrpoScale = (typeof GRPO_SCALES)[number];

/** The knobs the built-in estimators read (each row names its own in `params`). */
export interface EstimatorOptions {
  /** GRPO only: divide by the group's sample std, the batch's, or not at all (Dr. GRPO). */
  grpoScale: GrpoScale;
  /** SoftmaxGRPO temperature τ > 0; τ → 0 approaches the best-of-group limit. */
  softmaxTau: number;
  /** pass@k estimator: k, an integer in [1, G]. */
  passK: number;
  /** AVSPO: virtual samples of the opposite outcome added to each all-equal group (0 = GRPO). */
  avspoVirtual: number;
  /** LamPO: temperature τ > 0 of the pairwise confidence weight; large τ approaches RLOO. */
  lampoTau: number;
}

/** A per-prompt posterior MaPP reads (MappPosterior, ./mapp.ts); the trainer owns and updates it. */
export interface PromptPosterior {
  advantage(promptKey: string, outcomesOfGroup: ArrayLike<number>, G: number): Float64Array;
}

/** State the trainer keeps between steps for the estimators that need it. */
export interface EstimatorState {
  mapp?: PromptPosterior;
}

/**
 * group: one advantage per completion [N] (from its group's or the batch's rewards), which the
 * pipeline then spreads over the tokens (group-structure and token credit); token: one advantage
 * per token [N*T], used as it is (only the top-entropy filter applies).
 */
export type EstimatorKind = 'group' | 'token';

export type EstimatorFn = (
  batch: RolloutBatch,
  options: Readonly<EstimatorOptions>,
  state: EstimatorState,
) => Float64Array;

/** One estimator: everything the knob table, the validation, the dispatch, the docs and the methods suite say of it. */
export interface EstimatorRow {
  /** The value of the `estimator` knob. */
  readonly name: string;
  readonly kind: EstimatorKind;
  /** It compares a completion with its group's peers, so it needs groupSize ≥ 2. */
  readonly peers: boolean;
  /** How the page, the examples and the methods suite name it ("GRPO"). */
  readonly title: string;
  /** Its part of the estimator knob's doc: what it computes, in a few words ("group z-score"). */
  readonly doc: string;
  /** Where it comes from (docs/methods.md names the papers). */
  readonly paper: string;
  /** The knobs it reads (fields of EstimatorOptions), at their defaults in its custom-code example. */
  readonly params: readonly (keyof EstimatorOptions)[];
  /** The estimator itself: a named function declaration in its file of src/estimators/. */
  readonly advantages: EstimatorFn;
  /**
   * Its cell of the methods suite (`rlvr sweep --suite methods`): knob values on top of the
   * estimator's own and how the leaderboard names its source; absent: not in the suite.
   */
  readonly suite?: { readonly set?: Readonly<Record<string, string>>; readonly source: string };
  /**
   * Its custom-code example (src/config/code-examples.generated.json): absent = generated from
   * `advantages`; `entry` another function of its file with a third argument `state` (a
   * JavaScript expression, made once and kept between calls); false = no example.
   */
  readonly example?: false | { readonly entry: string; readonly state: string; readonly stateDoc: string };
}
