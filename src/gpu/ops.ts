// GPU builders for the kernels of docs/engine.md: one function per kernel, with its CPU
// twin's name + "Op" and argument order (src/reference/ops.ts, decode.ts), `device` first
// and GPU buffers instead of arrays. Each returns the Dispatch[] to encode (usually one;
// two for the two-stage kernels). Built once, encoded many times: everything (pipelines,
// bind groups, uniform and scratch buffers) is made here, nothing when encoding.
//
// A tensor argument is a whole GPUBuffer or a GPUBufferBinding ({buffer, offset, size}) for a
// slice of a bigger buffer; WebGPU wants such offsets to be multiples of
// device.limits.minStorageBufferOffsetAlignment (256 bytes on most adapters).
//
// Scalars that change between steps live in uniform buffers the caller rewrites with the
// write*Params helpers (adamw: lr schedule and step; sample_token: seed and step; pg_loss and
// ce_loss: the batch's normalisers). Those builders take either such a buffer or a plain
// record (then they make the buffer themselves).
//
// The layers' kernels are here; the embeddings (forward, backward, decode) in ops-embedding.ts,
// matmul and the bias gradient in ops-matmul.ts, a linear layer's fused backward in
// ops-linear.ts, the training kernels (logits, losses, norms, AdamW) in ops-train.ts, sampling and
// decoding in ops-decode.ts, shared checks in op-plumbing.ts; all are exported from here.
//
// Letters (docs/architecture.md, "Conventions"): N sequences, T time, C channels, V vocab, NH heads, hd = C/NH,
// R rows (= N·T), P parameters, OC output channels; M, K, N in matmul are its own.

import { createStorage } from './buffers';
import { makeDispatch, type Buf, type Dispatch } from './dispatch';
import * as work from './kernel-work';
import { attentionForwardShape, type AttentionLayout } from './attention-layout';
import { SUM_ROWS, type AttentionShape } from '../core/abi';
import {
  checkAttentionShape,
  grid,
  need,
  needAll,
  positiveInts,
  sumChunks,
  u32Uniform,
  SUM_COLS,
  SUM_LANES,
  WG,
} from './op-plumbing';

export type { Buf };
export * from './ops-matmul';
export * from './ops-linear';
export * from './ops-embedding';
export * from './ops-train';
export * from './ops-decode';
export { grid } from './op-plumbing';
export { ATTENTION_LAYOUTS, type AttentionLayout } from './attention-layout';

// ─── layernorm ──────────────────────────────────────────────────────────────────────────────

/**
 * out (=), stats (=): LayerNorm over the rows of inp, eps 1e-5. stats [2, R] holds the twin's
 * mean [R] then rstd [R], in one binding (what layernorm_backward and matmul's prologue read).
 */
export function layernormForwardOp(
  device: GPUDevice,
  out: Buf, // [R, C]
  stats: Buf, // [2, R]
  inp: Buf, // [R, C]
  w: Buf, // [C]
  b: Buf, // [C]
  R: number,
  C: number,
): Dispatch[] {
  const op = 'layernormForward';
  checkLayernormShape(op, R, C, { out, inp }, { w, b }, stats);
  return [
    makeDispatch(device, {
      kernel: 'layernorm_forward',
      bindings: [out, stats, inp, w, b],
      uniform: u32Uniform(device, [R, C], op),
      workgroups: grid(R, WG),
      work: work.layernormForwardWork(R, C),
    }),
  ];
}

/** dinp (+=), dw (+=), db (+=) with the stats [2, R] (mean, then rstd) saved by the forward. */
export function layernormBackwardOp(
  device: GPUDevice,
  dinp: Buf, // [R, C]
  dw: Buf, // [C]
  db: Buf, // [C]
  dout: Buf, // [R, C]
  inp: Buf, // [R, C]
  w: Buf, // [C]
  stats: Buf, // [2, R]
  R: number,
  C: number,
): Dispatch[] {
  const op = 'layernormBackward';
  checkLayernormShape(op, R, C, { dinp, dout, inp }, { dw, db, w }, stats);
  const Z = sumChunks(op, R, SUM_ROWS);
  const CG = Math.ceil(C / SUM_COLS); // dw/db workgroups, then the dinp ones
  const groups = CG + Math.ceil(R / (SUM_COLS * SUM_LANES));
  if (groups > 65535) throw new RangeError(`${op}: R=${R} rows and C=${C} need ${groups} workgroups; at most 65535`);
  const uniform = u32Uniform(device, [R, C, Z, CG], op);
  return [
    makeDispatch(device, {
      kernel: 'layernorm_backward',
      bindings: [dinp, dw, db, dout, inp, w, stats],
      uniform,
      overrides: { CW: SUM_COLS, ZL: SUM_LANES, ROWS: SUM_ROWS },
      workgroups: [groups, 1, 1],
      work: work.layernormBackwardWork(R, C),
    }),
  ];
}

/** What both layernorm builders check: R and C, the [R, C] buffers `rows`, the [C] ones `channels` and stats [2, R]. */
function checkLayernormShape(
  op: string,
  R: number,
  C: number,
  rows: Record<string, Buf>,
  channels: Record<string, Buf>,
  stats: Buf,
): void {
  positiveInts(op, { R, C });
  needAll(op, rows, R * C);
  needAll(op, channels, C);
  need(op, 'stats', stats, 2 * R);
}

// ─── attention ──────────────────────────────────────────────────────────────────────────────

/** out (=) and att (=): causal multi-head attention over qkv rows [q | k | v]; layout: ./attention-layout.ts. */
export function attentionForwardOp(
  device: GPUDevice,
  out: Buf, // [N, T, C]
  att: Buf, // [N, NH, T, T]
  qkv: Buf, // [N, T, 3C]
  shape: AttentionShape,
  layout: AttentionLayout = 'threads',
): Dispatch[] {
  const { N, T, C, NH } = shape;
  const op = 'attentionForward';
  checkAttentionShape(op, shape, { qkv });
  need(op, 'out', out, N * T * C);
  need(op, 'att', att, N * NH * T * T);
  const launch = attentionForwardShape(layout, N * NH * T, T, WG);
  return [
    makeDispatch(device, {
      kernel: launch.kernel,
      overrides: launch.overrides,
      bindings: [out, att, qkv],
      uniform: u32Uniform(device, [N, T, C, NH], op),
      workgroups: launch.workgroups,
      work: work.attentionForwardWork(N, T, C, NH),
    }),
  ];
}

/** dqkv (=) from dout and the forward's att. Allocates its [N,NH,T,T] scratch here. */
export function attentionBackwardOp(
  device: GPUDevice,
  dqkv: Buf, // [N, T, 3C]
  dout: Buf, // [N, T, C]
  qkv: Buf, // [N, T, 3C]
  att: Buf, // [N, NH, T, T]
  shape: AttentionShape,
): Dispatch[] {
  const { N, T, C, NH } = shape;
  const op = 'attentionBackward';
  checkAttentionShape(op, shape, { dqkv, qkv });
  need(op, 'dout', dout, N * T * C);
  need(op, 'att', att, N * NH * T * T);
  const dz = createStorage(device, N * NH * T * T * 4, 'attention_backward dz');
  const uniform = u32Uniform(device, [N, T, C, NH], op);
  return [
    makeDispatch(device, {
      kernel: 'attention_backward',
      entryPoint: 'scores',
      bindings: [null, dout, qkv, att, dz],
      uniform,
      workgroups: grid(N * NH * T, WG),
      work: work.attentionBackwardScoresWork(N, T, C, NH),
    }),
    makeDispatch(device, {
      kernel: 'attention_backward',
      entryPoint: 'grads',
      bindings: [dqkv, dout, qkv, att, dz],
      uniform,
      workgroups: grid(N * T * 3 * C, WG),
      work: work.attentionBackwardGradsWork(N, T, C, NH),
    }),
  ];
}

// ─── elementwise ────────────────────────────────────────────────────────────────────────────

/** `reads`/`writes`: arrays of n the kernel reads and writes (a += output counts in both). */
function elementwise(
  device: GPUDevice,
  op: string,
  kernel: string,
  bufs: Record<string, Buf>,
  n: number,
  reads: number,
  writes: number,
): Dispatch[] {
  positiveInts(op, { n });
  needAll(op, bufs, n);
  return [
    makeDispatch(device, {
      kernel,
      bindings: Object.values(bufs),
      uniform: u32Uniform(device, [n], op),
      workgroups: grid(n, WG),
      work: work.elementwiseWork(n, reads, writes),
    }),
  ];
}

/** out[n] (=) gelu(inp) (tanh approximation). */
export function geluForwardOp(device: GPUDevice, out: Buf, inp: Buf, n: number): Dispatch[] {
  return elementwise(device, 'geluForward', 'gelu_forward', { out, inp }, n, 1, 1);
}

/** dinp[n] (=) gelu'(inp)·dout. */
export function geluBackwardOp(device: GPUDevice, dinp: Buf, inp: Buf, dout: Buf, n: number): Dispatch[] {
  return elementwise(device, 'geluBackward', 'gelu_backward', { dinp, inp, dout }, n, 2, 1);
}

/** out[n] (=) a + b (residual forward). */
export function addOp(device: GPUDevice, out: Buf, a: Buf, b: Buf, n: number): Dispatch[] {
  return elementwise(device, 'add', 'add', { out, a, b }, n, 2, 1);
}

/** dst[n] (+=) src (residual backward). */
export function accumulateOp(device: GPUDevice, dst: Buf, src: Buf, n: number): Dispatch[] {
  return elementwise(device, 'accumulate', 'accumulate', { dst, src }, n, 2, 1);
}
