// Timed runs for benchmarks: wall-clock (encode + submit + queue.onSubmittedWorkDone(), the
// primary number) and, where the adapter has 'timestamp-query', GPU time between a timestamp
// written before the work and one written after it (two empty compute passes around it).

import type { GpuContext } from '../gpu/device';

export interface RunTime {
  wallMs: number;
  /** GPU time, or null without timestamp-query (or when the adapter reports nothing usable). */
  gpuMs: number | null;
}

export class GpuTimer {
  private readonly querySet: GPUQuerySet;
  private readonly resolve: GPUBuffer;
  private readonly readback: GPUBuffer;

  private constructor(readonly device: GPUDevice) {
    this.querySet = device.createQuerySet({ type: 'timestamp', count: 2, label: 'bench timestamps' });
    this.resolve = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      label: 'bench timestamps resolve',
    });
    this.readback = device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
      label: 'bench timestamps readback',
    });
  }

  /** A timer when the device has timestamp queries, else null. */
  static create(gpu: GpuContext): GpuTimer | null {
    return gpu.features.timestampQuery ? new GpuTimer(gpu.device) : null;
  }

  private mark(enc: GPUCommandEncoder, index: 0 | 1): void {
    const timestampWrites: GPUComputePassTimestampWrites =
      index === 0
        ? { querySet: this.querySet, beginningOfPassWriteIndex: 0 }
        : { querySet: this.querySet, endOfPassWriteIndex: 1 };
    enc.beginComputePass({ label: index === 0 ? 'timer start' : 'timer end', timestampWrites }).end();
  }

  /** One timed submission of `encode`. */
  async run(encode: (enc: GPUCommandEncoder) => void): Promise<RunTime> {
    const { device } = this;
    const t0 = performance.now();
    const enc = device.createCommandEncoder();
    this.mark(enc, 0);
    encode(enc);
    this.mark(enc, 1);
    enc.resolveQuerySet(this.querySet, 0, 2, this.resolve, 0);
    enc.copyBufferToBuffer(this.resolve, 0, this.readback, 0, 16);
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    const wallMs = performance.now() - t0;
    await this.readback.mapAsync(GPUMapMode.READ);
    const [a, b] = new BigUint64Array(this.readback.getMappedRange().slice(0));
    this.readback.unmap();
    const ns = Number(b - a);
    return { wallMs, gpuMs: b > a && a > 0n ? ns / 1e6 : null };
  }

  destroy(): void {
    this.querySet.destroy();
    this.resolve.destroy();
    this.readback.destroy();
  }
}

/** A timed run: with the GPU timer when there is one, wall time only otherwise. */
export async function timedRun(
  device: GPUDevice,
  timer: GpuTimer | null,
  encode: (enc: GPUCommandEncoder) => void,
): Promise<RunTime> {
  if (timer) return timer.run(encode);
  const t0 = performance.now();
  const enc = device.createCommandEncoder();
  encode(enc);
  device.queue.submit([enc.finish()]);
  await device.queue.onSubmittedWorkDone();
  return { wallMs: performance.now() - t0, gpuMs: null };
}
