// The GPT-2 on the GPU: the one parameter buffer (with grads and Adam moments mirroring it)
// and the teacher-forced forward/backward plans: the computation of src/reference/model.ts (which
// it is tested against), with the layernorms fused into the next matmul's prologue, the residual
// adds and gelu into the matmuls' epilogues, and each linear layer's backward in one dispatch.

import { buildDecayMask, type ParamLayout, type TensorSlot } from './layout';
import { Plan } from './gpu-plan';
import { createStorage, readF32, writeArray } from '../gpu/buffers';
import {
  type Buf,
  attentionBackwardOp,
  attentionForwardOp,
  embeddingBackwardOp,
  embeddingForwardOp,
  layernormBackwardOp,
  linearBackwardOp,
  matmulOp,
  type MatmulVariant,
  type MatmulEpilogue,
  type LayernormPrologue,
  defaultMatmulVariant,
} from '../gpu/ops';

/** A tensor of the parameter (or gradient) buffer as a binding slice. */
export function slotBinding(buffer: GPUBuffer, slot: TensorSlot): GPUBufferBinding {
  return { buffer, offset: slot.offset * 4, size: slot.size * 4 };
}

/** Parameters, gradients, Adam moments and the decay mask: five buffers of P floats. */
export class GpuParams {
  readonly P: number;
  readonly params: GPUBuffer; // [P]
  readonly grads: GPUBuffer; // [P]
  readonly m: GPUBuffer; // [P]
  readonly v: GPUBuffer; // [P]
  readonly decay: GPUBuffer; // [P] 1 on tensors with slot.decay

  constructor(
    readonly device: GPUDevice,
    readonly layout: ParamLayout,
    initial: Float32Array,
  ) {
    const P = (this.P = layout.numParams);
    if (initial.length !== P) throw new RangeError(`initial params have ${initial.length} floats, layout needs ${P}`);
    const bytes = P * 4;
    const max = device.limits.maxStorageBufferBindingSize;
    if (bytes > max) {
      throw new RangeError(`the model needs a ${bytes}-byte parameter buffer; this adapter binds at most ${max} bytes`);
    }
    this.params = createStorage(device, bytes, 'params');
    this.grads = createStorage(device, bytes, 'grads');
    this.m = createStorage(device, bytes, 'adam m');
    this.v = createStorage(device, bytes, 'adam v');
    this.decay = createStorage(device, bytes, 'decay mask');
    writeArray(device, this.decay, buildDecayMask(layout, Float32Array) as Float32Array);
    this.load(initial);
  }

  /** Replace the weights and reset the optimiser state. */
  load(params: Float32Array): void {
    writeArray(this.device, this.params, params);
    const zeros = new Float32Array(this.P);
    this.device.queue.writeBuffer(this.m, 0, zeros);
    this.device.queue.writeBuffer(this.v, 0, zeros);
  }

  readParams(): Promise<Float32Array> {
    return readF32(this.device, this.params, this.P);
  }

  readGrads(): Promise<Float32Array> {
    return readF32(this.device, this.grads, this.P);
  }

  destroy(): void {
    for (const b of [this.params, this.grads, this.m, this.v, this.decay]) b.destroy();
  }
}

interface LayerBuffers {
  ln1: GPUBuffer;
  ln1Stats: GPUBuffer; // [R,C], [2,R] (mean, then rstd)
  qkv: GPUBuffer; // [R,3C]
  atty: GPUBuffer; // [R,C]
  att: GPUBuffer; // [N,NH,T,T]
  resid2: GPUBuffer; // [R,C]
  ln2: GPUBuffer;
  ln2Stats: GPUBuffer;
  fch: GPUBuffer; // [R,4C]
  fchGelu: GPUBuffer; // [R,4C]
  resid3: GPUBuffer; // [R,C]
}

/** Activations of a teacher-forced pass over N sequences of T tokens (R = N·T rows). */
export class GpuActivations {
  readonly encoded: GPUBuffer; // [R,C]
  readonly layers: LayerBuffers[];
  readonly lnf: GPUBuffer;
  readonly lnfStats: GPUBuffer; // [2,R]
  readonly logits: GPUBuffer; // [R,V]
  readonly dlogits: GPUBuffer; // [R,V]
  // activation gradients (scratch)
  readonly dresid: GPUBuffer; // [R,C]
  readonly dln: GPUBuffer; // [R,C]
  readonly datty: GPUBuffer; // [R,C]
  readonly dqkv: GPUBuffer; // [R,3C]
  readonly dfch: GPUBuffer; // [R,4C]

  constructor(
    device: GPUDevice,
    layout: ParamLayout,
    readonly N: number,
    readonly T: number,
  ) {
    const { nEmbd: C, vocabSize: V, nHead: NH, nLayer: L, nPositions } = layout.config;
    if (T > nPositions) throw new RangeError(`T (${T}) exceeds model.nPositions (${nPositions})`);
    const R = N * T;
    const f = (n: number, label: string) => createStorage(device, n * 4, label);
    this.encoded = f(R * C, 'encoded');
    this.layers = [];
    for (let l = 0; l < L; l++) {
      this.layers.push({
        ln1: f(R * C, `h${l}.ln1`),
        ln1Stats: f(2 * R, `h${l}.ln1 stats`),
        qkv: f(R * 3 * C, `h${l}.qkv`),
        atty: f(R * C, `h${l}.atty`),
        att: f(N * NH * T * T, `h${l}.att`),
        resid2: f(R * C, `h${l}.resid2`),
        ln2: f(R * C, `h${l}.ln2`),
        ln2Stats: f(2 * R, `h${l}.ln2 stats`),
        fch: f(R * 4 * C, `h${l}.fch`),
        fchGelu: f(R * 4 * C, `h${l}.fch gelu`),
        resid3: f(R * C, `h${l}.resid3`),
      });
    }
    this.lnf = f(R * C, 'lnf');
    this.lnfStats = f(2 * R, 'lnf stats');
    this.logits = f(R * V, 'logits');
    this.dlogits = f(R * V, 'dlogits');
    this.dresid = f(R * C, 'dresid');
    this.dln = f(R * C, 'dln');
    this.datty = f(R * C, 'datty');
    this.dqkv = f(R * 3 * C, 'dqkv');
    this.dfch = f(R * 4 * C, 'dfch');
  }
}

/**
 * Forward over tokens [N,T] with the weights in `params` (the policy's, or a frozen
 * reference copy): fills acts and acts.logits [N·T, V].
 */
export function forwardPlan(
  device: GPUDevice,
  layout: ParamLayout,
  params: GPUBuffer,
  tokens: Buf,
  acts: GpuActivations,
  variant: MatmulVariant = defaultMatmulVariant(),
): Plan {
  const { nEmbd: C, vocabSize: V, nHead: NH } = layout.config;
  const { N, T } = acts;
  const R = N * T;
  const p = (s: TensorSlot) => slotBinding(params, s);
  const plan = new Plan();
  plan.dispatch(embeddingForwardOp(device, acts.encoded, tokens, p(layout.wte), p(layout.wpe), { N, T, C, V }));
  // Each layernorm runs in the next matmul's prologue, which also stores its rows and statistics.
  const ln = (w: TensorSlot, b: TensorSlot, out: GPUBuffer, stats: GPUBuffer): LayernormPrologue => ({
    w: p(w),
    b: p(b),
    ln: out,
    stats,
  });
  const mm = (
    out: GPUBuffer,
    inp: GPUBuffer,
    w: TensorSlot,
    bias: TensorSlot | null,
    K: number,
    N: number,
    transB: boolean,
    epilogue: MatmulEpilogue | null,
    prologue: LayernormPrologue | null,
  ) => matmulOp(device, out, inp, p(w), bias && p(bias), { M: R, K, N, transB }, variant, epilogue, prologue);
  let residual = acts.encoded;
  layout.blocks.forEach((b, l) => {
    const a = acts.layers[l];
    plan
      // qkv = ln1(residual)·W + b
      .dispatch(mm(a.qkv, residual, b.qkvw, b.qkvb, C, 3 * C, false, null, ln(b.ln1w, b.ln1b, a.ln1, a.ln1Stats)))
      .dispatch(attentionForwardOp(device, a.atty, a.att, a.qkv, { N, T, C, NH }))
      // resid2 = residual + atty·W + b (the residual add in the matmul's epilogue)
      .dispatch(mm(a.resid2, a.atty, b.attprojw, b.attprojb, C, C, false, { kind: 'residual', residual }, null))
      // fchGelu = gelu(fch), fch = ln2(resid2)·W + b kept for backward
      .dispatch(
        mm(
          a.fchGelu,
          a.resid2,
          b.fcw,
          b.fcb,
          C,
          4 * C,
          false,
          { kind: 'gelu', pre: a.fch },
          ln(b.ln2w, b.ln2b, a.ln2, a.ln2Stats),
        ),
      )
      .dispatch(
        mm(a.resid3, a.fchGelu, b.fcprojw, b.fcprojb, 4 * C, C, false, { kind: 'residual', residual: a.resid2 }, null),
      );
    residual = a.resid3;
  });
  // tied LM head: logits = lnf(residual) · wteᵀ
  plan.dispatch(
    mm(
      acts.logits,
      residual,
      layout.wte,
      null,
      C,
      V,
      true,
      null,
      ln(layout.lnfw, layout.lnfb, acts.lnf, acts.lnfStats),
    ),
  );
  return plan;
}

/**
 * Backward from acts.dlogits [N·T, V] into grads (+=; the caller clears grads once per
 * optimiser step). Mirrors backward() in src/reference/model.ts.
 */
export function backwardPlan(
  device: GPUDevice,
  layout: ParamLayout,
  params: GPUBuffer,
  grads: GPUBuffer,
  tokens: Buf,
  acts: GpuActivations,
  variant: MatmulVariant = defaultMatmulVariant(),
): Plan {
  const { nEmbd: C, vocabSize: V, nHead: NH, nLayer: L } = layout.config;
  const { N, T } = acts;
  const R = N * T;
  const p = (s: TensorSlot) => slotBinding(params, s);
  const g = (s: TensorSlot) => slotBinding(grads, s);
  const { dresid, dln, datty, dqkv, dfch, dlogits } = acts;
  // A layernorm's backward: dresid (+=) through it from dln, its weight and bias grads (+=).
  const lnBackward = (w: TensorSlot, b: TensorSlot, inp: Buf, stats: Buf) =>
    layernormBackwardOp(device, dresid, g(w), g(b), dln, inp, p(w), stats, R, C);
  const plan = new Plan();
  // tied head: dlnf (=) dlogits·wte, dwte (+=) dlogitsᵀ·lnf
  plan
    .dispatch(matmulOp(device, dln, dlogits, p(layout.wte), null, { M: R, K: V, N: C }, variant))
    .dispatch(
      matmulOp(
        device,
        g(layout.wte),
        dlogits,
        acts.lnf,
        null,
        { M: V, K: R, N: C, transA: true, accumulate: true },
        variant,
      ),
    )
    .clear(dresid);
  const lastResid = L > 0 ? acts.layers[L - 1].resid3 : acts.encoded;
  plan.dispatch(lnBackward(layout.lnfw, layout.lnfb, lastResid, acts.lnfStats));
  for (let l = L - 1; l >= 0; l--) {
    const b = layout.blocks[l];
    const a = acts.layers[l];
    const residual = l > 0 ? acts.layers[l - 1].resid3 : acts.encoded;
    // The residual backward is the identity: dresid keeps flowing down, branches add into it.
    // Each linear layer's input, weight and bias grads are one linear_backward dispatch.
    plan
      // MLP branch; dfch = gelu'(fch)·(dresid·fcprojwᵀ): gelu's backward in the same dispatch
      .dispatch(
        linearBackwardOp(device, dfch, g(b.fcprojw), g(b.fcprojb), dresid, a.fchGelu, p(b.fcprojw), a.fch, R, 4 * C, C),
      )
      .dispatch(linearBackwardOp(device, dln, g(b.fcw), g(b.fcb), dfch, a.ln2, p(b.fcw), null, R, C, 4 * C))
      .dispatch(lnBackward(b.ln2w, b.ln2b, a.resid2, a.ln2Stats))
      // attention branch
      .dispatch(
        linearBackwardOp(device, datty, g(b.attprojw), g(b.attprojb), dresid, a.atty, p(b.attprojw), null, R, C, C),
      )
      .dispatch(attentionBackwardOp(device, dqkv, datty, a.qkv, a.att, { N, T, C, NH }))
      .dispatch(linearBackwardOp(device, dln, g(b.qkvw), g(b.qkvb), dqkv, a.ln1, p(b.qkvw), null, R, C, 3 * C))
      .dispatch(lnBackward(b.ln1w, b.ln1b, residual, a.ln1Stats));
  }
  plan.dispatch(embeddingBackwardOp(device, g(layout.wte), g(layout.wpe), dresid, tokens, { N, T, C, V }));
  return plan;
}
