// GPU time of every dispatch of a plan, from timestamp queries (profile mode only).
//
// Plans normally put consecutive dispatches in one compute pass (src/model/gpu-plan.ts), and
// WebGPU writes timestamps only at the start and end of a pass. So here each dispatch gets a
// pass of its own, with both writes; pipelines, bind groups, order, clears and copies are the
// plan's own. A pass per dispatch costs a little on some adapters: the suite reports the
// profile's span next to the plain run's GPU time, so the overhead is visible. The normal
// encoding path is untouched.
//
// Needs the device's 'timestamp-query' feature (openDevice asks for it when the adapter has
// it); `create` returns null without it. In Node, Dawn's timestamps are exact only without its
// quantization (src/gpu/node-device.ts turns it off).

import type { GpuContext } from '../gpu/device';
import type { Dispatch } from '../gpu/dispatch';
import type { Plan } from '../model/gpu-plan';
import type { DispatchSample } from './profile';

/** WebGPU's limit on the count of a query set: two queries per dispatch. */
const QUERIES_PER_SET = 4096;
const DISPATCHES_PER_SET = QUERIES_PER_SET / 2;

export interface ProfiledRun {
  /** Every dispatch encoded, in order, with its GPU µs. */
  samples: DispatchSample[];
  /** The dispatches themselves, in the same order (tests check them against the plan). */
  dispatches: Dispatch[];
  /** µs from the first dispatch's start to the last one's end (gaps between passes included). */
  spanUs: number;
  /** Dispatches whose end timestamp was before their start (counted as 0 µs; some drivers). */
  invalid: number;
}

interface QuerySlots {
  querySet: GPUQuerySet;
  resolve: GPUBuffer; // [QUERIES_PER_SET] u64
}

export class DispatchProfiler {
  private readonly sets: QuerySlots[] = [];
  private readback: GPUBuffer | null = null;
  private recorded: Dispatch[] = [];

  private constructor(readonly device: GPUDevice) {}

  /** A profiler when the device has timestamp queries, else null. */
  static create(gpu: GpuContext): DispatchProfiler | null {
    return gpu.features.timestampQuery ? new DispatchProfiler(gpu.device) : null;
  }

  private slots(index: number): QuerySlots {
    while (this.sets.length <= index) {
      const k = this.sets.length;
      this.sets.push({
        querySet: this.device.createQuerySet({
          type: 'timestamp',
          count: QUERIES_PER_SET,
          label: `profile timestamps ${k}`,
        }),
        resolve: this.device.createBuffer({
          size: QUERIES_PER_SET * 8,
          usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
          label: `profile resolve ${k}`,
        }),
      });
    }
    return this.sets[index];
  }

  /** Encodes one dispatch in a timed pass of its own. */
  encodeDispatch(encoder: GPUCommandEncoder, d: Dispatch): void {
    const i = this.recorded.length;
    const q = (i % DISPATCHES_PER_SET) * 2;
    const pass = encoder.beginComputePass({
      label: d.label,
      timestampWrites: {
        querySet: this.slots(Math.floor(i / DISPATCHES_PER_SET)).querySet,
        beginningOfPassWriteIndex: q,
        endOfPassWriteIndex: q + 1,
      },
    });
    pass.setPipeline(d.pipeline);
    pass.setBindGroup(0, d.bindGroup);
    pass.dispatchWorkgroups(d.workgroups[0], d.workgroups[1], d.workgroups[2]);
    pass.end();
    this.recorded.push(d);
  }

  /** Encodes `plan` step by step as Plan.encode does, each dispatch timed. */
  encodePlan(encoder: GPUCommandEncoder, plan: Plan): void {
    for (const s of plan.steps) {
      if (s.kind === 'dispatch') this.encodeDispatch(encoder, s.d);
      else if (s.kind === 'clear') encoder.clearBuffer(s.buffer, s.offset, s.size);
      else encoder.copyBufferToBuffer(s.src, s.srcOffset, s.dst, s.dstOffset, s.size);
    }
  }

  /**
   * One profiled submission: `encode` records the work through encodePlan / encodeDispatch
   * (and may add clears and copies of its own); returns the GPU time of each dispatch.
   */
  async run(encode: (encoder: GPUCommandEncoder) => void): Promise<ProfiledRun> {
    const { device } = this;
    this.recorded = [];
    const enc = device.createCommandEncoder({ label: 'profiled run' });
    encode(enc);
    const dispatches = this.recorded;
    const n = dispatches.length;
    if (n === 0) return { samples: [], dispatches, spanUs: 0, invalid: 0 };
    const setsUsed = Math.ceil(n / DISPATCHES_PER_SET);
    const bytes = setsUsed * QUERIES_PER_SET * 8;
    if (!this.readback || this.readback.size < bytes) {
      this.readback?.destroy();
      this.readback = device.createBuffer({
        size: bytes,
        usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
        label: 'profile readback',
      });
    }
    for (let k = 0; k < setsUsed; k++) {
      const count = Math.min(QUERIES_PER_SET, 2 * n - k * QUERIES_PER_SET);
      const { querySet, resolve } = this.sets[k];
      enc.resolveQuerySet(querySet, 0, count, resolve, 0);
      enc.copyBufferToBuffer(resolve, 0, this.readback, k * QUERIES_PER_SET * 8, count * 8);
    }
    device.queue.submit([enc.finish()]);
    await this.readback.mapAsync(GPUMapMode.READ, 0, bytes);
    const ts = new BigUint64Array(this.readback.getMappedRange(0, bytes).slice(0));
    this.readback.unmap();
    // Query i of the whole run sits at index i: every set but the last is full.
    let invalid = 0;
    const samples = dispatches.map((d, i): DispatchSample => {
      const ns = Number(ts[2 * i + 1] - ts[2 * i]);
      if (ns < 0) invalid++;
      return {
        kernel: d.label,
        shape: d.work?.shape ?? '',
        flops: d.work?.flops ?? null,
        bytes: d.work?.bytes ?? null,
        us: Math.max(0, ns) / 1e3,
      };
    });
    const spanUs = Math.max(0, Number(ts[2 * n - 1] - ts[0])) / 1e3;
    return { samples, dispatches, spanUs, invalid };
  }

  destroy(): void {
    for (const s of this.sets) {
      s.querySet.destroy();
      s.resolve.destroy();
    }
    this.readback?.destroy();
  }
}
