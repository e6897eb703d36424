// GPU tests in vitest: one Dawn device per test file, and an honest skip.
//
// Without an adapter a GPU test is *skipped* with the reason, never passed (docs/architecture.md, "Conventions").
// With CI=true a missing adapter fails the test instead, so CI cannot go green without
// having run the GPU path.

import { afterAll, expect, it, type TestContext } from 'vitest';
import type { GpuContext } from './device';
import { openNodeDevice } from './node-device';
import type { Rng } from '../core/random';

let pending: Promise<GpuContext | string> | null = null;
let hooked = false;

/** The test file's device, or the reason there is none. */
export function testGpu(): Promise<GpuContext | string> {
  if (!pending) {
    pending = openNodeDevice({ verbose: false }).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
  }
  return pending;
}

/** Registers (once per test file, at collection time) the hook that destroys the device. */
function destroyAfterAll(): void {
  if (hooked) return;
  hooked = true;
  afterAll(async () => {
    const ctx = await pending;
    pending = null;
    if (ctx && typeof ctx !== 'string') {
      await ctx.device.queue.onSubmittedWorkDone();
      ctx.device.destroy();
    }
  });
}

/** `it` for a test that needs the GPU: skipped (or failed under CI=true) without an adapter. */
export function gpuIt(
  name: string,
  fn: (gpu: GpuContext, t: TestContext) => Promise<void> | void,
  timeout?: number,
): void {
  destroyAfterAll();
  it(
    name,
    async (t) => {
      const ctx = await testGpu();
      if (typeof ctx === 'string') {
        if (process.env.CI === 'true') throw new Error(`GPU test cannot run under CI=true: no WebGPU adapter (${ctx})`);
        t.skip(`no WebGPU adapter: ${ctx}`);
        return;
      }
      await fn(ctx, t);
    },
    timeout,
  );
}

/** Max |a − b| over two arrays of equal length (NaN anywhere gives NaN). */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length mismatch: ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (Number.isNaN(d)) return NaN;
    if (d > m) m = d;
  }
  return m;
}

/** max |a_i| (0 for none). */
export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/** n normal draws (× scale, + shift) as the Float32Array a kernel reads. */
export function randn32(r: Rng, n: number, scale = 1, shift = 0): Float32Array {
  return Float32Array.from({ length: n }, () => shift + scale * r.normal());
}

/** A kernel's output against its CPU twin's: logs "name: max abs diff …" (unless told not to) and asserts diff ≤ relTol·max(1, max|expected|). */
export function expectClose(
  name: string,
  got: ArrayLike<number>,
  expected: ArrayLike<number>,
  relTol: number,
  log = true,
): number {
  const d = maxAbsDiff(got, expected);
  const tol = relTol * Math.max(1, maxAbs(expected));
  if (log) console.log(`${name}: max abs diff ${d.toExponential(2)} (tol ${tol.toExponential(1)})`);
  expect(d, name).toBeLessThanOrEqual(tol);
  return d;
}
