// The matmul autotuner: picks one of the variants, measures them all, caches per device.
import { describe, expect, it } from 'vitest';
import { gpuIt } from './testing';
import { MATMUL_VARIANTS } from './ops';
import { chooseMatmulVariant, cachedMatmulVariant, matmulFlops, shapeLabel, timeInterleaved } from './autotune';
import { median } from '../core/numeric';

describe('matmul autotune', () => {
  it('median and interleaving helpers', async () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNaN();
    const order: string[] = [];
    const mk = (name: string) => async () => {
      order.push(name);
      return name;
    };
    const samples = await timeInterleaved([mk('A'), mk('B')], { warmup: 1, reps: 2 });
    expect(order).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
    expect(samples).toEqual([
      ['A', 'A'],
      ['B', 'B'],
    ]);
    const s = { M: 4, K: 5, N: 6, transA: true, transB: false, accumulate: true, bias: false };
    expect(matmulFlops(s)).toBe(240);
    expect(shapeLabel(s)).toBe('4×5×6 Aᵀ +=');
  });

  gpuIt(
    'chooses one of the variants, the fastest measured, and caches the choice per device',
    async ({ device, adapter }) => {
      expect(cachedMatmulVariant(device)).toBeUndefined();
      const first = await chooseMatmulVariant(device);
      expect(MATMUL_VARIANTS).toContain(first.variant);
      for (const v of MATMUL_VARIANTS) {
        expect(first.timings[v]).toBeGreaterThan(0);
        expect(first.timings[first.variant]).toBeLessThanOrEqual(first.timings[v]);
      }
      const t0 = performance.now();
      const again = await chooseMatmulVariant(device);
      const cachedMs = performance.now() - t0;
      expect(again).toBe(first); // the same result object, not a new measurement
      expect(cachedMs).toBeLessThan(50);
      expect(cachedMatmulVariant(device)).toBeDefined();
      console.log(
        `autotune on ${adapter.description || adapter.architecture}: ${first.variant} in ${first.tookMs.toFixed(0)} ms; ` +
          MATMUL_VARIANTS.map((v) => `${v} ${first.timings[v].toFixed(2)} ms`).join(', '),
      );
    },
  );
});
