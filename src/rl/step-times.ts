// Wall-clock timing of a step: the time/* scalars of its record and tokens_per_s; and, on a
// GPU engine whose device has a call counter, what the step asked of the GPU (gpu/*).

import type { GpuCallCounts } from '../core/call-counts';

export const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** Wall-clock time of a step's parts: the time/* scalars and tokens_per_s. */
export class StepTimes {
  private readonly start = now();
  readonly ms = { sample: 0, verify: 0, advantages: 0, update: 0 };
  sampledTokens = 0;

  add<T>(part: keyof StepTimes['ms'], f: () => T): T {
    const t = now();
    const r = f();
    this.ms[part] += now() - t;
    return r;
  }

  async addAsync<T>(part: keyof StepTimes['ms'], f: () => Promise<T>): Promise<T> {
    const t = now();
    const r = await f();
    this.ms[part] += now() - t;
    return r;
  }

  scalars(): Record<string, number> {
    return {
      'time/sample_ms': this.ms.sample,
      'time/verify_ms': this.ms.verify,
      'time/advantages_ms': this.ms.advantages,
      'time/update_ms': this.ms.update,
      'time/step_ms': now() - this.start,
      tokens_per_s: this.sampledTokens / Math.max(1e-9, this.ms.sample / 1000),
    };
  }
}

/** The gpu/* scalars of a step: dispatches, submits, readbacks and bytes written between two counts. */
export function gpuCallScalars(before: GpuCallCounts, after: GpuCallCounts): Record<string, number> {
  return {
    'gpu/dispatches': after.dispatches - before.dispatches,
    'gpu/submits': after.submits - before.submits,
    'gpu/readbacks': after.readbacks - before.readbacks,
    'gpu/bytes_written': after.bytesWritten - before.bytesWritten,
  };
}
