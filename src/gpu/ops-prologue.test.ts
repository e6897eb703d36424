// The matmul's layernorm prologue (shaders/matmul.wgsl, LN_PROLOGUE) against its CPU twin
// (matmulLayernorm in src/reference/matmul-epilogue.ts), and bit for bit against the kernels it
// fuses (layernorm_forward, then the matmul), in every variant, on ragged shapes, alone and with
// the gelu epilogue (as the model's fc calls it).
import { describe, expect } from 'vitest';
import { expectClose, gpuIt, randn32 } from './testing';
import { runDispatches } from './dispatch';
import { createStorage, readF32, storageFrom } from './buffers';
import { layernormForwardOp, matmulOp, MATMUL_VARIANTS, type MatmulEpilogue } from './ops';
import { matmulLayernorm } from '../reference/matmul-epilogue';
import { makeRng } from '../core/random';

describe('matmul layernorm prologue', () => {
  gpuIt(
    'gives the bits of layernorm_forward then matmul, and its twin',
    async ({ device }) => {
      const r = makeRng(47);
      // as the model calls it: the head (transB, no epilogue), fc (the gelu epilogue), qkv (neither)
      for (const [M, K, N, transB, gelus] of [
        [13, 9, 22, false, [false, true]],
        [37, 20, 11, true, [false]],
        [70, 33, 6, false, [true]], // more rows than a tiled workgroup's 32
      ] as const) {
        const x = randn32(r, M * K, 2, 0.5),
          b = randn32(r, K * N),
          bias = randn32(r, N),
          w = randn32(r, K, 0.5, 1),
          lnb = randn32(r, K, 0.3);
        // w and b as slices of one buffer, b 64 floats after w (the parameter layout's alignment)
        const wb = new Float32Array(128);
        wb.set(w, 0);
        wb.set(lnb, 64);
        const wbB = storageFrom(device, wb);
        const wS = { buffer: wbB, offset: 0, size: K * 4 },
          bS = { buffer: wbB, offset: 256, size: K * 4 };
        const [xB, bB, biasB] = [x, b, bias].map((v) => storageFrom(device, v));
        const f = (n: number) => createStorage(device, n * 4);
        for (const variant of MATMUL_VARIANTS) {
          for (const gelu of gelus) {
            const tag = `${variant}${gelu ? ' gelu' : ''} ${M}x${K}x${N}${transB ? ' Bᵀ' : ''}`;
            const [out, ln, stats, pre] = [f(M * N), f(M * K), f(2 * M), f(M * N)];
            const [refOut, refLn, refStats, refPre] = [f(M * N), f(M * K), f(2 * M), f(M * N)];
            const e = (p: GPUBuffer): MatmulEpilogue | null => (gelu ? { kind: 'gelu', pre: p } : null);
            const fused = matmulOp(device, out, xB, bB, biasB, { M, K, N, transB }, variant, e(pre), {
              w: wS,
              b: bS,
              ln,
              stats,
            });
            expect(fused).toHaveLength(1);
            await runDispatches(device, [
              ...fused,
              ...layernormForwardOp(device, refLn, refStats, xB, wS, bS, M, K),
              ...matmulOp(device, refOut, refLn, bB, biasB, { M, K, N, transB }, variant, e(refPre)),
            ]);
            const pairs: [string, GPUBuffer, GPUBuffer, number][] = [
              ['out', out, refOut, M * N],
              ['ln', ln, refLn, M * K],
              ['stats', stats, refStats, 2 * M],
            ];
            if (gelu) pairs.push(['pre', pre, refPre, M * N]);
            for (const [name, got, want, n] of pairs)
              expect([...(await readF32(device, got, n))], `${tag} ${name}: the unfused kernels' bits`).toEqual([
                ...(await readF32(device, want, n)),
              ]);
            const [eOut, eLn, eMean, eRstd, ePre] = [M * N, M * K, M, M, M * N].map((n) => new Float64Array(n));
            const pro = { w, b: lnb, ln: eLn, mean: eMean, rstd: eRstd };
            matmulLayernorm(eOut, x, b, bias, { M, K, N, transB }, gelu ? { kind: 'gelu', pre: ePre } : null, pro);
            expectClose(`${tag} out`, await readF32(device, out, M * N), eOut, 5e-5, variant === 'tuned');
            expectClose(`${tag} ln`, await readF32(device, ln, M * K), eLn, 2e-5, false);
          }
        }
      }
    },
    300_000,
  );

  gpuIt('needs w and b in one buffer, b after w, and op(a) untransposed', ({ device }) => {
    const buf = (n: number) => createStorage(device, n * 4);
    const p = buf(128),
      other = buf(64);
    const pro = (b: GPUBufferBinding) => ({ w: { buffer: p, offset: 0, size: 16 }, b, ln: buf(16), stats: buf(8) });
    const call = (b: GPUBufferBinding, transA = false) =>
      matmulOp(device, buf(16), buf(16), buf(16), null, { M: 4, K: 4, N: 4, transA }, 'tuned', null, pro(b));
    expect(() => call({ buffer: other, offset: 0, size: 16 })).toThrow(/w and b in one buffer/);
    expect(() => call({ buffer: p, offset: 0, size: 16 })).toThrow(/b after w/);
    expect(() => call({ buffer: p, offset: 256, size: 16 }, true)).toThrow(/op\(a\) untransposed/);
  });
});
