// The page's own look at WebGPU before its training worker starts (the self-check badge):
// is there an adapter, and does a kernel agree with its CPU twin here. `runSelfCheck` proves
// that WGSL compiles, dispatches and reads back on this adapter, and that it agrees with the
// CPU twin of `add` (one f32 addition per element, written out here: src/gpu sits below
// src/reference). This file and device.ts are all of src/gpu the page uses (src/layers.test.ts):
// kernels, buffers and plans run in the worker.

import { makeDispatch, runDispatches } from './dispatch';
import { storageFrom, createStorage, readF32, groups1d } from './buffers';
import { adapterLabel, NoWebGpuError, type GpuContext } from './device';

export interface SelfCheckResult {
  n: number;
  maxAbsDiff: number;
  ok: boolean;
  /** First values from the GPU, for display. */
  sample: number[];
  ms: number;
}

export async function runSelfCheck(device: GPUDevice, n = 4099): Promise<SelfCheckResult> {
  const t0 = performance.now();
  const a = Float32Array.from({ length: n }, (_, i) => Math.sin(i) * 3);
  const b = Float32Array.from({ length: n }, (_, i) => i / 7);
  const expected = new Float32Array(n);
  for (let i = 0; i < n; i++) expected[i] = a[i] + b[i];
  const out = createStorage(device, n * 4, 'selfcheck out');
  const inA = storageFrom(device, a, 'selfcheck a');
  const inB = storageFrom(device, b, 'selfcheck b');
  await runDispatches(device, [
    makeDispatch(device, {
      kernel: 'add',
      bindings: [out, inA, inB],
      uniform: [[n, 'u32']],
      workgroups: groups1d(n, 64),
    }),
  ]);
  const got = await readF32(device, out, n);
  for (const buf of [out, inA, inB]) buf.destroy();
  let maxAbsDiff = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(got[i] - expected[i]);
    maxAbsDiff = Number.isNaN(d) ? NaN : Math.max(maxAbsDiff, d);
  }
  return { n, maxAbsDiff, ok: maxAbsDiff === 0, sample: Array.from(got.subarray(0, 4)), ms: performance.now() - t0 };
}

/** What the page knows of WebGPU: still looking, none (and why), or an adapter and its self-check. */
export type GpuProbe =
  | { kind: 'starting' }
  | { kind: 'no-webgpu'; reason: NoWebGpuError['reason']; detail: string }
  | {
      kind: 'ready';
      adapter: string;
      vendor: string;
      architecture: string;
      isSoftware: boolean;
      check: SelfCheckResult | null;
      checkError?: string;
    };

/**
 * Open a device with `open`, report the adapter (check null), then the self-check's result (or
 * its error); the device is destroyed after. `report` is called once or twice; `cancelled`
 * stops the reports of a probe nobody waits for.
 */
export async function probeGpu(
  open: () => Promise<GpuContext>,
  report: (p: GpuProbe) => void,
  cancelled = () => false,
): Promise<void> {
  let gpu: GpuContext;
  try {
    gpu = await open();
  } catch (e) {
    const reason = e instanceof NoWebGpuError ? e.reason : 'device-failed';
    if (!cancelled()) report({ kind: 'no-webgpu', reason, detail: (e as Error).message });
    return;
  }
  const a = gpu.adapter;
  const ready = {
    kind: 'ready' as const,
    adapter: adapterLabel(a),
    vendor: a.vendor,
    architecture: a.architecture,
    isSoftware: a.isSoftware,
  };
  if (!cancelled()) report({ ...ready, check: null });
  try {
    const check = await runSelfCheck(gpu.device);
    if (!cancelled()) report({ ...ready, check });
  } catch (e) {
    if (!cancelled()) report({ ...ready, check: null, checkError: (e as Error).message });
  } finally {
    gpu.device.destroy();
  }
}
