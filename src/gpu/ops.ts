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
// Letters (docs/architecture.md, "Conventions"): N sequences, T time, C channels, V vocab, NH heads, hd = C/NH,
// R rows (= N·T), P parameters, OC output channels; M, K, N in matmul are its own.

import { createStorage, groups1d, uniformFrom, writeRecord } from './buffers';
import { isBinding, makeDispatch, type Buf, type Dispatch, type UniformValues } from './dispatch';

export type { Buf };
import * as work from './kernel-work';
import {
  ADAMW_BLOCK, CE_BLOCK, GRAD_NORM_WG, gradNormGroups, PG_BLOCK, PG_STATS, REGULATOR, SAMPLE_BLOCK, splitKChunks, SUM_ROWS,
  type AdamwParams, type CeLossParams, type GradNormOptions, type ParamBlock, type PgLossParams, type Regulator, type SampleTokenParams,
} from '../core/abi';

// ─── plumbing ───────────────────────────────────────────────────────────────────────────────

function isGpuBuffer(x: unknown): x is GPUBuffer {
  return typeof (x as GPUBuffer | null)?.mapAsync === 'function';
}

/** 4-byte elements visible through `b`. */
function elementsIn(b: Buf): number {
  if (!isBinding(b)) return Math.floor(b.size / 4);
  return Math.floor((b.size ?? b.buffer.size - (b.offset ?? 0)) / 4);
}

/** Throws, naming the op and the argument, when `b` holds fewer than `count` elements. */
function need(op: string, name: string, b: Buf, count: number): void {
  const have = elementsIn(b);
  if (have < count) throw new RangeError(`${op}: ${name} holds ${have} elements, needs ${count}`);
}

function positiveInts(op: string, dims: Record<string, number>): void {
  for (const [k, v] of Object.entries(dims)) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${op}: ${k} must be a positive integer, got ${v}`);
  }
}

/**
 * Workgroup counts for `threads` threads at `wg` per group, as a 2-D grid within the 65535
 * per-dimension limit. Kernels dispatched with it index `gid.x + gid.y·nwg.x·WG` (or, with
 * wg = 1 and one workgroup per row, `wid.x + wid.y·nwg.x`) and skip indices past the end.
 */
export function grid(threads: number, wg: number): [number, number, number] {
  const g = Math.max(1, Math.ceil(threads / wg));
  if (g <= 65535) return [g, 1, 1];
  const y = Math.ceil(g / 65535);
  if (y > 65535) throw new RangeError(`dispatch of ${threads} threads is too large`);
  return [Math.ceil(g / y), y, 1];
}

const WG = 64;

/** Workgroup size for kernels that give one workgroup to a row of V: a power of two ≤ 64. */
function rowWorkgroup(V: number): number {
  let w = 1;
  while (w < V && w < 64) w *= 2;
  return w;
}

const dummies = new WeakMap<GPUDevice, GPUBuffer>();

/** A 16-byte storage buffer bound where a kernel's optional input is absent. */
function dummyBuffer(device: GPUDevice): GPUBuffer {
  let d = dummies.get(device);
  if (!d) {
    d = createStorage(device, 16, 'unused binding');
    dummies.set(device, d);
  }
  return d;
}

// Uniform records (ParamBlock, src/core/abi.ts) whose first `hyperWords` words change between
// steps; the shape follows. The builder writes the shape once; a buffer may serve builders of
// one shape only.
const blockShapes = new WeakMap<GPUBuffer, string>();

function createBlock<H>(device: GPUDevice, block: ParamBlock<H>, h: H): GPUBuffer {
  const words = Math.ceil((block.hyperWords + block.shapeWords) / 4) * 4;
  const buf = device.createBuffer({
    label: `${block.name} params`,
    size: words * 4,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  writeBlock(device, buf, block, h);
  return buf;
}

function writeBlock<H>(device: GPUDevice, buf: GPUBuffer, block: ParamBlock<H>, h: H): void {
  const values = block.encode(h);
  const bytes = new ArrayBuffer(block.hyperWords * 4);
  writeRecord(new DataView(bytes), values);
  device.queue.writeBuffer(buf, 0, bytes);
}

function bindBlock<H>(device: GPUDevice, arg: GPUBuffer | H, block: ParamBlock<H>, shape: UniformValues): GPUBuffer {
  const buf = isGpuBuffer(arg) ? arg : createBlock(device, block, arg);
  const key = shape.map(([v]) => v).join(',');
  const prev = blockShapes.get(buf);
  if (prev !== undefined && prev !== key) {
    throw new Error(`${block.name}: this params buffer already serves shape (${prev}), not (${key}); make one per shape`);
  }
  blockShapes.set(buf, key);
  const bytes = new ArrayBuffer(shape.length * 4);
  writeRecord(new DataView(bytes), shape);
  device.queue.writeBuffer(buf, block.hyperWords * 4, bytes);
  return buf;
}

// ─── embedding ──────────────────────────────────────────────────────────────────────────────

/** out[n,t,:] (=) wte[tokens[n,t],:] + wpe[t,:]; ids outside [0,V) read a zero row. */
export function embeddingForwardOp(
  device: GPUDevice,
  out: Buf,    // [N·T, C]
  tokens: Buf, // [N, T] i32
  wte: Buf,    // [V, C]
  wpe: Buf,    // [Tmax ≥ T, C]
  N: number, T: number, C: number, V: number,
): Dispatch[] {
  const op = 'embeddingForward';
  positiveInts(op, { N, T, C, V });
  need(op, 'out', out, N * T * C); need(op, 'tokens', tokens, N * T);
  need(op, 'wte', wte, V * C); need(op, 'wpe', wpe, T * C);
  return [makeDispatch(device, {
    kernel: 'embedding_forward',
    bindings: [out, tokens, wte, wpe],
    uniform: uniformFrom(device, [[N, 'u32'], [T, 'u32'], [C, 'u32'], [V, 'u32']], op),
    workgroups: grid(N * T * C, WG),
    work: work.embeddingForwardWork(N, T, C, V),
  })];
}

/** dwte (+=) and dwpe (+=) from dout; deterministic (no atomics). */
export function embeddingBackwardOp(
  device: GPUDevice,
  dwte: Buf,   // [V, C]
  dwpe: Buf,   // [Tmax ≥ T, C]
  dout: Buf,   // [N·T, C]
  tokens: Buf, // [N, T] i32
  N: number, T: number, C: number, V: number,
): Dispatch[] {
  const op = 'embeddingBackward';
  positiveInts(op, { N, T, C, V });
  need(op, 'dwte', dwte, V * C); need(op, 'dwpe', dwpe, T * C);
  need(op, 'dout', dout, N * T * C); need(op, 'tokens', tokens, N * T);
  return [makeDispatch(device, {
    kernel: 'embedding_backward',
    bindings: [dwte, dwpe, dout, tokens],
    uniform: uniformFrom(device, [[N, 'u32'], [T, 'u32'], [C, 'u32'], [V, 'u32']], op),
    workgroups: grid((V + T) * C, WG),
    work: work.embeddingBackwardWork(N, T, C, V),
  })];
}

// ─── layernorm ──────────────────────────────────────────────────────────────────────────────

/** out (=), mean (=), rstd (=): LayerNorm over the rows of inp, eps 1e-5. */
export function layernormForwardOp(
  device: GPUDevice,
  out: Buf,  // [R, C]
  mean: Buf, // [R]
  rstd: Buf, // [R]
  inp: Buf,  // [R, C]
  w: Buf,    // [C]
  b: Buf,    // [C]
  R: number, C: number,
): Dispatch[] {
  const op = 'layernormForward';
  positiveInts(op, { R, C });
  need(op, 'out', out, R * C); need(op, 'mean', mean, R); need(op, 'rstd', rstd, R);
  need(op, 'inp', inp, R * C); need(op, 'w', w, C); need(op, 'b', b, C);
  return [makeDispatch(device, {
    kernel: 'layernorm_forward',
    bindings: [out, mean, rstd, inp, w, b],
    uniform: uniformFrom(device, [[R, 'u32'], [C, 'u32']], op),
    workgroups: grid(R, WG),
    work: work.layernormForwardWork(R, C),
  })];
}

/** dinp (+=), dw (+=), db (+=) with the mean/rstd saved by the forward. */
export function layernormBackwardOp(
  device: GPUDevice,
  dinp: Buf, // [R, C]
  dw: Buf,   // [C]
  db: Buf,   // [C]
  dout: Buf, // [R, C]
  inp: Buf,  // [R, C]
  w: Buf,    // [C]
  mean: Buf, // [R]
  rstd: Buf, // [R]
  R: number, C: number,
): Dispatch[] {
  const op = 'layernormBackward';
  positiveInts(op, { R, C });
  need(op, 'dinp', dinp, R * C); need(op, 'dw', dw, C); need(op, 'db', db, C);
  need(op, 'dout', dout, R * C); need(op, 'inp', inp, R * C); need(op, 'w', w, C);
  need(op, 'mean', mean, R); need(op, 'rstd', rstd, R);
  const Z = Math.ceil(R / SUM_ROWS);
  if (Z > 65535) throw new RangeError(`${op}: R=${R} rows make ${Z} chunks of ${SUM_ROWS}; at most 65535`);
  const part = createStorage(device, Z * 2 * C * 4, `${op} chunk sums`);
  const uniform = uniformFrom(device, [[R, 'u32'], [C, 'u32'], [Z, 'u32']], op);
  const overrides = { WG, ROWS: SUM_ROWS };
  return [
    makeDispatch(device, {
      kernel: 'layernorm_backward', bindings: [dinp, null, null, dout, inp, w, mean, rstd, null], uniform, overrides,
      workgroups: grid(R, WG), work: work.layernormBackwardWork(R, C),
    }),
    makeDispatch(device, {
      kernel: 'layernorm_backward', entryPoint: 'params_partial', bindings: [null, null, null, dout, inp, null, mean, rstd, part],
      uniform, overrides, workgroups: [groups1d(C, WG), Z, 1], work: work.layernormParamsPartialWork(R, C),
    }),
    makeDispatch(device, {
      kernel: 'layernorm_backward', entryPoint: 'params_finish', bindings: [null, dw, db, null, null, null, null, null, part],
      uniform, overrides, workgroups: [groups1d(C, WG), 1, 1], work: work.chunkSumsWork(Z, 2 * C),
    }),
  ];
}

// ─── matmul ─────────────────────────────────────────────────────────────────────────────────

/**
 * `naive`: one thread per output; `tuned` (default): one thread per 4×4 register tile, no
 * shared memory (best on SwiftShader); `tiled`: 4×4 register tiles fed from shared-memory
 * tiles (fewer global loads; the usual winner on real GPUs; benchmark before switching).
 */
export type MatmulVariant = 'naive' | 'tuned' | 'tiled';
export const MATMUL_VARIANTS: readonly MatmulVariant[] = ['naive', 'tuned', 'tiled'];

let matmulDefault: MatmulVariant = 'tuned';

/** The variant matmulOp uses when none is given (a benchmark switches it for a whole plan). */
export function setDefaultMatmulVariant(v: MatmulVariant): void {
  if (!MATMUL_VARIANTS.includes(v)) throw new RangeError(`matmul variant must be one of ${MATMUL_VARIANTS.join(', ')}, got ${String(v)}`);
  matmulDefault = v;
}

export function defaultMatmulVariant(): MatmulVariant {
  return matmulDefault;
}

const MM_WX = 8;
const MM_WY = 8;

/**
 * out[M,N] (= or += when accumulate) = op(a)·op(b) (+ bias[N]); op(a) is [M,K] (stored
 * [K,M] when transA), op(b) is [K,N] (stored [N,K] when transB).
 */
export function matmulOp(
  device: GPUDevice,
  out: Buf,         // [M, N]
  a: Buf,           // [M, K], or [K, M] if transA
  b: Buf,           // [K, N], or [N, K] if transB
  bias: Buf | null, // [N] or null
  M: number, K: number, N: number,
  transA: boolean, transB: boolean, accumulate: boolean,
  variant: MatmulVariant = matmulDefault,
): Dispatch[] {
  const op = 'matmul';
  positiveInts(op, { M, K, N });
  need(op, 'out', out, M * N); need(op, 'a', a, M * K); need(op, 'b', b, K * N);
  if (bias) need(op, 'bias', bias, N);
  if (!MATMUL_VARIANTS.includes(variant)) throw new RangeError(`matmul: unknown variant ${String(variant)}`);
  const Z = splitKChunks(M, K, N, transA, bias !== null);
  if (Z > 1) return matmulSplitK(device, out, a, b, M, K, N, transA, transB, accumulate, Z);
  const tile = variant === 'naive' ? 1 : 4;
  const wx = Math.ceil(Math.ceil(N / tile) / MM_WX);
  const wy = Math.ceil(Math.ceil(M / tile) / MM_WY);
  if (wx > 65535 || wy > 65535) throw new RangeError(`matmul: ${M}×${N} output needs too many workgroups`);
  return [makeDispatch(device, {
    kernel: 'matmul',
    entryPoint: variant,
    bindings: [out, a, b, bias ?? dummyBuffer(device)],
    uniform: uniformFrom(device, [[M, 'u32'], [K, 'u32'], [N, 'u32']], op),
    overrides: {
      TRANS_A: transA ? 1 : 0, TRANS_B: transB ? 1 : 0, ACCUM: accumulate ? 1 : 0, HAS_BIAS: bias ? 1 : 0,
      WX: MM_WX, WY: MM_WY,
    },
    workgroups: [wx, wy, 1],
    work: work.matmulWork(M, K, N, transA, transB, accumulate, bias !== null),
  })];
}

/** dbias[OC] (+=) column sums of dout[R,OC]. */
export { splitKChunks, SUM_ROWS };

export function biasBackwardOp(
  device: GPUDevice,
  dbias: Buf, // [OC]
  dout: Buf,  // [R, OC]
  R: number, OC: number,
): Dispatch[] {
  const op = 'biasBackward';
  positiveInts(op, { R, OC });
  need(op, 'dbias', dbias, OC); need(op, 'dout', dout, R * OC);
  const Z = Math.ceil(R / SUM_ROWS);
  if (Z > 65535) throw new RangeError(`${op}: R=${R} rows make ${Z} chunks of ${SUM_ROWS}; at most 65535`);
  const part = createStorage(device, Z * OC * 4, `${op} chunk sums`);
  const uniform = uniformFrom(device, [[R, 'u32'], [OC, 'u32'], [Z, 'u32']], op);
  const overrides = { WG, ROWS: SUM_ROWS };
  return [
    makeDispatch(device, {
      kernel: 'bias_backward', entryPoint: 'partial', bindings: [null, dout, part], uniform, overrides,
      workgroups: [groups1d(OC, WG), Z, 1], work: work.biasBackwardWork(R, OC),
    }),
    makeDispatch(device, {
      kernel: 'bias_backward', entryPoint: 'finish', bindings: [dbias, null, part], uniform, overrides,
      workgroups: [groups1d(OC, WG), 1, 1], work: work.chunkSumsWork(Z, OC),
    }),
  ];
}

/**
 * The split-K matmul (no bias): Z chunks of K summed into a scratch by 4×4 register tiles, then
 * the chunk sums added in order. Chosen by matmulOp for the shapes splitKChunks picks (the
 * weight gradients), whatever the variant: a long reduction into a small output.
 */
function matmulSplitK(
  device: GPUDevice, out: Buf, a: Buf, b: Buf,
  M: number, K: number, N: number, transA: boolean, transB: boolean, accumulate: boolean, Z: number,
): Dispatch[] {
  const op = 'matmulSplitK';
  const KC = Math.ceil(K / Z);
  const wx = Math.ceil(Math.ceil(N / 4) / MM_WX);
  const wy = Math.ceil(Math.ceil(M / 4) / MM_WY);
  if (wx > 65535 || wy > 65535) throw new RangeError(`matmul: ${M}×${N} output needs too many workgroups`);
  const part = createStorage(device, Z * M * N * 4, `${op} chunk sums`);
  const uniform = uniformFrom(device, [[M, 'u32'], [K, 'u32'], [N, 'u32'], [Z, 'u32'], [KC, 'u32']], op);
  const overrides = { TRANS_A: transA ? 1 : 0, TRANS_B: transB ? 1 : 0, ACCUM: accumulate ? 1 : 0, WX: MM_WX, WY: MM_WY, WG };
  return [
    makeDispatch(device, {
      kernel: 'matmul_splitk', entryPoint: 'partial', bindings: [null, a, b, part], uniform, overrides,
      workgroups: [wx, wy, Z], work: work.matmulWork(M, K, N, transA, transB, false, false),
    }),
    makeDispatch(device, {
      kernel: 'matmul_splitk', entryPoint: 'finish', bindings: [out, null, null, part], uniform, overrides,
      workgroups: grid(M * N, WG), work: work.chunkSumsWork(Z, M * N),
    }),
  ];
}

// ─── attention ──────────────────────────────────────────────────────────────────────────────

function checkHeads(op: string, C: number, NH: number): void {
  if (C % NH !== 0) throw new RangeError(`${op}: C=${C} is not divisible by NH=${NH}`);
}

/** out (=) and att (=): causal multi-head attention over qkv rows [q | k | v]. */
export function attentionForwardOp(
  device: GPUDevice,
  out: Buf, // [N, T, C]
  att: Buf, // [N, NH, T, T]
  qkv: Buf, // [N, T, 3C]
  N: number, T: number, C: number, NH: number,
): Dispatch[] {
  const op = 'attentionForward';
  positiveInts(op, { N, T, C, NH });
  checkHeads(op, C, NH);
  need(op, 'out', out, N * T * C); need(op, 'att', att, N * NH * T * T); need(op, 'qkv', qkv, N * T * 3 * C);
  return [makeDispatch(device, {
    kernel: 'attention_forward',
    bindings: [out, att, qkv],
    uniform: uniformFrom(device, [[N, 'u32'], [T, 'u32'], [C, 'u32'], [NH, 'u32']], op),
    workgroups: grid(N * NH * T, WG),
    work: work.attentionForwardWork(N, T, C, NH),
  })];
}

/** dqkv (=) from dout and the forward's att. Allocates its [N,NH,T,T] scratch here. */
export function attentionBackwardOp(
  device: GPUDevice,
  dqkv: Buf, // [N, T, 3C]
  dout: Buf, // [N, T, C]
  qkv: Buf,  // [N, T, 3C]
  att: Buf,  // [N, NH, T, T]
  N: number, T: number, C: number, NH: number,
): Dispatch[] {
  const op = 'attentionBackward';
  positiveInts(op, { N, T, C, NH });
  checkHeads(op, C, NH);
  need(op, 'dqkv', dqkv, N * T * 3 * C); need(op, 'dout', dout, N * T * C);
  need(op, 'qkv', qkv, N * T * 3 * C); need(op, 'att', att, N * NH * T * T);
  const dz = createStorage(device, N * NH * T * T * 4, 'attention_backward dz');
  const uniform = uniformFrom(device, [[N, 'u32'], [T, 'u32'], [C, 'u32'], [NH, 'u32']], op);
  return [
    makeDispatch(device, {
      kernel: 'attention_backward', entryPoint: 'scores',
      bindings: [null, dout, qkv, att, dz], uniform, workgroups: grid(N * NH * T, WG),
      work: work.attentionBackwardScoresWork(N, T, C, NH),
    }),
    makeDispatch(device, {
      kernel: 'attention_backward', entryPoint: 'grads',
      bindings: [dqkv, dout, qkv, att, dz], uniform, workgroups: grid(N * T * 3 * C, WG),
      work: work.attentionBackwardGradsWork(N, T, C, NH),
    }),
  ];
}

// ─── elementwise ────────────────────────────────────────────────────────────────────────────

/** `reads`/`writes`: arrays of n the kernel reads and writes (a += output counts in both). */
function elementwise(
  device: GPUDevice, op: string, kernel: string, bufs: Record<string, Buf>, n: number, reads: number, writes: number,
): Dispatch[] {
  positiveInts(op, { n });
  for (const [name, b] of Object.entries(bufs)) need(op, name, b, n);
  return [makeDispatch(device, {
    kernel, bindings: Object.values(bufs), uniform: uniformFrom(device, [[n, 'u32']], op), workgroups: grid(n, WG),
    work: work.elementwiseWork(n, reads, writes),
  })];
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

// ─── logits ─────────────────────────────────────────────────────────────────────────────────

/**
 * logp[R] (=), entropy[R] (=) of softmax(logits·invTemp); with regulator = REGULATOR.uniform the
 * second output is U = mean_j log p_j instead of H. One workgroup per row.
 */
export function logitsStatsOp(
  device: GPUDevice,
  logp: Buf,    // [R]
  entropy: Buf, // [R] H (or U)
  logits: Buf,  // [R, V]
  targets: Buf, // [R] i32
  invTemp: number,
  R: number, V: number,
  regulator: Regulator = REGULATOR.entropy,
): Dispatch[] {
  const op = 'logitsStats';
  positiveInts(op, { R, V });
  need(op, 'logp', logp, R); need(op, 'entropy', entropy, R);
  need(op, 'logits', logits, R * V); need(op, 'targets', targets, R);
  return [makeDispatch(device, {
    kernel: 'logits_stats',
    bindings: [logp, entropy, logits, targets],
    uniform: uniformFrom(device, [[R, 'u32'], [V, 'u32'], [invTemp, 'f32'], [regulator, 'u32']], op),
    overrides: { WG: rowWorkgroup(V) },
    workgroups: grid(R, 1),
    work: work.logitsStatsWork(R, V),
  })];
}

/** dlogits[R,V] (=) for L = Σ dlogp·logp + dent·reg (reg: H, or U for REGULATOR.uniform). One workgroup per row. */
export function logitsBackwardOp(
  device: GPUDevice,
  dlogits: Buf, // [R, V]
  logits: Buf,  // [R, V]
  targets: Buf, // [R] i32
  dlogp: Buf,   // [R]
  dent: Buf,    // [R]
  invTemp: number,
  R: number, V: number,
  regulator: Regulator = REGULATOR.entropy,
): Dispatch[] {
  const op = 'logitsBackward';
  positiveInts(op, { R, V });
  need(op, 'dlogits', dlogits, R * V); need(op, 'logits', logits, R * V);
  need(op, 'targets', targets, R); need(op, 'dlogp', dlogp, R); need(op, 'dent', dent, R);
  return [makeDispatch(device, {
    kernel: 'logits_backward',
    bindings: [dlogits, logits, targets, dlogp, dent],
    uniform: uniformFrom(device, [[R, 'u32'], [V, 'u32'], [invTemp, 'f32'], [regulator, 'u32']], op),
    overrides: { WG: rowWorkgroup(V) },
    workgroups: grid(R, 1),
    work: work.logitsBackwardWork(R, V),
  })];
}

// ─── losses ─────────────────────────────────────────────────────────────────────────────────

/** A uniform buffer for pgLossOp's parameters (rewrite it with writePgLossParams). */
export function createPgLossParams(device: GPUDevice, p: PgLossParams): GPUBuffer {
  return createBlock(device, PG_BLOCK, p);
}

export function writePgLossParams(device: GPUDevice, buf: GPUBuffer, p: PgLossParams): void {
  writeBlock(device, buf, PG_BLOCK, p);
}

/**
 * Policy-gradient loss: dlogp, dent (=) per token, seqLoss, stats (=) per sequence.
 * Two dispatches (per token, then per sequence); allocates its [N·T,4] scratch here.
 */
export function pgLossOp(
  device: GPUDevice,
  dlogp: Buf,   // [N·T]
  dent: Buf,    // [N·T]
  seqLoss: Buf, // [N]
  stats: Buf,   // [N, 8]
  logp: Buf,    // [N·T]
  oldLogp: Buf, // [N·T]
  refLogp: Buf, // [N·T]
  adv: Buf,     // [N·T]
  mask: Buf,    // [N·T]
  klMask: Buf,  // [N·T]
  entropy: Buf, // [N·T]
  N: number, T: number,
  params: PgLossParams | GPUBuffer,
): Dispatch[] {
  const op = 'pgLoss';
  positiveInts(op, { N, T });
  const R = N * T;
  need(op, 'dlogp', dlogp, R); need(op, 'dent', dent, R); need(op, 'seqLoss', seqLoss, N);
  need(op, 'stats', stats, N * PG_STATS);
  const inputs = { logp, oldLogp, refLogp, adv, mask, klMask, entropy };
  for (const [k, b] of Object.entries(inputs)) need(op, k, b, R);
  const uniform = bindBlock(device, params, PG_BLOCK, [[N, 'u32'], [T, 'u32']]);
  const scratch = createStorage(device, R * 16, 'pg_loss per-token scratch');
  return [
    makeDispatch(device, {
      kernel: 'pg_loss', entryPoint: 'per_token',
      bindings: [null, null, null, null, logp, oldLogp, refLogp, null, null, klMask, entropy, scratch],
      uniform, workgroups: grid(R, WG), work: work.pgLossPerTokenWork(N, T),
    }),
    makeDispatch(device, {
      kernel: 'pg_loss', entryPoint: 'per_sequence',
      bindings: [dlogp, dent, seqLoss, stats, null, null, null, adv, mask, null, null, scratch],
      uniform, workgroups: [groups1d(N, WG), 1, 1], work: work.pgLossPerSequenceWork(N, T),
    }),
  ];
}

export function createCeLossParams(device: GPUDevice, p: CeLossParams): GPUBuffer {
  return createBlock(device, CE_BLOCK, p);
}

export function writeCeLossParams(device: GPUDevice, buf: GPUBuffer, p: CeLossParams): void {
  writeBlock(device, buf, CE_BLOCK, p);
}

/** SFT loss: dlogp (=) = −scale·mask, seqLoss[n] (=) = −scale·Σ_t mask·logp. */
export function ceLossOp(
  device: GPUDevice,
  dlogp: Buf,   // [N·T]
  seqLoss: Buf, // [N]
  logp: Buf,    // [N·T]
  mask: Buf,    // [N·T]
  N: number, T: number,
  scale: number | GPUBuffer,
): Dispatch[] {
  const op = 'ceLoss';
  positiveInts(op, { N, T });
  need(op, 'dlogp', dlogp, N * T); need(op, 'seqLoss', seqLoss, N);
  need(op, 'logp', logp, N * T); need(op, 'mask', mask, N * T);
  const uniform = bindBlock(device, typeof scale === 'number' ? { scale } : scale, CE_BLOCK, [[N, 'u32'], [T, 'u32']]);
  return [makeDispatch(device, {
    kernel: 'ce_loss', bindings: [dlogp, seqLoss, logp, mask], uniform, workgroups: [groups1d(N, WG), 1, 1],
    work: work.ceLossWork(N, T),
  })];
}

// ─── optimiser ──────────────────────────────────────────────────────────────────────────────

/**
 * out[0] (=) sqrt(Σ g²), out[1] (=) 1 if any g is not finite. A fixed-order two-stage
 * reduction: two dispatches; allocates its partials here.
 */
export function gradNormOp(
  device: GPUDevice,
  out: Buf,   // [2]
  grads: Buf, // [P]
  P: number,
  opts: GradNormOptions = {},
): Dispatch[] {
  return normDispatches(device, 'gradNorm', out, grads, null, P, opts);
}

/**
 * out[0] (=) sqrt(Σ (a − b)²), out[1] (=) 1 if any a − b is not finite: how far an update moved
 * the weights (a the new weights, b a copy from before). Two dispatches, as gradNormOp.
 */
export function diffNormOp(
  device: GPUDevice,
  out: Buf, // [2]
  a: Buf,   // [P]
  b: Buf,   // [P]
  P: number,
  opts: GradNormOptions = {},
): Dispatch[] {
  return normDispatches(device, 'diffNorm', out, a, b, P, opts);
}

function normDispatches(device: GPUDevice, op: string, out: Buf, grads: Buf, base: Buf | null, P: number, opts: GradNormOptions): Dispatch[] {
  positiveInts(op, { P });
  need(op, 'out', out, 2); need(op, base ? 'a' : 'grads', grads, P);
  if (base) need(op, 'b', base, P);
  const wg = opts.workgroupSize ?? GRAD_NORM_WG;
  if (!Number.isInteger(Math.log2(wg))) throw new RangeError(`${op}: workgroupSize must be a power of two, got ${wg}`);
  const G = opts.groups ?? gradNormGroups(P, wg);
  positiveInts(op, { groups: G });
  if (G > 65535) throw new RangeError(`${op}: groups must be ≤ 65535, got ${G}`);
  const partials = createStorage(device, G * 8, `${op} partials`);
  const uniform = uniformFrom(device, [[P, 'u32'], [G, 'u32']], op);
  return [
    makeDispatch(device, {
      kernel: 'grad_norm', entryPoint: base ? 'partial_diff' : 'partial', bindings: [null, grads, partials, base], uniform,
      overrides: { WG: wg }, workgroups: [G, 1, 1], work: work.gradNormPartialWork(P, G, base ? 2 : 1),
    }),
    makeDispatch(device, {
      kernel: 'grad_norm', entryPoint: 'finish', bindings: [out, null, partials, null], uniform,
      overrides: { WG: wg }, workgroups: [1, 1, 1], work: work.gradNormFinishWork(P, G),
    }),
  ];
}

/** A uniform buffer for adamwOp's hyperparameters; rewrite it each step with writeAdamwParams. */
export function createAdamwParams(device: GPUDevice, h: AdamwParams): GPUBuffer {
  return createBlock(device, ADAMW_BLOCK, h);
}

/** Rewrite the hyperparameters (queue.writeBuffer: takes effect for the next submission). */
export function writeAdamwParams(device: GPUDevice, buf: GPUBuffer, h: AdamwParams): void {
  writeBlock(device, buf, ADAMW_BLOCK, h);
}

/** One AdamW step over P parameters, in place; does nothing when norm[1] ≠ 0. */
export function adamwOp(
  device: GPUDevice,
  params: Buf, // [P]
  grads: Buf,  // [P]
  m: Buf,      // [P]
  v: Buf,      // [P]
  decay: Buf,  // [P] 1 or 0
  norm: Buf,   // [2] from gradNormOp
  P: number,
  hyper: GPUBuffer | AdamwParams,
): Dispatch[] {
  const op = 'adamw';
  positiveInts(op, { P });
  for (const [k, b] of Object.entries({ params, grads, m, v, decay })) need(op, k, b, P);
  need(op, 'norm', norm, 2);
  const uniform = bindBlock(device, hyper, ADAMW_BLOCK, [[P, 'u32']]);
  return [makeDispatch(device, {
    kernel: 'adamw', bindings: [params, grads, m, v, decay, norm], uniform,
    overrides: { WG: 256 }, workgroups: grid(P, 256), work: work.adamwWork(P),
  })];
}

// ─── sampling and KV-cache decoding ─────────────────────────────────────────────────────────

export function createSampleTokenParams(device: GPUDevice, h: SampleTokenParams): GPUBuffer {
  return createBlock(device, SAMPLE_BLOCK, h);
}

export function writeSampleTokenParams(device: GPUDevice, buf: GPUBuffer, h: SampleTokenParams): void {
  writeBlock(device, buf, SAMPLE_BLOCK, h);
}

/**
 * One decoding step for every sequence at pos = cursor[0] (a storage buffer, so one
 * recording serves every position): tokens, logp, entropy written at [n, pos].
 * The twin's (seed, step, invTemp, topK) come as a record or a createSampleTokenParams buffer.
 */
export function sampleTokenOp(
  device: GPUDevice,
  tokens: Buf,  // [N, Tmax] i32
  logp: Buf,    // [N, Tmax]
  entropy: Buf, // [N, Tmax]
  logits: Buf,  // [N, V]
  fixed: Buf,   // [N, Tmax] i32
  N: number, V: number, Tmax: number,
  cursor: Buf,  // [≥1] u32, cursor[0] = pos
  params: SampleTokenParams | GPUBuffer,
): Dispatch[] {
  const op = 'sampleToken';
  positiveInts(op, { N, V, Tmax });
  need(op, 'tokens', tokens, N * Tmax); need(op, 'logp', logp, N * Tmax); need(op, 'entropy', entropy, N * Tmax);
  need(op, 'logits', logits, N * V); need(op, 'fixed', fixed, N * Tmax); need(op, 'cursor', cursor, 1);
  const wg = rowWorkgroup(V);
  if ((V + wg) * 4 > device.limits.maxComputeWorkgroupStorageSize) {
    throw new RangeError(`sampleToken: V=${V} does not fit the device's workgroup memory`);
  }
  const uniform = bindBlock(device, params, SAMPLE_BLOCK, [[N, 'u32'], [V, 'u32'], [Tmax, 'u32']]);
  return [makeDispatch(device, {
    kernel: 'sample_token',
    bindings: [tokens, logp, entropy, logits, fixed, cursor],
    uniform,
    overrides: { WG: wg, MAX_V: V },
    workgroups: grid(N, 1),
    work: work.sampleTokenWork(N, V),
  })];
}

/** out[N,C] (=) wte[tokens[n,pos]] + wpe[pos], pos = cursor[0]. */
export function embeddingDecodeOp(
  device: GPUDevice,
  out: Buf,    // [N, C]
  tokens: Buf, // [N, Tmax] i32
  wte: Buf,    // [V, C]
  wpe: Buf,    // [Tmax, C]
  N: number, Tmax: number, C: number, V: number,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const op = 'embeddingDecode';
  positiveInts(op, { N, Tmax, C, V });
  need(op, 'out', out, N * C); need(op, 'tokens', tokens, N * Tmax);
  need(op, 'wte', wte, V * C); need(op, 'wpe', wpe, Tmax * C); need(op, 'cursor', cursor, 1);
  return [makeDispatch(device, {
    kernel: 'embedding_decode',
    bindings: [out, tokens, wte, wpe, cursor],
    uniform: uniformFrom(device, [[N, 'u32'], [Tmax, 'u32'], [C, 'u32'], [V, 'u32']], op),
    workgroups: grid(N * C, WG),
    work: work.embeddingDecodeWork(N, C, V),
  })];
}

/** dst[n,pos,:] (=) src[n,:], pos = cursor[0] (writes the new q|k|v into the cache). */
export function copyRowsOp(
  device: GPUDevice,
  dst: Buf, // [N, Tmax, W]
  src: Buf, // [N, W]
  N: number, Tmax: number, W: number,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const op = 'copyRows';
  positiveInts(op, { N, Tmax, W });
  need(op, 'dst', dst, N * Tmax * W); need(op, 'src', src, N * W); need(op, 'cursor', cursor, 1);
  return [makeDispatch(device, {
    kernel: 'copy_rows',
    bindings: [dst, src, cursor],
    uniform: uniformFrom(device, [[N, 'u32'], [Tmax, 'u32'], [W, 'u32']], op),
    workgroups: grid(N * W, WG),
    work: work.copyRowsWork(N, W),
  })];
}

/** out[N,C] (=): the query at row pos = cursor[0] attends to rows 0..pos of the cache. */
export function attentionDecodeOp(
  device: GPUDevice,
  out: Buf, // [N, C]
  qkv: Buf, // [N, Tmax, 3C]
  N: number, Tmax: number, C: number, NH: number,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const op = 'attentionDecode';
  positiveInts(op, { N, Tmax, C, NH });
  checkHeads(op, C, NH);
  need(op, 'out', out, N * C); need(op, 'qkv', qkv, N * Tmax * 3 * C); need(op, 'cursor', cursor, 1);
  // One workgroup per (n, h) holds that head's Tmax scores in workgroup memory.
  if (Tmax * 4 > device.limits.maxComputeWorkgroupStorageSize) {
    throw new RangeError(`attentionDecode: Tmax=${Tmax} scores do not fit the device's workgroup memory`);
  }
  // Threads cover the scores (pos + 1 ≤ Tmax of them) and the head's outputs (hd).
  const wg = Math.min(64, 2 ** Math.ceil(Math.log2(Math.max(Tmax, C / NH))));
  return [makeDispatch(device, {
    kernel: 'attention_decode',
    bindings: [out, qkv, cursor],
    uniform: uniformFrom(device, [[N, 'u32'], [Tmax, 'u32'], [C, 'u32'], [NH, 'u32']], op),
    overrides: { WG: wg, TMAX: Tmax },
    workgroups: grid(N * NH, 1),
    work: work.attentionDecodeWork(N, Tmax, C, NH),
  })];
}
