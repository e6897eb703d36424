// Proves the harness end to end: Dawn device → WGSL from shaders/ → pipeline cache →
// dispatch → readback, checked against the kernel's CPU twin.
import { describe, expect } from 'vitest';
import { gpuIt, maxAbsDiff } from './testing';
import { makeDispatch, runDispatches } from './dispatch';
import { storageFrom, createStorage, readF32, groups1d } from './buffers';
import { pipelineCreations } from './pipelines';
import { add } from '../reference/ops';
import { makeRng } from '../core/random';

describe('WebGPU harness', () => {
  gpuIt('reports the adapter it chose', (gpu) => {
    expect(gpu.adapter.source).toMatch(/Dawn/);
    console.log(`adapter: ${JSON.stringify(gpu.adapter)}`);
  });

  gpuIt('runs the add kernel and matches its CPU twin (n not a multiple of the workgroup)', async ({ device }) => {
    const n = 1000 + 37;
    const rng = makeRng(7);
    const a = Float32Array.from({ length: n }, () => rng.normal());
    const b = Float32Array.from({ length: n }, () => rng.normal());
    const expected = new Float32Array(n);
    add(expected, a, b, n);

    const out = createStorage(device, n * 4);
    const d = makeDispatch(device, {
      kernel: 'add',
      bindings: [out, storageFrom(device, a), storageFrom(device, b)],
      uniform: [[n, 'u32']],
      workgroups: groups1d(n, 64),
    });
    await runDispatches(device, [d]);
    const got = await readF32(device, out, n);
    const diff = maxAbsDiff(got, expected);
    console.log(`add: n=${n} max abs diff ${diff}`);
    expect(diff).toBe(0);
  });

  gpuIt('creates a pipeline once per (device, kernel key)', ({ device }) => {
    const bufs = [createStorage(device, 16), createStorage(device, 16), createStorage(device, 16)];
    const spec = { kernel: 'add', bindings: bufs, uniform: [[4, 'u32']] as const, workgroups: 1 };
    makeDispatch(device, spec);
    const before = pipelineCreations(device);
    makeDispatch(device, spec);
    expect(pipelineCreations(device)).toBe(before);
    makeDispatch(device, { ...spec, overrides: { WG: 32 } });
    expect(pipelineCreations(device)).toBe(before + 1);
  });
});
