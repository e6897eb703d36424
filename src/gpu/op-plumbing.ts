// What every kernel builder of ops.ts, ops-train.ts, ops-decode.ts and ops-embedding.ts shares:
// checks of buffer sizes and dimensions, workgroup grids, a placeholder buffer for unused
// bindings, and the uniform blocks of the kernel ABI (created once, rewritten between steps).

import { createStorage, uniformFrom, writeRecord } from './buffers';
import { isBinding, type Buf, type UniformValues } from './dispatch';
import { type AttentionShape, type ParamBlock } from '../core/abi';

export function isGpuBuffer(x: unknown): x is GPUBuffer {
  return typeof (x as GPUBuffer | null)?.mapAsync === 'function';
}

/** 4-byte elements visible through `b`. */
export function elementsIn(b: Buf): number {
  if (!isBinding(b)) return Math.floor(b.size / 4);
  return Math.floor((b.size ?? b.buffer.size - (b.offset ?? 0)) / 4);
}

/** Throws, naming the op and the argument, when `b` holds fewer than `count` elements. */
export function need(op: string, name: string, b: Buf, count: number): void {
  const have = elementsIn(b);
  if (have < count) throw new RangeError(`${op}: ${name} holds ${have} elements, needs ${count}`);
}

/** need() for each named buffer of `bufs`, all of `count` elements. */
export function needAll(op: string, bufs: Record<string, Buf>, count: number): void {
  for (const [name, b] of Object.entries(bufs)) need(op, name, b, count);
}

export function positiveInts(op: string, dims: Record<string, number>): void {
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

export const WG = 64;

/** Words that are all u32, as a uniform record's values. */
function u32Values(words: readonly number[]): UniformValues {
  return words.map((v) => [v, 'u32'] as const);
}

/** A uniform of u32 words in the order of the kernel's Params struct (the shape of most kernels). */
export function u32Uniform(device: GPUDevice, words: readonly number[], label: string): GPUBuffer {
  return uniformFrom(device, u32Values(words), label);
}

/**
 * The one-dispatch column sums (bias_backward, layernorm_backward's dw/db): a workgroup takes
 * SUM_COLS columns with SUM_LANES threads each, every thread a chunk of SUM_ROWS rows at a time.
 */
export const SUM_COLS = 8;
export const SUM_LANES = 8;

/** Chunks of SUM_ROWS rows in R rows, checked against the workgroup limit of one dimension. */
export function sumChunks(op: string, R: number, rows: number): number {
  const Z = Math.ceil(R / rows);
  if (Z > 65535) throw new RangeError(`${op}: R=${R} rows make ${Z} chunks of ${rows}; at most 65535`);
  return Z;
}

/** Workgroup size for kernels that give one workgroup to a row of V: a power of two ≤ 64. */
export function rowWorkgroup(V: number): number {
  let w = 1;
  while (w < V && w < 64) w *= 2;
  return w;
}

export const dummies = new WeakMap<GPUDevice, GPUBuffer>();

/** A 16-byte storage buffer bound where a kernel's optional input is absent. */
export function dummyBuffer(device: GPUDevice): GPUBuffer {
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
export const blockShapes = new WeakMap<GPUBuffer, string>();

export function createBlock<H>(device: GPUDevice, block: ParamBlock<H>, h: H): GPUBuffer {
  const words = Math.ceil((block.hyperWords + block.shapeWords) / 4) * 4;
  const buf = device.createBuffer({
    label: `${block.name} params`,
    size: words * 4,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  writeBlock(device, buf, block, h);
  return buf;
}

/** The `hyperWords` words of a block's record as bytes: what writeBlock uploads (also staged, see GpuEngine.train). */
export function encodeBlock<H>(block: ParamBlock<H>, h: H): ArrayBuffer {
  const bytes = new ArrayBuffer(block.hyperWords * 4);
  writeRecord(new DataView(bytes), block.encode(h));
  return bytes;
}

export function writeBlock<H>(device: GPUDevice, buf: GPUBuffer, block: ParamBlock<H>, h: H): void {
  device.queue.writeBuffer(buf, 0, encodeBlock(block, h));
}

/** The block's buffer (`arg`, or one made from the record `arg`) with its shape, u32 words, written after the hyperparameters. */
export function bindBlock<H>(
  device: GPUDevice,
  arg: GPUBuffer | H,
  block: ParamBlock<H>,
  shape: readonly number[],
): GPUBuffer {
  const buf = isGpuBuffer(arg) ? arg : createBlock(device, block, arg);
  const key = shape.join(',');
  const prev = blockShapes.get(buf);
  if (prev !== undefined && prev !== key) {
    throw new Error(
      `${block.name}: this params buffer already serves shape (${prev}), not (${key}); make one per shape`,
    );
  }
  blockShapes.set(buf, key);
  const bytes = new ArrayBuffer(shape.length * 4);
  writeRecord(new DataView(bytes), u32Values(shape));
  device.queue.writeBuffer(buf, block.hyperWords * 4, bytes);
  return buf;
}

/**
 * What every attention builder checks first: the shape's dims are positive integers (T named
 * `rows`: Tmax where it counts the KV cache's rows), C is divisible by NH, and each of the q|k|v
 * buffers `qkv` (named as the builder names them) holds [N, T, 3C].
 */
export function checkAttentionShape(op: string, shape: AttentionShape, qkv: Record<string, Buf>, rows = 'T'): void {
  const { N, T, C, NH } = shape;
  positiveInts(op, { N, [rows]: T, C, NH });
  if (C % NH !== 0) throw new RangeError(`${op}: C=${C} is not divisible by NH=${NH}`);
  needAll(op, qkv, N * T * 3 * C);
}

/** The pair of helpers of one uniform block: create its buffer, and rewrite it between steps. */
export function blockBuffers<H>(block: ParamBlock<H>): {
  create(device: GPUDevice, h: H): GPUBuffer;
  write(device: GPUDevice, buf: GPUBuffer, h: H): void;
} {
  return {
    create: (device, h) => createBlock(device, block, h),
    write: (device, buf, h) => writeBlock(device, buf, block, h),
  };
}
