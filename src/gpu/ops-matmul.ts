// GPU builders of the matmul kernels (docs/engine.md): the variants and the default one,
// matmulOp with its split-K form for the weight gradients, and the bias gradient (column sums).
// The conventions are those of ops.ts.

import { createStorage } from './buffers';
import { makeDispatch, type Buf, type Dispatch } from './dispatch';
import * as work from './kernel-work';
import { splitKChunks, SUM_ROWS, type MatmulShape } from '../core/abi';
import { dummyBuffer, grid, need, positiveInts, sumChunks, u32Uniform, SUM_COLS, SUM_LANES, WG } from './op-plumbing';

export { splitKChunks, SUM_ROWS };

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
  if (!MATMUL_VARIANTS.includes(v))
    throw new RangeError(`matmul variant must be one of ${MATMUL_VARIANTS.join(', ')}, got ${String(v)}`);
  matmulDefault = v;
}

export function defaultMatmulVariant(): MatmulVariant {
  return matmulDefault;
}

/** Threads of a matmul workgroup along its columns (WX) and rows (WY). */
export const MM_WX = 8;
export const MM_WY = 8;

/**
 * What a matmul does with each output sum s besides storing it (shaders/matmul.wgsl; never with
 * accumulate): `residual` out = residual + s; `gelu` pre = s, out = gelu(s); `geluBackward`
 * out = gelu'(pre)·s. Each saves the elementwise kernel that would follow.
 */
export type MatmulEpilogue =
  | { kind: 'residual'; residual: Buf } // [M, N]
  | { kind: 'gelu'; pre: Buf } // [M, N] (=)
  | { kind: 'geluBackward'; pre: Buf }; // [M, N]

const EPILOGUE_CODES = { residual: 1, gelu: 2, geluBackward: 3 } as const;

/**
 * A layernorm before the matmul (shaders/matmul.wgsl, LN_PROLOGUE; never with transA): op(a) is
 * the layernorm of a's rows with weights w, b (slices of one buffer, b after w), and the
 * normalised rows and their statistics are stored for the backward. Saves layernorm_forward.
 */
export interface LayernormPrologue {
  w: GPUBufferBinding; // [K]
  b: GPUBufferBinding; // [K], in w's buffer after it
  ln: Buf; // [M, K] (=)
  stats: Buf; // [2, M] (=) mean, then rstd
}

/** A writable placeholder per binding (a buffer bound twice in one dispatch may not be written). */
const writableDummies = new WeakMap<GPUDevice, Map<string, GPUBuffer>>();
function writableDummy(device: GPUDevice, binding: string): GPUBuffer {
  let m = writableDummies.get(device);
  if (!m) writableDummies.set(device, (m = new Map()));
  let d = m.get(binding);
  if (!d) m.set(binding, (d = createStorage(device, 16, `unused ${binding} binding`)));
  return d;
}

/** The epilogue's tensor, or a writable dummy. */
function epilogueBinding(device: GPUDevice, e: MatmulEpilogue | null): Buf {
  if (e) return e.kind === 'residual' ? e.residual : e.pre;
  return writableDummy(device, 'epilogue');
}

/** The prologue's bindings (w and b as one slice, ln, stats) and where b starts in the slice, or dummies. */
function prologueBindings(device: GPUDevice, pro: LayernormPrologue | null, M: number, K: number): [Buf[], number] {
  const op = 'matmul';
  if (!pro) return [[dummyBuffer(device), writableDummy(device, 'ln'), writableDummy(device, 'ln stats')], 0];
  const w0 = pro.w.offset ?? 0,
    b0 = pro.b.offset ?? 0;
  if (pro.w.buffer !== pro.b.buffer || b0 < w0 + K * 4)
    throw new RangeError(`${op}: the layernorm prologue needs w and b in one buffer, b after w's ${K} floats`);
  need(op, 'prologue w', pro.w, K);
  need(op, 'prologue b', pro.b, K);
  need(op, 'prologue ln', pro.ln, M * K);
  need(op, 'prologue stats', pro.stats, 2 * M);
  const wb = { buffer: pro.w.buffer, offset: w0, size: b0 - w0 + K * 4 };
  return [[wb, pro.ln, pro.stats], (b0 - w0) / 4];
}

/**
 * out[M,N] (= or += when accumulate) = op(a)·op(b) (+ bias[N]); op(a) is [M,K] (stored
 * [K,M] when transA), op(b) is [K,N] (stored [N,K] when transB): the shape as MatmulShape
 * (src/core/abi.ts) gives it, the same for the CPU twin.
 */
export function matmulOp(
  device: GPUDevice,
  out: Buf, // [M, N]
  a: Buf, // [M, K], or [K, M] if transA
  b: Buf, // [K, N], or [N, K] if transB
  bias: Buf | null, // [N] or null
  shape: MatmulShape,
  variant: MatmulVariant = matmulDefault,
  epilogue: MatmulEpilogue | null = null,
  prologue: LayernormPrologue | null = null,
): Dispatch[] {
  const op = 'matmul';
  const { M, K, N, transA = false, transB = false, accumulate = false } = shape;
  positiveInts(op, { M, K, N });
  need(op, 'out', out, M * N);
  need(op, 'a', a, M * K);
  need(op, 'b', b, K * N);
  if (bias) need(op, 'bias', bias, N);
  if (!MATMUL_VARIANTS.includes(variant)) throw new RangeError(`matmul: unknown variant ${String(variant)}`);
  const Z = splitKChunks(M, K, N, transA, bias !== null);
  if (epilogue) {
    if (!(epilogue.kind in EPILOGUE_CODES))
      throw new RangeError(`matmul: epilogue must be one of ${Object.keys(EPILOGUE_CODES).join(', ')}`);
    if (accumulate || Z > 1) throw new RangeError(`matmul: an epilogue (${epilogue.kind}) needs (=) and no split-K`);
    need(op, `epilogue ${epilogue.kind}`, epilogueBinding(device, epilogue), M * N);
  }
  if (prologue && transA) throw new RangeError(`${op}: a layernorm prologue needs op(a) untransposed`);
  const [proBindings, lnB] = prologueBindings(device, prologue, M, K);
  if (Z > 1) return matmulSplitK(device, out, a, b, shape, Z);
  const [wx, wy] = tileGrid(op, M, N, variant === 'naive' ? 1 : 4);
  return [
    makeDispatch(device, {
      kernel: 'matmul',
      entryPoint: variant,
      bindings: [out, a, b, bias ?? dummyBuffer(device), epilogueBinding(device, epilogue), ...proBindings],
      uniform: u32Uniform(device, [M, K, N, lnB], op),
      overrides: {
        TRANS_A: transA ? 1 : 0,
        TRANS_B: transB ? 1 : 0,
        ACCUM: accumulate ? 1 : 0,
        HAS_BIAS: bias ? 1 : 0,
        EPILOGUE: epilogue ? EPILOGUE_CODES[epilogue.kind] : 0,
        LN_PROLOGUE: prologue ? 1 : 0,
        WX: MM_WX,
        WY: MM_WY,
      },
      workgroups: [wx, wy, 1],
      work: work.matmulWork(shape, bias !== null, epilogue?.kind ?? null, prologue !== null),
    }),
  ];
}

/** dbias[OC] (+=) column sums of dout[R,OC], in one dispatch (chunks of SUM_ROWS rows, then the chunk sums in order). */
export function biasBackwardOp(
  device: GPUDevice,
  dbias: Buf, // [OC]
  dout: Buf, // [R, OC]
  R: number,
  OC: number,
): Dispatch[] {
  const op = 'biasBackward';
  positiveInts(op, { R, OC });
  need(op, 'dbias', dbias, OC);
  need(op, 'dout', dout, R * OC);
  const Z = sumChunks(op, R, SUM_ROWS);
  const groups = Math.ceil(OC / SUM_COLS);
  if (groups > 65535) throw new RangeError(`${op}: OC=${OC} columns need ${groups} workgroups; at most 65535`);
  const uniform = u32Uniform(device, [R, OC, Z], op);
  return [
    makeDispatch(device, {
      kernel: 'bias_backward',
      bindings: [dbias, dout],
      uniform,
      overrides: { CW: SUM_COLS, ZL: SUM_LANES, ROWS: SUM_ROWS },
      workgroups: [groups, 1, 1],
      work: work.biasBackwardWork(R, OC),
    }),
  ];
}

/**
 * The split-K matmul (no bias): Z chunks of K summed into a scratch by 4×4 register tiles, then
 * the chunk sums added in order. Chosen by matmulOp for the shapes splitKChunks picks (the
 * weight gradients), whatever the variant: a long reduction into a small output.
 */
function matmulSplitK(device: GPUDevice, out: Buf, a: Buf, b: Buf, shape: MatmulShape, Z: number): Dispatch[] {
  const op = 'matmulSplitK';
  const { M, K, N, transA = false, transB = false, accumulate = false } = shape;
  const [wx, wy] = tileGrid(op, M, N);
  const part = createStorage(device, Z * M * N * 4, `${op} chunk sums`);
  const uniform = splitKUniform(device, M, K, N, Z);
  return [
    makeDispatch(device, {
      kernel: 'matmul_splitk',
      entryPoint: 'partial',
      bindings: [null, a, b, part],
      uniform,
      overrides: { TRANS_A: transA ? 1 : 0, TRANS_B: transB ? 1 : 0, WX: MM_WX, WY: MM_WY },
      workgroups: [wx, wy, Z],
      work: work.matmulWork({ M, K, N, transA, transB }, false),
    }),
    splitKFinish(device, out, part, M, K, N, Z, accumulate, uniform),
  ];
}

/** Workgroups [along N, along M] of a matmul's tile×tile register tiles (MM_WX × MM_WY threads each). */
export function tileGrid(op: string, M: number, N: number, tile = 4): [number, number] {
  const wx = Math.ceil(Math.ceil(N / tile) / MM_WX);
  const wy = Math.ceil(Math.ceil(M / tile) / MM_WY);
  if (wx > 65535 || wy > 65535) throw new RangeError(`${op}: ${M}×${N} output needs too many workgroups`);
  return [wx, wy];
}

/** matmul_splitk's uniform (M, K, N, Z, KC = ⌈K/Z⌉), shared by its two entry points. */
function splitKUniform(device: GPUDevice, M: number, K: number, N: number, Z: number): GPUBuffer {
  return u32Uniform(device, [M, K, N, Z, Math.ceil(K / Z)], 'matmulSplitK');
}

/** out[M,N] (= or +=) Σ_z part[z] in z order: the second dispatch of a split-K matmul. */
export function splitKFinish(
  device: GPUDevice,
  out: Buf, // [M, N]
  part: Buf, // [Z, M, N] chunk sums
  M: number,
  K: number,
  N: number,
  Z: number,
  accumulate: boolean,
  uniform: GPUBuffer = splitKUniform(device, M, K, N, Z),
): Dispatch {
  return makeDispatch(device, {
    kernel: 'matmul_splitk',
    entryPoint: 'finish',
    bindings: [out, null, null, part],
    uniform,
    overrides: { ACCUM: accumulate ? 1 : 0, WG },
    workgroups: grid(M * N, WG),
    work: work.chunkSumsWork(Z, M * N),
  });
}
