// The run config's type: one flat object of knob values (checked at compile time against the
// knob table), the raw input it is validated from, and the error that names a bad knob.

import type { TaskName } from '../tasks/registry';
import type { TaskKnobKey, StaticConfigFromTable, Aggregation, Estimator } from './knobs';

/** A bad knob value or an inconsistent combination; `knob` names the key to fix. */
export class ConfigError extends Error {
  constructor(
    readonly knob: string,
    message: string,
    /** For a rule between knobs: the other knobs involved (a UI can mark them too). */
    readonly related: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * A complete, validated run config. Flat: keys are the knob keys. The chosen task's parameters
 * are `task.<param>` entries (e.g. `task.length`); no other task's parameters appear.
 */
export interface RunConfig {
  // run
  seed: number;
  steps: number;
  // task
  task: TaskName;
  [taskParam: TaskKnobKey]: number | string;
  // model (vocab size and positions are derived from the task: see modelConfigOf)
  'model.nEmbd': number;
  'model.nLayer': number;
  'model.nHead': number;
  'model.initStd': number;
  // sampling
  batchPrompts: number;
  groupSize: number;
  temperature: number;
  topK: number;
  // optim
  lr: number;
  lrDropStep: number;
  lrDropTo: number;
  beta1: number;
  beta2: number;
  adamEps: number;
  weightDecay: number;
  maxGradNorm: number;
  warmupSteps: number;
  epochs: number;
  minibatches: number;
  // advantage
  estimator: Estimator;
  grpoScale: 'group' | 'batch' | 'none';
  softmaxTau: number;
  passK: number;
  mappPool: number;
  mappBonus: number;
  tokenCredit: 'uniform' | 'eapo';
  topEntropyQuantile: number;
  cueGamma: number;
  edasGamma: number;
  avspoVirtual: number;
  lampoTau: number;
  gcsSigma: number;
  customEstimator: string;
  rewardSource: 'verifier' | 'consensus';
  rewardShaping: 'none' | 'custom';
  customReward: string;
  customTimeLimitMs: number;
  // loss
  epsLow: number;
  epsHigh: number;
  dualClip: number;
  aggregation: Aggregation;
  klBeta: number;
  aklSharpness: number;
  klKind: 'k1' | 'k3';
  refSync: 'none' | 'every' | 'curriculum';
  refSyncEvery: number;
  klMaskNew: boolean;
  overlongBuffer: number;
  maskTruncated: boolean;
  dynamicSampling: boolean;
  dynamicMaxTries: number;
  // regularisation
  entropyAlpha: number;
  entropyMode: 'exact' | 'sampled' | 'uniform';
  entropyTarget: number;
  entropyAlphaStep: number;
  // curriculum
  curriculum: 'off' | 'pass-rate';
  curriculumParam: string;
  curriculumStart: number;
  curriculumTarget: number;
  curriculumWindow: number;
  // warm start
  sftSteps: number;
  sftData: 'answers' | 'base';
  sftLr: number;
  // eval
  evalEvery: number;
  evalPrompts: number;
  evalK: number;
}

// Compile-time check that the interface above lists exactly the table's keys with its types.
type StaticPart = { [K in keyof RunConfig as K extends TaskKnobKey ? never : K]: RunConfig[K] };
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const interfaceMatchesTable: Equals<StaticPart, StaticConfigFromTable> = true;
void interfaceMatchesTable;

/** Unvalidated knob values (from a form, URL, file or flags); strings allowed for every kind. */
export type RawConfig = Readonly<Record<string, unknown>>;
