// The matmul epilogues (residual add, gelu, gelu backward: shaders/matmul.wgsl) against their CPU
// twin (src/reference/matmul-epilogue.ts), and bit for bit against the two kernels they replace
// (matmul, then add / gelu_forward / gelu_backward), in every variant, on ragged shapes.
import { describe, expect } from 'vitest';
import { expectClose, gpuIt, randn32 } from './testing';
import { runDispatches } from './dispatch';
import { createStorage, readF32, storageFrom } from './buffers';
import { addOp, geluBackwardOp, geluForwardOp, matmulOp, MATMUL_VARIANTS, type MatmulEpilogue } from './ops';
import { matmulEpilogue, type MatmulEpilogueTwin } from '../reference/matmul-epilogue';
import { makeRng } from '../core/random';

describe('matmul epilogues', () => {
  gpuIt(
    'residual, gelu and gelu backward: the twin, and the same bits as the kernels they fuse',
    async ({ device }) => {
      const r = makeRng(46);
      for (const [M, K, N, transB] of [
        [13, 9, 22, false],
        [37, 20, 11, true],
      ] as const) {
        const a = randn32(r, M * K),
          b = randn32(r, K * N),
          bias = randn32(r, N),
          other = randn32(r, M * N, 1.5); // the residual, or gelu backward's pre-activation
        const [aB, bB, biasB, otherB] = [a, b, bias, other].map((x) => storageFrom(device, x));
        for (const variant of MATMUL_VARIANTS) {
          for (const kind of ['residual', 'gelu', 'geluBackward'] as const) {
            const withBias = kind !== 'geluBackward'; // as the model calls them: the input grad has no bias
            const tag = `${kind} (${variant}) ${M}x${K}x${N}${transB ? ' Bᵀ' : ''}`;
            const out = createStorage(device, M * N * 4),
              pre = createStorage(device, M * N * 4);
            const e: MatmulEpilogue =
              kind === 'residual'
                ? { kind, residual: otherB }
                : kind === 'gelu'
                  ? { kind, pre }
                  : { kind, pre: otherB };
            const fused = matmulOp(device, out, aB, bB, withBias ? biasB : null, { M, K, N, transB }, variant, e);
            expect(fused).toHaveLength(1);
            // the unfused pair: matmul into s, then the elementwise kernel
            const s = createStorage(device, M * N * 4),
              ref = createStorage(device, M * N * 4);
            const after =
              kind === 'residual'
                ? addOp(device, ref, otherB, s, M * N)
                : kind === 'gelu'
                  ? geluForwardOp(device, ref, s, M * N)
                  : geluBackwardOp(device, ref, otherB, s, M * N);
            await runDispatches(device, [
              ...fused,
              ...matmulOp(device, s, aB, bB, withBias ? biasB : null, { M, K, N, transB }, variant),
              ...after,
            ]);
            const got = await readF32(device, out, M * N);
            expect([...got], `${tag}: the fused kernel gives the unfused kernels' bits`).toEqual([
              ...(await readF32(device, ref, M * N)),
            ]);
            if (kind === 'gelu')
              expect([...(await readF32(device, pre, M * N))]).toEqual([...(await readF32(device, s, M * N))]);
            const expected = new Float64Array(M * N),
              ePre = new Float64Array(M * N);
            const twin: MatmulEpilogueTwin =
              kind === 'residual'
                ? { kind, residual: other }
                : kind === 'gelu'
                  ? { kind, pre: ePre }
                  : { kind, pre: other };
            matmulEpilogue(expected, a, b, withBias ? bias : null, { M, K, N, transB }, twin);
            expectClose(tag, got, expected, 2e-5, variant === 'tuned');
          }
        }
      }
    },
  );

  gpuIt('an epilogue needs (=) and no split-K', ({ device }) => {
    const buf = (n: number) => createStorage(device, n * 4);
    const e: MatmulEpilogue = { kind: 'residual', residual: buf(16) };
    expect(() =>
      matmulOp(device, buf(16), buf(16), buf(16), null, { M: 4, K: 4, N: 4, accumulate: true }, 'tuned', e),
    ).toThrow(/epilogue \(residual\) needs \(=\)/);
    expect(() =>
      matmulOp(
        device,
        buf(16 * 16),
        buf(1024 * 16),
        buf(1024 * 16),
        null,
        { M: 16, K: 1024, N: 16, transA: true },
        'tuned',
        {
          kind: 'gelu',
          pre: buf(16 * 16),
        },
      ),
    ).toThrow(/no split-K/);
  });
});
