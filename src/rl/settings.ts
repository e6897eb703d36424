// A run config in the terms of the parts that run it, translated once per run: the advantage
// pipeline's options (./estimators.ts) and the loss kernels' settings (codes of src/core/abi.ts).
// The trainer builds both when it is created and gives the engine its part; nothing recomputes
// them per pass.

import { defaultConfig, type RunConfig } from '../config/config';
import type { Aggregation } from '../config/knobs';
import { AGGREGATION, KL_KIND, REGULATOR, type AggregationCode, type KlKindCode } from '../core/abi';
import type { EngineSettings } from './engine';
import type { AdvantageOptions } from './estimators';

/** The advantage pipeline's options: Cue-GRPO and EDAS are on when their γ is. */
export function advantageOptions(c: RunConfig): AdvantageOptions {
  return {
    estimator: c.estimator,
    grpoScale: c.grpoScale,
    softmaxTau: c.softmaxTau,
    passK: c.passK,
    avspoVirtual: c.avspoVirtual,
    lampoTau: c.lampoTau,
    gcsSigma: c.gcsSigma,
    cue: c.cueGamma > 0,
    cueGamma: c.cueGamma,
    edas: c.edasGamma > 0,
    edasGamma: c.edasGamma,
    tokenCredit: c.tokenCredit,
    topEntropyQuantile: c.topEntropyQuantile,
  };
}

/** The options of the default config: the knob table's defaults (GRPO, τ 0.5, k 4, no Cue, no EDAS). */
export const DEFAULT_ADVANTAGE_OPTIONS: Readonly<AdvantageOptions> = Object.freeze(advantageOptions(defaultConfig()));

const AGGREGATION_CODE: Record<Aggregation, AggregationCode> = {
  'token-mean': AGGREGATION.tokenMean,
  'seq-mean-token-mean': AGGREGATION.seqMeanTokenMean,
  'seq-mean-token-sum': AGGREGATION.seqMeanTokenSum,
  'seq-mean-token-sum-norm': AGGREGATION.seqMeanTokenSumNorm,
};

/** The loss settings of a run; what changes from pass to pass (β on or off, α, lengths, normalisers) is the trainer's. */
export interface LossSettings extends EngineSettings {
  epsLow: number;
  epsHigh: number;
  dualClip: number;
  klKind: KlKindCode;
  aggregation: AggregationCode;
  /** β while the KL reference is in use (0: the run has no KL term). */
  klBeta: number;
  /**
   * Where α acts: in the loss, on the regulator the kernels compute (exact entropy, uniform), or
   * in the advantages, as α·(−log π(y_t)) per trained token (`sampled`, a REINFORCE estimate of
   * the entropy gradient).
   */
  alphaIn: 'loss' | 'advantages';
}

export function lossSettings(c: RunConfig): LossSettings {
  return {
    invTemp: 1 / c.temperature,
    regulator: c.entropyMode === 'uniform' ? REGULATOR.uniform : REGULATOR.entropy,
    epsLow: c.epsLow,
    epsHigh: c.epsHigh,
    dualClip: c.dualClip,
    klKind: c.klKind === 'k1' ? KL_KIND.k1 : KL_KIND.k3,
    aggregation: AGGREGATION_CODE[c.aggregation],
    klBeta: c.klBeta,
    alphaIn: c.entropyMode === 'sampled' ? 'advantages' : 'loss',
  };
}
