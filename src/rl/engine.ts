// The policy engine the trainer drives: sample sequences over a template, and run training
// passes (optional reference log-probs → loss → backward → grad norm → AdamW). Two
// implementations with one contract: the WGSL engine (GpuEngine, ./gpu-engine.ts) and the CPU
// reference (CpuEngine, ./cpu-engine.ts), which a test holds the GPU one to. This module is
// the contract only, so the CPU engine and the trainer load no WebGPU code.
//
// An engine is built for one run: the constants its training plans bake in (temperature and
// regulator, in kernel terms: EngineSettings, from lossSettings(config) in ./settings.ts) are
// given once, at construction. The KL reference weights are the engine's state alone:
// `hasReference` says whether they have been taken.
//
// Row alignment: training arrays are [N,T] over full sequences, and row (n,t) is the
// prediction of token t+1 (its target). The trainer builds them (./rollout.ts).

import type { ParamLayout } from '../model/layout';
import type { GpuCallCounts } from '../core/call-counts';
import {
  REGULATOR,
  type AdamwParams,
  type PgLossParams,
  type Regulator,
  type SampleResult,
  type SampleTokenParams,
} from '../core/abi';

/** The run constants of an engine's training plans, in kernel terms. */
export interface EngineSettings {
  /** 1 / temperature: the policy the loss trains is softmax(logits · invTemp). */
  invTemp: number;
  /** The per-row bonus α weights in the policy-gradient loss (entropy or uniform). */
  regulator: Regulator;
}

/** Temperature 1 and the entropy: an engine that only samples or scores (probes, tests). */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = Object.freeze({ invTemp: 1, regulator: REGULATOR.entropy });

/** How a trainer gets its engine: the model's layout, its initial weights, the run's settings. */
export type MakeEngine = (
  layout: ParamLayout,
  params: Float32Array,
  settings: EngineSettings,
) => PolicyEngine | Promise<PolicyEngine>;

/** One minibatch, row-aligned, N sequences × T positions. */
export interface MinibatchData {
  tokens: Int32Array; // [N,T]
  targets: Int32Array; // [N,T] tokens shifted left; −1 on the last row
  oldLogp: Float32Array; // [N,T] log π_old(target) where mask = 1
  adv: Float32Array; // [N,T]
  mask: Float32Array; // [N,T] 1 = this row's target is a trained policy token
  klMask: Float32Array; // [N,T] 1 = the KL to the reference applies
}

/** A policy-gradient pass (its β > 0 runs the reference pass first) or an SFT pass. */
export type PassLoss = { kind: 'pg'; params: PgLossParams } | { kind: 'sft'; scale: number };

export interface TrainPass {
  data: MinibatchData;
  loss: PassLoss;
  adam: AdamwParams;
}

export interface PassStats {
  seqLoss: Float32Array; // [N]
  stats: Float32Array; // [N,PG_STATS] (docs/engine.md, pg_loss stats)
  gradNorm: number; // before clipping
  nonFinite: boolean; // the pass's gradient had a NaN/Inf: AdamW skipped it
}

export interface TrainResult {
  passes: PassStats[];
  /** Gradient norm per tensor group (embeddings, each block, final LayerNorm) of the last pass. */
  groupNorms: Record<string, number>;
  /** ‖θ‖ after the passes (NaN or Infinity when a weight is not finite). */
  weightNorm: number;
  /** ‖θ_after − θ_before‖ over all the passes: how far this call moved the weights. */
  updateNorm: number;
}

/** AdamW's moments, [P] each, in the parameter buffer's layout. */
export interface OptimizerState {
  m: Float32Array;
  v: Float32Array;
}

/** Whether a pass needs refLogp: a policy-gradient pass with the KL term on. */
export function usesReference(pass: TrainPass): boolean {
  return pass.loss.kind === 'pg' && pass.loss.params.beta > 0;
}

/** The inputs of a pass, in the order the GPU engine packs them: each [N,T]. */
export const PASS_INPUTS = ['tokens', 'targets', 'oldLogp', 'adv', 'mask', 'klMask'] as const;

/** Every input of every pass must hold N·T values: a short one would read past its end (GPU) or as NaN (CPU). */
export function checkPassInputs(passes: readonly TrainPass[], N: number, T: number): void {
  passes.forEach((pass, i) => {
    for (const key of PASS_INPUTS) {
      const a = pass.data[key];
      if (a.length !== N * T)
        throw new RangeError(`train: pass ${i} ${key}: ${a.length} values, N × T = ${N} × ${T} = ${N * T}`);
    }
  });
}

/** Throws where a pass uses the KL term and the engine has no reference weights yet. */
export function checkReference(passes: readonly TrainPass[], hasReference: boolean): void {
  if (!hasReference && passes.some(usesReference))
    throw new Error('train: a pass with β > 0 needs the KL reference (syncReference() first)');
}

export interface PolicyEngine {
  readonly layout: ParamLayout;
  readonly kind: 'gpu' | 'cpu';
  readonly settings: EngineSettings;
  sample(fixed: Int32Array, N: number, T: number, params: SampleTokenParams): Promise<SampleResult>;
  /**
   * Runs passes in order, N sequences × T tokens each; a pass that usesReference() first fills
   * refLogp from the reference weights (which must have been taken).
   */
  train(passes: TrainPass[], N: number, T: number): Promise<TrainResult>;
  /** log π(target) [N·T] under the current weights at the engine's temperature (row (n,t) scores tokens[n,t+1]); no update. */
  logProbs(tokens: Int32Array, targets: Int32Array, N: number, T: number): Promise<Float32Array>;
  /** Whether the frozen KL reference has been taken (syncReference or loadReference). */
  readonly hasReference: boolean;
  /** Copy the current weights into the frozen reference. */
  syncReference(): Promise<void>;
  /** Keep the weights and optimiser state, to roll a faulty step back. */
  checkpointState(): Promise<void>;
  restoreState(): Promise<void>;
  readParams(): Promise<Float32Array>;
  /** Replace the weights; the optimiser state is reset to zero. */
  loadParams(params: Float32Array): Promise<void>;
  readOptimizerState(): Promise<OptimizerState>;
  /** Replace the optimiser state (after loadParams, to resume a run). */
  loadOptimizerState(state: OptimizerState): Promise<void>;
  /** The frozen reference weights, or null before the first syncReference. */
  readReference(): Promise<Float32Array | null>;
  /** Set the reference weights (a resumed run's KL anchor). */
  loadReference(params: Float32Array): Promise<void>;
  /** Names of tensors whose gradient (last pass) or weights hold a non-finite value. */
  nonFiniteTensors(): Promise<string[]>;
  /**
   * GPU engines on a device with a call counter (src/gpu/call-counter.ts): the dispatches,
   * submits, readbacks and bytes written so far, for the gpu/* scalars of a step record.
   */
  callCounts?(): GpuCallCounts | null;
  destroy(): void;
}

/** Tensor groups for per-group gradient norms: contiguous ranges of the one buffer. */
export function tensorGroups(layout: ParamLayout): { name: string; offset: number; size: number }[] {
  const range = (name: string, first: { offset: number }, last: { offset: number; size: number }) => ({
    name,
    offset: first.offset,
    size: last.offset + last.size - first.offset,
  });
  const groups = [range('embeddings', layout.wte, layout.wpe)];
  layout.blocks.forEach((b, i) => groups.push(range(`h${i}`, b.ln1w, b.fcprojb)));
  groups.push(range('ln_f', layout.lnfw, layout.lnfb));
  return groups;
}

export function checkLength(what: string, a: ArrayLike<number>, P: number): void {
  if (a.length !== P) throw new RangeError(`${what}: ${a.length} floats, the parameter buffer has ${P}`);
}

/** Both moments of an optimiser state must have the parameter buffer's P floats. */
export function checkOptimizerState(state: OptimizerState, P: number): void {
  checkLength('loadOptimizerState: m', state.m, P);
  checkLength('loadOptimizerState: v', state.v, P);
}

export function nonFiniteSlots(layout: ParamLayout, ...buffers: Float32Array[]): string[] {
  const bad: string[] = [];
  for (const s of layout.slots) {
    for (const buf of buffers) {
      let found = false;
      for (let i = s.offset; i < s.offset + s.size; i++)
        if (!Number.isFinite(buf[i])) {
          found = true;
          break;
        }
      if (found) {
        bad.push(s.name);
        break;
      }
    }
  }
  return bad;
}
