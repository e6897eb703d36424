// The divergence guard: catches a run blowing up while its numbers are still finite, before the
// weights are useless. A NaN/Inf check alone fires late: with lr 1 and beta2 0 the weights
// reach 3e11 (finite) several steps before anything overflows.
//
// Two checks on every update (the first that fails is reported) (an RL step's passes, or one SFT step):
// - update-norm: the update moved the weights by more than `updateSpike` × the larger of the
//   recent updates' median and an lr-sized step (lr·√count, every weight moved by lr). Adam's
//   per-weight step stays below ≈ (1−β1)/√(1−β2) / √(1−β1²/β2) · lr (2.4·lr at the defaults,
//   7.3·lr at β1 0.9, β2 0.999) whenever β1² < β2, so a healthy run never gets there;
// - weight-norm: the weights' RMS is above `maxWeightRms` (a trained GPT-2's is well below 1).
// Non-finite weights are reported as such.

import { median } from '../core/numeric';

export type FaultCheck = 'non-finite' | 'update-norm' | 'weight-norm';

export interface GuardLimits {
  updateSpike: number;
  /** Accepted updates the median is taken over. */
  window: number;
  maxWeightRms: number;
}

export const DEFAULT_GUARD_LIMITS: GuardLimits = { updateSpike: 10, window: 20, maxWeightRms: 100 };

export interface UpdateObservation {
  /** ‖θ_after − θ_before‖. */
  updateNorm: number;
  /** ‖θ_after‖. */
  weightNorm: number;
  /** Σ of the learning rates of the update's passes. */
  lrSum: number;
  /** Number of weights (no padding). */
  count: number;
}

export interface GuardVerdict {
  check: FaultCheck;
  /** What was measured against what, for the fault message. */
  detail: string;
}

const fmt = (x: number): string =>
  x === 0 ? '0' : Math.abs(x) >= 1e4 || Math.abs(x) < 1e-3 ? x.toExponential(2) : x.toPrecision(3);

export class DivergenceGuard {
  private history: number[] = [];

  constructor(readonly limits: GuardLimits = DEFAULT_GUARD_LIMITS) {}

  /** The check this update fails, or null. Does not record the update (see accept). */
  check(o: UpdateObservation): GuardVerdict | null {
    if (!Number.isFinite(o.weightNorm) || !Number.isFinite(o.updateNorm)) {
      return { check: 'non-finite', detail: `the weights are not finite after the update (‖θ‖ ${o.weightNorm})` };
    }
    const lrStep = o.lrSum * Math.sqrt(o.count);
    const recent = this.history.length > 0 ? median(this.history) : 0;
    const limit = this.limits.updateSpike * Math.max(recent, lrStep);
    if (o.updateNorm > limit) {
      return {
        check: 'update-norm',
        detail:
          `the update moved the weights by ${fmt(o.updateNorm)} (RMS ${fmt(o.updateNorm / Math.sqrt(o.count))} per weight), ` +
          `more than ${this.limits.updateSpike} × max(recent median ${fmt(recent)}, lr-sized step ${fmt(lrStep)})`,
      };
    }
    const rms = o.weightNorm / Math.sqrt(o.count);
    if (rms > this.limits.maxWeightRms) {
      return {
        check: 'weight-norm',
        detail: `the weights' RMS is ${fmt(rms)}, above the bound ${this.limits.maxWeightRms}`,
      };
    }
    return null;
  }

  /** Records an update that passed the checks. */
  accept(o: UpdateObservation): void {
    this.history.push(o.updateNorm);
    if (this.history.length > this.limits.window) this.history.shift();
  }

  /** The recent update norms, for a resumed run. */
  get recent(): readonly number[] {
    return this.history;
  }

  restore(recent: readonly number[]): void {
    this.history = recent.slice(-this.limits.window);
  }
}
