// GPU errors as errors: WebGPU reports a failed allocation or an invalid command asynchronously
// (error scopes, or the device's uncapturederror event) and otherwise carries on with invalid
// objects. Work wrapped in withGpuErrors throws a GpuError saying what it was doing instead.

export type GpuErrorKind = 'validation' | 'out-of-memory' | 'internal';

export class GpuError extends Error {
  constructor(
    readonly kind: GpuErrorKind,
    /** What the engine was doing, e.g. "sampling 256 sequences × 21 tokens". */
    readonly during: string,
    message: string,
  ) {
    super(message);
    this.name = 'GpuError';
  }
}

const WORDS: Record<GpuErrorKind, string> = {
  'out-of-memory': 'out of GPU memory',
  validation: 'GPU validation error',
  internal: 'internal GPU error',
};

export function gpuError(kind: GpuErrorKind, during: string, detail: string): GpuError {
  return new GpuError(kind, during, `${WORDS[kind]} while ${during}: ${detail.trim().split('\n')[0]}`);
}

/**
 * Runs `work` inside out-of-memory, validation and internal error scopes. A GPU error raised by
 * it becomes a GpuError (out of memory first: it is usually what the other errors follow from);
 * an exception of `work` itself is rethrown when the GPU reported nothing.
 */
export async function withGpuErrors<T>(device: GPUDevice, during: string, work: () => T | Promise<T>): Promise<T> {
  device.pushErrorScope('internal');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let result: T | undefined;
  let thrown: unknown = null;
  let failed = false;
  try {
    result = await work();
  } catch (e) {
    thrown = e;
    failed = true;
  }
  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  const internal = await device.popErrorScope();
  if (oom) throw gpuError('out-of-memory', during, oom.message);
  if (validation) throw gpuError('validation', during, validation.message);
  if (internal) throw gpuError('internal', during, internal.message);
  if (failed) throw thrown;
  return result as T;
}

/**
 * Records the first error the device raises outside any scope; `check()` throws it as a
 * GpuError. `stop()` removes the listener.
 */
export function watchUncapturedErrors(device: GPUDevice): { check(during: string): void; stop(): void } {
  let first: GPUError | null = null;
  const listener = (ev: Event) => {
    first ??= (ev as GPUUncapturedErrorEvent).error;
  };
  device.addEventListener('uncapturederror', listener);
  return {
    check(during: string) {
      if (!first) return;
      const e = first;
      const name = e.constructor?.name ?? '';
      const kind: GpuErrorKind = /OutOfMemory/.test(name)
        ? 'out-of-memory'
        : /Validation/.test(name)
          ? 'validation'
          : 'internal';
      throw gpuError(kind, during, e.message);
    },
    stop() {
      device.removeEventListener('uncapturederror', listener);
    },
  };
}
