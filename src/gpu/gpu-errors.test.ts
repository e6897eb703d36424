import { describe, expect } from 'vitest';
import { gpuIt } from './testing';
import { GpuError, withGpuErrors } from './gpu-errors';
import { GpuEngine } from '../rl/gpu-engine';
import { DEFAULT_ENGINE_SETTINGS } from '../rl/engine';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';

describe('GPU errors are errors', () => {
  gpuIt('an invalid allocation inside withGpuErrors is a GpuError naming what was being done', async ({ device }) => {
    const tooBig = Number(device.limits.maxBufferSize) + 4;
    const e = await withGpuErrors(device, 'allocating a test buffer', () => {
      device.createBuffer({ size: tooBig, usage: GPUBufferUsage.STORAGE });
    }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(GpuError);
    expect((e as GpuError).kind).toBe('validation');
    expect((e as Error).message).toMatch(/^GPU validation error while allocating a test buffer: .*size/i);
    // The scopes were popped: later work is unaffected.
    expect(await withGpuErrors(device, 'nothing', () => 7)).toBe(7);
  });

  gpuIt(
    'the engine stops at the first GPU error instead of sampling on with an invalid KV cache',
    async ({ device }) => {
      const layout = buildLayout({ vocabSize: 8, nPositions: 32, nEmbd: 512, nLayer: 1, nHead: 4 });
      const engine = new GpuEngine(device, layout, initParams(layout, 1), DEFAULT_ENGINE_SETTINGS);
      try {
        // 8192 sequences × 32 tokens: the KV cache [N·T, 3C] is 1.6 GB, past the buffer limit.
        const N = 8192,
          T = 32;
        const fixed = new Int32Array(N * T).fill(-1);
        for (let n = 0; n < N; n++) fixed[n * T] = 1;
        const e = await engine.sample(fixed, N, T, { seed: 1, step: 0, invTemp: 1, topK: 0 }).then(
          () => null,
          (x: unknown) => x,
        );
        expect(e).toBeInstanceOf(GpuError);
        expect((e as Error).message).toMatch(/^GPU validation error while sampling 8192 sequences × 32 tokens: /);
      } finally {
        engine.destroy();
      }
    },
  );
});
