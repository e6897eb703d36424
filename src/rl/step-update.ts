// Phase 4 of a step, the update: AdamW's schedule (warm-up, the step count behind bias
// correction) and the passes the engine trains, epochs × minibatches over the batch's rows,
// shuffled per epoch; and the importance ratios the inspector shows after it.

import type { RunConfig } from '../config/config';
import type { AdamwParams, PgLossParams } from '../core/abi';
import type { Rng } from '../core/random';
import type { MinibatchData, TrainPass } from './engine';
import { rowArrays, sliceMinibatch, type RolloutShape } from './rollout';
import type { LossSettings } from './settings';
import type { RolloutSnapshot } from './trainer-types';

/**
 * AKL, Accuracy-Conditioned KL Scaling (the EXPO / FG-ExPO paper, docs/methods.md) (reading): the
 * step's KL coefficient is klBeta · 2·sigmoid(k·(acc − 0.5)), acc the batch's share of correct
 * completions: below half right the anchor loosens (toward 0), above it tightens (toward 2·klBeta),
 * smoothly. sharpness k = 0 is off: the factor is exactly 1.
 */
export function aklFactor(accuracy: number, sharpness: number): number {
  if (sharpness === 0) return 1;
  return 2 / (1 + Math.exp(-sharpness * (accuracy - 0.5)));
}

/**
 * This step's KL weight: klBeta, scaled by AKL's factor of the batch's share of correct
 * completions when aklSharpness > 0 (docs/estimators.md, "AKL").
 */
export function stepKlBeta(klBeta: number, aklSharpness: number, correct: ArrayLike<number>): number {
  if (aklSharpness === 0 || correct.length === 0) return klBeta;
  let c = 0;
  for (let i = 0; i < correct.length; i++) if (correct[i]) c++;
  return klBeta * aklFactor(c / correct.length, aklSharpness);
}

/** AdamW's parameters update by update: the count of updates applied and the warm-up of lr. */
export class AdamSchedule {
  /** Optimiser updates applied (for AdamW bias correction and warm-up). */
  step = 0;

  constructor(private readonly config: RunConfig) {}

  /** The next update's parameters, at `base` learning rate (lr or sftLr) after warm-up. */
  next(base: number): AdamwParams {
    const c = this.config;
    const step = ++this.step;
    const lr = c.warmupSteps > 0 ? base * Math.min(1, step / c.warmupSteps) : base;
    return {
      lr,
      beta1: c.beta1,
      beta2: c.beta2,
      eps: c.adamEps,
      weightDecay: c.weightDecay,
      step,
      maxGradNorm: c.maxGradNorm,
    };
  }
}

/**
 * The knob that sets the RL learning rate at RL step `step` (1-based): lr, then lrDropTo after
 * step lrDropStep (a one-step schedule; lrDropStep 0 = never). Exactly what `--resume` at that
 * step with `--set lr=<lrDropTo>` trains, so a run continued at a lower lr by hand is this
 * schedule. A fault names this knob as the one to lower.
 */
export function rlLearningRateKnob(c: RunConfig, step: number): 'lr' | 'lrDropTo' {
  return c.lrDropStep > 0 && step > c.lrDropStep ? 'lrDropTo' : 'lr';
}

/** The RL learning rate at RL step `step`: the value of rlLearningRateKnob's knob. */
export function rlLearningRate(c: RunConfig, step: number): number {
  return c[rlLearningRateKnob(c, step)];
}

/** What the passes of a step depend on beyond the batch. */
export interface PassContext {
  config: RunConfig;
  /** The RL step these passes belong to (1-based), for the lr schedule. */
  step: number;
  settings: LossSettings;
  shuffleRng: Rng;
  optimizer: AdamSchedule;
  /** Completion positions c < klLimit get the KL term. */
  klLimit: number;
  /** Whether the KL reference has been taken (β is on only then). */
  hasReference: boolean;
  alpha: number;
}

/**
 * The step's passes, each with the run's loss constants and this step's β (on once the KL
 * reference is taken), α, lengths and normalisers. Returns them with their rows, the minibatch
 * size N and whether the KL is on.
 */
export function buildPasses(
  ctx: PassContext,
  s: RolloutSnapshot,
  trainAdv: Float32Array,
): { passes: TrainPass[]; rows: MinibatchData; N: number; klOn: boolean } {
  const c = ctx.config;
  const { shape } = s;
  const rows = rowArrays(
    s.tokens,
    shape,
    trainAdv,
    s.advantages!.tokenMask,
    s.facts.logp,
    Math.min(ctx.klLimit, shape.Lc),
  );
  const N = Math.floor(shape.N / c.minibatches);
  const klOn = c.klBeta > 0 && ctx.hasReference;
  const { epsLow, epsHigh, dualClip, klKind, aggregation, alphaIn } = ctx.settings;
  const klBeta = stepKlBeta(ctx.settings.klBeta, c.aklSharpness, s.verified.correct);
  const passes: TrainPass[] = [];
  for (let e = 0; e < c.epochs; e++) {
    const order = shuffle(ctx.shuffleRng, shape.N);
    for (let m = 0; m < c.minibatches; m++) {
      const data = sliceMinibatch(rows, shape.T, order, m * N, (m + 1) * N);
      const params: PgLossParams = {
        epsLow,
        epsHigh,
        dualClip,
        klKind,
        aggregation,
        beta: klOn ? klBeta : 0,
        alpha: alphaIn === 'loss' ? ctx.alpha : 0,
        maxLen: shape.Lc,
        totalTokens: Math.max(
          1,
          data.mask.reduce((a, b) => a + b, 0),
        ),
        totalSeqs: N,
      };
      passes.push({ data, loss: { kind: 'pg', params }, adam: ctx.optimizer.next(rlLearningRate(c, ctx.step)) });
    }
  }
  return { passes, rows, N, klOn };
}

/** π_new/π_old per completion position [N·Lc] from row-space log-probs; 1 where not trained. */
export function completionRatios(
  newLogp: Float32Array,
  rows: { oldLogp: Float32Array; mask: Float32Array },
  s: RolloutShape,
): Float32Array {
  const ratio = new Float32Array(s.N * s.Lc).fill(1);
  for (let n = 0; n < s.N; n++) {
    for (let c = 0; c < s.Lc; c++) {
      const r = n * s.T + s.Lp + c - 1;
      if (rows.mask[r]) ratio[n * s.Lc + c] = Math.exp(newLogp[r] - rows.oldLogp[r]);
    }
  }
  return ratio;
}

function shuffle(rng: Rng, n: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
