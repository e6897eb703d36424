// The whole GPT-2 on the CPU, built only from the kernel twins in ./ops:
// pre-LayerNorm blocks, learned positions, causal attention, GELU (tanh), final LayerNorm,
// LM head tied to wte. forward() and backward() are a pair, as in llm.c: forward keeps every
// activation the backward pass needs in an Activations record.
//
// Parameters live in one flat buffer described by a ParamLayout (HF shapes: Conv1D weights
// are [in, out]); gradients mirror it. Works in Float32 (to mirror the GPU) or Float64 (for
// gradient checks).

import type { ModelConfig } from '../model/model-config';
import { nextTokenTargets } from '../core/abi';
import { buildDecayMask, view, type ParamLayout, type TensorSlot } from '../model/layout';
import {
  type F,
  add,
  adamw,
  attentionBackward,
  attentionForward,
  biasBackward,
  ceLoss,
  embeddingBackward,
  embeddingForward,
  geluBackward,
  geluForward,
  gradNorm,
  layernormBackward,
  layernormForward,
  logitsBackward,
  logitsStats,
  matmul,
} from './ops';

export type FloatCtor = Float32ArrayConstructor | Float64ArrayConstructor;

/** Per-block activations saved by forward (R = N·T). */
export interface LayerActivations {
  ln1: F;
  ln1Mean: F;
  ln1Rstd: F; // [R,C], [R], [R]
  qkv: F; // [R,3C]
  atty: F; // [R,C] attention output, before the projection
  att: F; // [N,NH,T,T] attention probabilities
  attproj: F; // [R,C]
  resid2: F; // [R,C] residual + attention branch
  ln2: F;
  ln2Mean: F;
  ln2Rstd: F; // [R,C], [R], [R]
  fch: F; // [R,4C] MLP pre-activation
  fchGelu: F; // [R,4C]
  fcproj: F; // [R,C]
  resid3: F; // [R,C] block output
}

/** Every buffer forward and backward use, for a fixed (N, T). */
export interface Activations {
  N: number;
  T: number;
  encoded: F; // [R,C] token + position embeddings
  layers: LayerActivations[];
  lnf: F;
  lnfMean: F;
  lnfRstd: F; // [R,C], [R], [R]
  logits: F; // [R,V]
  // Scratch gradients for backward (activations only; parameter grads go to `grads`).
  dresid: F; // [R,C] gradient flowing down the residual stream
  dln: F; // [R,C] gradient w.r.t. a LayerNorm output (ln1, ln2 or lnf)
  datty: F; // [R,C]
  dqkv: F; // [R,3C]
  dfchGelu: F; // [R,4C]
  dfch: F; // [R,4C]
}

export function createActivations(cfg: ModelConfig, N: number, T: number, ctor: FloatCtor = Float32Array): Activations {
  if (T > cfg.nPositions) throw new RangeError(`T (${T}) exceeds model.nPositions (${cfg.nPositions})`);
  const { nEmbd: C, vocabSize: V, nHead: NH, nLayer: L } = cfg;
  const R = N * T;
  const a = (n: number): F => new ctor(n);
  const layers: LayerActivations[] = [];
  for (let l = 0; l < L; l++) {
    layers.push({
      ln1: a(R * C),
      ln1Mean: a(R),
      ln1Rstd: a(R),
      qkv: a(R * 3 * C),
      atty: a(R * C),
      att: a(N * NH * T * T),
      attproj: a(R * C),
      resid2: a(R * C),
      ln2: a(R * C),
      ln2Mean: a(R),
      ln2Rstd: a(R),
      fch: a(R * 4 * C),
      fchGelu: a(R * 4 * C),
      fcproj: a(R * C),
      resid3: a(R * C),
    });
  }
  return {
    N,
    T,
    encoded: a(R * C),
    layers,
    lnf: a(R * C),
    lnfMean: a(R),
    lnfRstd: a(R),
    logits: a(R * V),
    dresid: a(R * C),
    dln: a(R * C),
    datty: a(R * C),
    dqkv: a(R * 3 * C),
    dfchGelu: a(R * 4 * C),
    dfch: a(R * 4 * C),
  };
}

function checkShapes(layout: ParamLayout, tokens: Int32Array, N: number, T: number, acts: Activations): void {
  if (acts.N !== N || acts.T !== T) {
    throw new RangeError(`activations were made for N=${acts.N}, T=${acts.T}, got N=${N}, T=${T}`);
  }
  if (tokens.length < N * T) throw new RangeError(`tokens has ${tokens.length} entries, need N·T = ${N * T}`);
  if (T > layout.config.nPositions) throw new RangeError(`T (${T}) exceeds model.nPositions`);
}

/** Forward pass; fills acts and returns acts.logits [N·T, V]. */
export function forward(
  layout: ParamLayout,
  params: F, // [P]
  tokens: Int32Array, // [N, T]
  N: number,
  T: number,
  acts: Activations,
): F {
  checkShapes(layout, tokens, N, T, acts);
  const { nEmbd: C, vocabSize: V, nHead: NH } = layout.config;
  const R = N * T;
  const p = (s: TensorSlot): F => view(params, s);

  embeddingForward(acts.encoded, tokens, p(layout.wte), p(layout.wpe), { N, T, C, V });
  let residual = acts.encoded; // [R,C]
  layout.blocks.forEach((b, l) => {
    const a = acts.layers[l];
    layernormForward(a.ln1, a.ln1Mean, a.ln1Rstd, residual, p(b.ln1w), p(b.ln1b), R, C);
    matmul(a.qkv, a.ln1, p(b.qkvw), p(b.qkvb), { M: R, K: C, N: 3 * C });
    attentionForward(a.atty, a.att, a.qkv, { N, T, C, NH });
    matmul(a.attproj, a.atty, p(b.attprojw), p(b.attprojb), { M: R, K: C, N: C });
    add(a.resid2, residual, a.attproj, R * C);
    layernormForward(a.ln2, a.ln2Mean, a.ln2Rstd, a.resid2, p(b.ln2w), p(b.ln2b), R, C);
    matmul(a.fch, a.ln2, p(b.fcw), p(b.fcb), { M: R, K: C, N: 4 * C });
    geluForward(a.fchGelu, a.fch, R * 4 * C);
    matmul(a.fcproj, a.fchGelu, p(b.fcprojw), p(b.fcprojb), { M: R, K: 4 * C, N: C });
    add(a.resid3, a.resid2, a.fcproj, R * C);
    residual = a.resid3;
  });
  layernormForward(acts.lnf, acts.lnfMean, acts.lnfRstd, residual, p(layout.lnfw), p(layout.lnfb), R, C);
  // tied LM head: logits = lnf · wteᵀ
  matmul(acts.logits, acts.lnf, p(layout.wte), null, { M: R, K: C, N: V, transB: true });
  return acts.logits;
}

/**
 * Backward pass for the forward() that filled acts. Adds (+=) into grads [P], which the caller
 * zeroes once per step; the activation gradients are scratch buffers in acts.
 */
export function backward(
  layout: ParamLayout,
  params: F, // [P]
  grads: F, // [P] (+=)
  tokens: Int32Array, // [N, T]
  N: number,
  T: number,
  acts: Activations,
  dlogits: F, // [N·T, V]
): void {
  checkShapes(layout, tokens, N, T, acts);
  const { nEmbd: C, vocabSize: V, nHead: NH, nLayer: L } = layout.config;
  const R = N * T;
  const p = (s: TensorSlot): F => view(params, s);
  const g = (s: TensorSlot): F => view(grads, s);
  const { dresid, dln, datty, dqkv, dfchGelu, dfch } = acts;
  // A layernorm's backward: dresid (+=) through it from dln, its weight and bias grads (+=).
  const lnBackward = (w: TensorSlot, b: TensorSlot, inp: F, mean: F, rstd: F) =>
    layernormBackward(dresid, g(w), g(b), dln, inp, p(w), mean, rstd, R, C);

  // tied head: dlnf = dlogits·wte (=), dwte += dlogitsᵀ·lnf
  matmul(dln, dlogits, p(layout.wte), null, { M: R, K: V, N: C });
  matmul(g(layout.wte), dlogits, acts.lnf, null, { M: V, K: R, N: C, transA: true, accumulate: true });
  const lastResid = L > 0 ? acts.layers[L - 1].resid3 : acts.encoded;
  dresid.fill(0);
  lnBackward(layout.lnfw, layout.lnfb, lastResid, acts.lnfMean, acts.lnfRstd);

  for (let l = L - 1; l >= 0; l--) {
    const b = layout.blocks[l];
    const a = acts.layers[l];
    const residual = l > 0 ? acts.layers[l - 1].resid3 : acts.encoded;
    // resid3 = resid2 + fcproj: dresid is the gradient of both (the residual backward is the
    // identity, so dresid simply keeps flowing down and the branch adds into it below).
    // MLP branch
    matmul(g(b.fcprojw), a.fchGelu, dresid, null, { M: 4 * C, K: R, N: C, transA: true, accumulate: true });
    biasBackward(g(b.fcprojb), dresid, R, C);
    matmul(dfchGelu, dresid, p(b.fcprojw), null, { M: R, K: C, N: 4 * C, transB: true });
    geluBackward(dfch, a.fch, dfchGelu, R * 4 * C);
    matmul(g(b.fcw), a.ln2, dfch, null, { M: C, K: R, N: 4 * C, transA: true, accumulate: true });
    biasBackward(g(b.fcb), dfch, R, 4 * C);
    matmul(dln, dfch, p(b.fcw), null, { M: R, K: 4 * C, N: C, transB: true });
    lnBackward(b.ln2w, b.ln2b, a.resid2, a.ln2Mean, a.ln2Rstd);
    // resid2 = residual + attproj: attention branch
    matmul(g(b.attprojw), a.atty, dresid, null, { M: C, K: R, N: C, transA: true, accumulate: true });
    biasBackward(g(b.attprojb), dresid, R, C);
    matmul(datty, dresid, p(b.attprojw), null, { M: R, K: C, N: C, transB: true });
    attentionBackward(dqkv, datty, a.qkv, a.att, { N, T, C, NH });
    matmul(g(b.qkvw), a.ln1, dqkv, null, { M: C, K: R, N: 3 * C, transA: true, accumulate: true });
    biasBackward(g(b.qkvb), dqkv, R, 3 * C);
    matmul(dln, dqkv, p(b.qkvw), null, { M: R, K: 3 * C, N: C, transB: true });
    lnBackward(b.ln1w, b.ln1b, residual, a.ln1Mean, a.ln1Rstd);
  }
  embeddingBackward(g(layout.wte), g(layout.wpe), dresid, tokens, { N, T, C, V });
}

export interface LossAndGrad<A extends F> {
  /** Mean next-token cross-entropy in nats. */
  loss: number;
  /** [N·T, V] */
  logits: F;
  /** [P], same layout and type as params. */
  grads: A;
}

/**
 * Mean next-token cross-entropy: positions 0..T−2 predict tokens 1..T−1 (what the CLI
 * `forward` command prints), with its gradient w.r.t. every parameter. Goes through
 * logitsStats → ceLoss → logitsBackward → backward, the same path as training.
 *
 * mask [N,T] (optional) is aligned with the *target* token, like the rollout masks: mask[n,t]
 * weights the prediction of tokens[n,t] (t ≥ 1; mask[n,0] is ignored). Loss = Σ mask·nll / Σ mask.
 */
export function crossEntropyLossAndGrad<A extends F>(
  layout: ParamLayout,
  params: A, // [P]
  tokens: Int32Array, // [N, T]
  N: number,
  T: number,
  mask?: ArrayLike<number>, // [N, T]
): LossAndGrad<A> {
  const { vocabSize: V } = layout.config;
  const R = N * T;
  const ctor = (params instanceof Float64Array ? Float64Array : Float32Array) as FloatCtor;
  const acts = createActivations(layout.config, N, T, ctor);
  const logits = forward(layout, params, tokens, N, T, acts);

  const targets = nextTokenTargets(tokens, N, T); // [R]
  const rowMask = new ctor(R); // [R] weight of row (n,t) = mask of its target token
  let total = 0;
  for (let n = 0; n < N; n++) {
    for (let t = 0; t + 1 < T; t++) {
      const m = mask ? mask[n * T + t + 1] : 1;
      rowMask[n * T + t] = m;
      total += m;
    }
  }
  const logp = new ctor(R); // [R]
  const entropy = new ctor(R); // [R]
  logitsStats(logp, entropy, logits, targets, { R, V, invTemp: 1 });
  const dlogp = new ctor(R); // [R]
  const seqLoss = new ctor(N); // [N]
  ceLoss(dlogp, seqLoss, logp, rowMask, N, T, total > 0 ? 1 / total : 0);
  let loss = 0;
  for (let n = 0; n < N; n++) loss += seqLoss[n];

  const dlogits = new ctor(R * V); // [R,V]
  logitsBackward(dlogits, logits, targets, dlogp, new ctor(R), { R, V, invTemp: 1 });
  const grads = new (params.constructor as new (n: number) => A)(layout.numParams);
  backward(layout, params, grads, tokens, N, T, acts, dlogits);
  return { loss, logits, grads };
}

export interface AdamWHyper {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** Global grad-norm clip; 0 = off. */
  maxGradNorm: number;
}

/** Adam moments for one parameter buffer; step counts completed updates. */
export interface AdamState {
  m: F; // [P]
  v: F; // [P]
  /** Number of updates applied so far (the next one uses step + 1). */
  step: number;
}

export function createAdamState(layout: ParamLayout, ctor: FloatCtor = Float32Array): AdamState {
  return { m: new ctor(layout.numParams), v: new ctor(layout.numParams), step: 0 };
}

/**
 * One optimiser step over the whole buffer: gradNorm, then adamw (one parameter buffer). Returns the
 * pre-clip gradient norm and whether the step was skipped for a non-finite gradient (then
 * params, moments and state.step are unchanged).
 */
export function adamwStep(
  layout: ParamLayout,
  params: F, // [P] (updated)
  grads: F, // [P]
  state: AdamState,
  hp: AdamWHyper,
  decay: F = buildDecayMask(layout), // [P]
): { gradNorm: number; skipped: boolean } {
  const P = layout.numParams;
  const norm = new Float64Array(2);
  gradNorm(norm, grads, P);
  const skipped = norm[1] !== 0;
  if (!skipped) state.step++;
  adamw(
    params,
    grads,
    state.m,
    state.v,
    decay,
    norm,
    P,
    hp.lr,
    hp.beta1,
    hp.beta2,
    hp.eps,
    hp.weightDecay,
    Math.max(1, state.step),
    hp.maxGradNorm,
  );
  return { gradNorm: norm[0], skipped };
}
