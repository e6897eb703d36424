// A one-kernel self-check the page runs at start-up: proves that WGSL compiles, dispatches
// and reads back on this adapter, and that it agrees with the CPU twin of `add` (one f32
// addition per element, written out here: src/gpu sits below src/reference).

import { makeDispatch, runDispatches } from './dispatch';
import { storageFrom, createStorage, readF32, groups1d } from './buffers';

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
    makeDispatch(device, { kernel: 'add', bindings: [out, inA, inB], uniform: [[n, 'u32']], workgroups: groups1d(n, 64) }),
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
