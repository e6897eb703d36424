// Counts what the CPU asks of a device: kernel dispatches, compute passes, queue.submit calls,
// readbacks (mapAsync) and bytes written from the CPU (queue.writeBuffer). At the model sizes of
// this project a real GPU is bound by these, not by flops: each dispatch costs CPU-side encoding
// and validation, each submit and readback a round trip. The counts are exact on any adapter,
// SwiftShader included, so the bench reports them (docs/benchmarks.md, "Counts").
//
// Like the buffer census (./buffer-census.ts) it wraps methods of this one device's objects, not
// prototypes: other devices are untouched. Readbacks are counted on buffers created after
// `countGpuCalls`, so install it before building the work to count.

import type { GpuCallCounts } from '../core/call-counts';

export type { GpuCallCounts } from '../core/call-counts';

export const ZERO_COUNTS: Readonly<GpuCallCounts> = Object.freeze({
  dispatches: 0,
  computePasses: 0,
  submits: 0,
  commandBuffers: 0,
  readbacks: 0,
  writes: 0,
  bytesWritten: 0,
});

/** b − a, field by field. */
export function countsBetween(a: GpuCallCounts, b: GpuCallCounts): GpuCallCounts {
  const out = { ...ZERO_COUNTS };
  for (const k of Object.keys(out) as (keyof GpuCallCounts)[]) out[k] = b[k] - a[k];
  return out;
}

export interface GpuCallCounter {
  /** The counts since installation (a copy). */
  counts(): GpuCallCounts;
  /** Runs `work` and returns what it asked of the device. */
  measure<T>(work: () => Promise<T> | T): Promise<{ result: T; counts: GpuCallCounts }>;
  /** Puts the device's methods back (objects already wrapped keep counting into nothing). */
  stop(): void;
}

const counters = new WeakMap<GPUDevice, GpuCallCounter>();

/** Bytes of a writeBuffer source: dataOffset and size count elements for typed arrays, bytes otherwise. */
export function writeBytes(data: BufferSource | SharedArrayBuffer, dataOffset = 0, size?: number): number {
  const element = ArrayBuffer.isView(data)
    ? ((data as unknown as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1)
    : 1;
  if (size !== undefined) return size * element;
  return data.byteLength - dataOffset * element;
}

/** The running counts, and whether they still count (stop() turns it off; wrapped objects stay wrapped). */
interface Tally {
  c: GpuCallCounts;
  active: boolean;
}

/**
 * Counts the calls on `device` from now on; installing twice returns the first counter (the
 * bench and the page each install one at device creation).
 */
export function countGpuCalls(device: GPUDevice): GpuCallCounter {
  const existing = counters.get(device);
  if (existing) return existing;
  const tally: Tally = { c: { ...ZERO_COUNTS }, active: true };
  const c = tally.c;
  const queue = device.queue;
  const submit = queue.submit;
  const writeBuffer = queue.writeBuffer;
  const createCommandEncoder = device.createCommandEncoder;
  const createBuffer = device.createBuffer;

  countQueue(queue, tally);
  countPassesAndDispatches(device, tally);
  countReadbacks(device, tally);

  const counter: GpuCallCounter = {
    counts: () => ({ ...c }),
    async measure(work) {
      const before = { ...c };
      const result = await work();
      return { result, counts: countsBetween(before, c) };
    },
    stop() {
      tally.active = false;
      queue.submit = submit;
      queue.writeBuffer = writeBuffer;
      device.createCommandEncoder = createCommandEncoder;
      device.createBuffer = createBuffer;
      counters.delete(device);
    },
  };
  counters.set(device, counter);
  return counter;
}

/** Wraps the queue: submits and their command buffers, writes and the bytes written. */
function countQueue(queue: GPUQueue, tally: Tally): void {
  const c = tally.c;
  const submit = queue.submit;
  const writeBuffer = queue.writeBuffer;
  queue.submit = function (this: GPUQueue, buffers: Iterable<GPUCommandBuffer>): undefined {
    const list = [...buffers];
    if (tally.active) {
      c.submits++;
      c.commandBuffers += list.length;
    }
    return submit.call(this, list);
  };
  queue.writeBuffer = function (
    this: GPUQueue,
    buffer: GPUBuffer,
    offset: GPUSize64,
    data: BufferSource | SharedArrayBuffer,
    dataOffset?: GPUSize64,
    size?: GPUSize64,
  ): undefined {
    if (tally.active) {
      c.writes++;
      c.bytesWritten += writeBytes(
        data,
        dataOffset === undefined ? 0 : Number(dataOffset),
        size === undefined ? undefined : Number(size),
      );
    }
    return (writeBuffer as (...a: unknown[]) => undefined).call(this, buffer, offset, data, dataOffset, size);
  };
}

/** Wraps `obj[method]` so that each call adds one to the tally's `field` while it counts. */
function countEachCall<O, M extends keyof O>(obj: O, method: M, tally: Tally, field: keyof GpuCallCounts): void {
  const original = obj[method] as (...args: unknown[]) => unknown;
  obj[method] = function (this: O, ...args: unknown[]): unknown {
    if (tally.active) tally.c[field]++;
    return original.apply(this, args);
  } as O[M];
}

/** Wraps each new command encoder: its compute passes, and each pass's dispatches. */
function countPassesAndDispatches(device: GPUDevice, tally: Tally): void {
  const c = tally.c;
  const createCommandEncoder = device.createCommandEncoder;
  device.createCommandEncoder = function (
    this: GPUDevice,
    descriptor?: GPUCommandEncoderDescriptor,
  ): GPUCommandEncoder {
    const encoder = createCommandEncoder.call(this, descriptor);
    const beginComputePass = encoder.beginComputePass;
    encoder.beginComputePass = function (this: GPUCommandEncoder, d?: GPUComputePassDescriptor): GPUComputePassEncoder {
      const pass = beginComputePass.call(this, d);
      if (tally.active) c.computePasses++;
      countEachCall(pass, 'dispatchWorkgroups', tally, 'dispatches');
      return pass;
    };
    return encoder;
  };
}

/** Wraps each new mappable buffer: its readbacks (mapAsync). */
function countReadbacks(device: GPUDevice, tally: Tally): void {
  const createBuffer = device.createBuffer;
  device.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor): GPUBuffer {
    const buffer = createBuffer.call(this, descriptor);
    if ((descriptor.usage & GPUBufferUsage.MAP_READ) !== 0) countEachCall(buffer, 'mapAsync', tally, 'readbacks');
    return buffer;
  };
}

/** The counter installed on `device`, if any. */
export function gpuCallCounter(device: GPUDevice): GpuCallCounter | null {
  return counters.get(device) ?? null;
}
