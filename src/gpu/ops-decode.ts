// GPU builders of sampling and KV-cache decoding (docs/engine.md): sample_token with its
// uniform block, the decode step's attention (its embedding is in ops-embedding.ts), the whole
// decoding block, and the row copies of the cache. The conventions are those of ops.ts.

import { makeDispatch, type Buf, type Dispatch } from './dispatch';
import * as work from './kernel-work';
import { SAMPLE_BLOCK, type SampleTokenParams, type AttentionShape } from '../core/abi';
import {
  bindBlock,
  checkAttentionShape,
  grid,
  need,
  needAll,
  positiveInts,
  rowWorkgroup,
  u32Uniform,
  WG,
  blockBuffers,
} from './op-plumbing';

// ─── sampling and KV-cache decoding ─────────────────────────────────────────────────────────

export const { create: createSampleTokenParams, write: writeSampleTokenParams } =
  blockBuffers<SampleTokenParams>(SAMPLE_BLOCK);

/**
 * One decoding step for every sequence at pos = cursor[0] (a storage buffer, so one
 * recording serves every position): tokens, logp, entropy written at [n, pos].
 * The twin's (seed, step, invTemp, topK) come as a record or a createSampleTokenParams buffer.
 */
export function sampleTokenOp(
  device: GPUDevice,
  tokens: Buf, // [N, Tmax] i32
  logp: Buf, // [N, Tmax]
  entropy: Buf, // [N, Tmax]
  logits: Buf, // [N, V]
  fixed: Buf, // [N, Tmax] i32
  N: number,
  V: number,
  Tmax: number,
  cursor: Buf, // [≥1] u32, cursor[0] = pos
  params: SampleTokenParams | GPUBuffer,
): Dispatch[] {
  const op = 'sampleToken';
  positiveInts(op, { N, V, Tmax });
  needAll(op, { tokens, logp, entropy, fixed }, N * Tmax);
  need(op, 'logits', logits, N * V);
  need(op, 'cursor', cursor, 1);
  const wg = rowWorkgroup(V);
  if ((V + wg) * 4 > device.limits.maxComputeWorkgroupStorageSize) {
    throw new RangeError(`sampleToken: V=${V} does not fit the device's workgroup memory`);
  }
  const uniform = bindBlock(device, params, SAMPLE_BLOCK, [N, V, Tmax]);
  return [
    makeDispatch(device, {
      kernel: 'sample_token',
      bindings: [tokens, logp, entropy, logits, fixed, cursor],
      uniform,
      overrides: { WG: wg, MAX_V: V },
      workgroups: grid(N, 1),
      work: work.sampleTokenWork(N, V),
    }),
  ];
}

/** dst[n,pos,:] (=) src[n,:], pos = cursor[0] (writes the new q|k|v into the cache). */
export function copyRowsOp(
  device: GPUDevice,
  dst: Buf, // [N, Tmax, W]
  src: Buf, // [N, W]
  N: number,
  Tmax: number,
  W: number,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const op = 'copyRows';
  positiveInts(op, { N, Tmax, W });
  need(op, 'dst', dst, N * Tmax * W);
  need(op, 'src', src, N * W);
  need(op, 'cursor', cursor, 1);
  return [
    makeDispatch(device, {
      kernel: 'copy_rows',
      bindings: [dst, src, cursor],
      uniform: u32Uniform(device, [N, Tmax, W], op),
      workgroups: grid(N * W, WG),
      work: work.copyRowsWork(N, W),
    }),
  ];
}

/** out[N,C] (=): the query at row pos = cursor[0] attends to rows 0..pos of the cache. */
export function attentionDecodeOp(
  device: GPUDevice,
  out: Buf, // [N, C]
  qkv: Buf, // [N, Tmax, 3C]
  shape: AttentionShape,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const { N, T: Tmax, C, NH } = shape;
  const op = 'attentionDecode';
  checkAttentionShape(op, shape, { qkv }, 'Tmax');
  need(op, 'out', out, N * C);
  need(op, 'cursor', cursor, 1);
  // One workgroup per (n, h) holds that head's Tmax scores in workgroup memory.
  if (Tmax * 4 > device.limits.maxComputeWorkgroupStorageSize) {
    throw new RangeError(`attentionDecode: Tmax=${Tmax} scores do not fit the device's workgroup memory`);
  }
  // Threads cover the scores (pos + 1 ≤ Tmax of them) and the head's outputs (hd).
  const wg = Math.min(64, 2 ** Math.ceil(Math.log2(Math.max(Tmax, C / NH))));
  return [
    makeDispatch(device, {
      kernel: 'attention_decode',
      bindings: [out, qkv, cursor],
      uniform: u32Uniform(device, [N, Tmax, C, NH], op),
      overrides: { WG: wg, TMAX: Tmax },
      workgroups: grid(N * NH, 1),
      work: work.attentionDecodeWork(N, Tmax, C, NH),
    }),
  ];
}

/** Workgroup memory of decode_block: the row, ln, atty (C each), the MLP's 4C, the scores, 2 stats. */
function decodeBlockBytes(C: number, NH: number, Tmax: number): number {
  return (7 * C + NH * Tmax + 2) * 4;
}

/** Whether decode_block's workgroup memory fits this device for a model of C, NH and Tmax. */
export function decodeBlockFits(device: GPUDevice, C: number, NH: number, Tmax: number): boolean {
  return decodeBlockBytes(C, NH, Tmax) <= device.limits.maxComputeWorkgroupStorageSize && C % NH === 0;
}

/** Float offsets of one block's tensors in the parameter buffer (decodeBlockOp's uniform). */
export interface DecodeBlockOffsets {
  ln1w: number;
  ln1b: number;
  qkvw: number;
  qkvb: number;
  projw: number;
  projb: number;
  ln2w: number;
  ln2b: number;
  fcw: number;
  fcb: number;
  fcprojw: number;
  fcprojb: number;
}

/** A block's tensors in the order of decode_block's uniform, with their sizes in floats for C channels. */
const DECODE_BLOCK_TENSORS: readonly [keyof DecodeBlockOffsets, (C: number) => number][] = [
  ['ln1w', (C) => C],
  ['ln1b', (C) => C],
  ['qkvw', (C) => 3 * C * C],
  ['qkvb', (C) => 3 * C],
  ['projw', (C) => C * C],
  ['projb', (C) => C],
  ['ln2w', (C) => C],
  ['ln2b', (C) => C],
  ['fcw', (C) => 4 * C * C],
  ['fcb', (C) => 4 * C],
  ['fcprojw', (C) => 4 * C * C],
  ['fcprojb', (C) => C],
];

/**
 * One whole transformer block for the new position pos = cursor[0] of every sequence, in one
 * dispatch (shaders/decode_block.wgsl): x [N,C] updated in place, q|k|v written into the
 * cache at pos. One workgroup per sequence holds the row and every intermediate (7C + NH·Tmax
 * floats) in workgroup memory.
 */
export function decodeBlockOp(
  device: GPUDevice,
  x: Buf, // [N, C] residual rows (in place)
  cache: Buf, // [N, Tmax, 3C]
  params: GPUBuffer, // [P] the parameter buffer
  offsets: DecodeBlockOffsets,
  shape: AttentionShape,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const { N, T: Tmax, C, NH } = shape;
  const op = 'decodeBlock';
  checkAttentionShape(op, shape, { cache }, 'Tmax');
  need(op, 'x', x, N * C);
  need(op, 'cursor', cursor, 1);
  const floats = params.size / 4;
  for (const [name, size] of DECODE_BLOCK_TENSORS) {
    const end = offsets[name] + size(C);
    if (end > floats)
      throw new RangeError(`${op}: offsets.${name} runs past the parameter buffer (${end} > ${floats} floats)`);
  }
  const bytes = decodeBlockBytes(C, NH, Tmax);
  if (bytes > device.limits.maxComputeWorkgroupStorageSize) {
    throw new RangeError(
      `${op}: C=${C}, NH=${NH}, Tmax=${Tmax} need ${bytes} bytes of workgroup memory; the device has ${device.limits.maxComputeWorkgroupStorageSize}`,
    );
  }
  return [
    makeDispatch(device, {
      kernel: 'decode_block',
      bindings: [x, cache, params, cursor],
      uniform: u32Uniform(device, [N, Tmax, C, NH, ...DECODE_BLOCK_TENSORS.map(([name]) => offsets[name])], op),
      overrides: { WG: 64, CMAX: C, TMAX: Tmax, NHMAX: NH },
      workgroups: grid(N, 1),
      work: work.decodeBlockWork(N, Tmax, C, NH),
    }),
  ];
}
