// The model's layer kernels (embedding, layernorm, matmul, bias, attention, gelu, residual)
// against their CPU twins in src/reference/ops.ts, on shapes that are not multiples of any
// tile or workgroup size. Each test prints one line per kernel with the max abs diff and
// asserts it is below a tolerance scaled to the size of the values (f32 round-off).
import { describe, expect } from 'vitest';
import { expectClose, gpuIt, maxAbs, maxAbsDiff, randn32 } from './testing';
import { runDispatches } from './dispatch';
import { createStorage, readF32, storageFrom } from './buffers';
import { pipelineCreations } from './pipelines';
import {
  accumulateOp,
  addOp,
  attentionBackwardOp,
  attentionForwardOp,
  biasBackwardOp,
  embeddingBackwardOp,
  embeddingForwardOp,
  geluBackwardOp,
  geluForwardOp,
  layernormBackwardOp,
  layernormForwardOp,
  matmulOp,
  splitKChunks,
  SUM_ROWS,
  MATMUL_VARIANTS,
} from './ops';
import * as twin from '../reference/ops';
import { makeRng } from '../core/random';

describe('layer kernels vs CPU twins', () => {
  gpuIt('embedding forward/backward (ids outside [0,V) read and write no wte row)', async ({ device }) => {
    const N = 3,
      T = 5,
      C = 12,
      V = 11,
      Tmax = 7;
    const r = makeRng(1);
    const tokens = Int32Array.from({ length: N * T }, (_, i) => [3, 0, 10, 3, -1, 7, 11, 3, 5, 0, 1, 2, 3, 4, 3][i]);
    const wte = randn32(r, V * C),
      wpe = randn32(r, Tmax * C),
      dout = randn32(r, N * T * C);
    const dwte0 = randn32(r, V * C),
      dwpe0 = randn32(r, Tmax * C);

    const out = createStorage(device, N * T * C * 4);
    const dwte = storageFrom(device, dwte0),
      dwpe = storageFrom(device, dwpe0);
    const tokBuf = storageFrom(device, tokens);
    await runDispatches(device, [
      ...embeddingForwardOp(device, out, tokBuf, storageFrom(device, wte), storageFrom(device, wpe), { N, T, C, V }),
      ...embeddingBackwardOp(device, dwte, dwpe, storageFrom(device, dout), tokBuf, { N, T, C, V }),
    ]);
    const eOut = new Float32Array(N * T * C);
    twin.embeddingForward(eOut, tokens, wte, wpe, { N, T, C, V });
    const eDwte = Float32Array.from(dwte0),
      eDwpe = Float32Array.from(dwpe0);
    twin.embeddingBackward(eDwte, eDwpe, dout, tokens, { N, T, C, V });
    // same f32 additions in the same order: bit-identical
    expect(expectClose('embedding_forward', await readF32(device, out, N * T * C), eOut, 0)).toBe(0);
    expect(expectClose('embedding_backward dwte', await readF32(device, dwte, V * C), eDwte, 0)).toBe(0);
    expect(expectClose('embedding_backward dwpe', await readF32(device, dwpe, Tmax * C), eDwpe, 0)).toBe(0);
  });

  gpuIt('layernorm forward/backward: one chunk of rows, several, and more than a round of them', async ({ device }) => {
    for (const R of [10, 2 * SUM_ROWS + 5, 10 * SUM_ROWS + 3]) {
      const C = 12;
      const r = makeRng(2 + R);
      const inp = randn32(r, R * C, 2, 3); // mean far from 0: the two-pass variance matters
      const w = randn32(r, C, 0.5, 1),
        b = randn32(r, C, 0.5),
        dout = randn32(r, R * C);
      const dinp0 = randn32(r, R * C),
        dw0 = randn32(r, C),
        db0 = randn32(r, C);

      const out = createStorage(device, R * C * 4),
        stats = createStorage(device, 2 * R * 4);
      const inpB = storageFrom(device, inp),
        wB = storageFrom(device, w);
      const dinp = storageFrom(device, dinp0),
        dw = storageFrom(device, dw0),
        db = storageFrom(device, db0);
      await runDispatches(device, [
        ...layernormForwardOp(device, out, stats, inpB, wB, storageFrom(device, b), R, C),
        ...layernormBackwardOp(device, dinp, dw, db, storageFrom(device, dout), inpB, wB, stats, R, C),
      ]);
      const eOut = new Float64Array(R * C),
        eMean = new Float64Array(R),
        eRstd = new Float64Array(R);
      twin.layernormForward(eOut, eMean, eRstd, inp, w, b, R, C);
      const gStats = await readF32(device, stats, 2 * R);
      const gMean = gStats.subarray(0, R),
        gRstd = gStats.subarray(R);
      expectClose('layernorm_forward out', await readF32(device, out, R * C), eOut, 1e-5);
      expectClose('layernorm_forward mean', gMean, eMean, 1e-5);
      expectClose('layernorm_forward rstd', gRstd, eRstd, 1e-5);
      // the backward twin gets the GPU's saved statistics, as the GPU kernel did
      const eDinp = Float64Array.from(dinp0),
        eDw = Float64Array.from(dw0),
        eDb = Float64Array.from(db0);
      twin.layernormBackward(eDinp, eDw, eDb, dout, inp, w, gMean, gRstd, R, C);
      expectClose('layernorm_backward dinp', await readF32(device, dinp, R * C), eDinp, 1e-5);
      expectClose('layernorm_backward dw', await readF32(device, dw, C), eDw, 1e-5);
      expectClose('layernorm_backward db', await readF32(device, db, C), eDb, 1e-5);
    }
  });

  gpuIt('matmul: every variant, all (transA, transB, accumulate), with and without bias', async ({ device }) => {
    const r = makeRng(3);
    // the second shape spans several 32×32 tiles of the tuned variant, with ragged edges
    for (const [M, K, N] of [
      [13, 7, 11],
      [37, 19, 45],
    ]) {
      const a = randn32(r, M * K),
        b = randn32(r, K * N),
        bias = randn32(r, N),
        init = randn32(r, M * N);
      const aB = storageFrom(device, a),
        bB = storageFrom(device, b),
        biasB = storageFrom(device, bias);
      for (const variant of MATMUL_VARIANTS) {
        let worst = 0;
        const cases: { name: string; out: GPUBuffer; expected: Float64Array }[] = [];
        const dispatches = [];
        for (let combo = 0; combo < 16; combo++) {
          const transA = (combo & 1) !== 0,
            transB = (combo & 2) !== 0,
            acc = (combo & 4) !== 0,
            withBias = (combo & 8) !== 0;
          // the same buffers read as [K,M] / [N,K] when transposed
          const out = storageFrom(device, init);
          dispatches.push(
            ...matmulOp(
              device,
              out,
              aB,
              bB,
              withBias ? biasB : null,
              { M, K, N, transA, transB, accumulate: acc },
              variant,
            ),
          );
          const expected = Float64Array.from(init);
          twin.matmul(expected, a, b, withBias ? bias : null, { M, K, N, transA, transB, accumulate: acc });
          cases.push({ name: `tA=${+transA} tB=${+transB} acc=${+acc} bias=${+withBias}`, out, expected });
        }
        await runDispatches(device, dispatches);
        for (const c of cases) {
          const got = await readF32(device, c.out, M * N);
          const d = maxAbsDiff(got, c.expected);
          expect(d, `${variant} ${M}x${K}x${N} ${c.name}`).toBeLessThanOrEqual(2e-5 * Math.max(1, maxAbs(c.expected)));
          worst = Math.max(worst, d);
        }
        console.log(
          `matmul (${variant}) M=${M} K=${K} N=${N}: max abs diff over 16 combinations ${worst.toExponential(2)}`,
        );
      }
    }
  });

  // Weight-gradient matmuls (op(a) = aᵀ, a: [K, M], b: [K, N]) whose K is long enough to be
  // split into chunks, the last one ragged.
  const SPLIT_K_SHAPES = [
    [13, 600, 11],
    [37, 2100, 45],
  ] as const;
  /** The number of K chunks of a weight-gradient matmul of this shape, which must be split. */
  const expectSplitK = (M: number, K: number, N: number): number => {
    const Z = splitKChunks(M, K, N, true, false);
    expect(Z, `${M}x${K}x${N} is split`).toBeGreaterThan(1);
    return Z;
  };

  gpuIt(
    'matmul split-K (the weight-gradient shape: op(a) transposed, long K): = and +=, ragged chunks and tiles',
    async ({ device }) => {
      const r = makeRng(33);
      for (const [M, K, N] of SPLIT_K_SHAPES) {
        const Z = expectSplitK(M, K, N);
        const a = randn32(r, K * M),
          b = randn32(r, K * N),
          init = randn32(r, M * N);
        const aB = storageFrom(device, a),
          bB = storageFrom(device, b);
        for (const acc of [false, true]) {
          for (const variant of MATMUL_VARIANTS) {
            const out = storageFrom(device, init);
            const ds = matmulOp(device, out, aB, bB, null, { M, K, N, transA: true, accumulate: acc }, variant);
            expect(ds.map((d) => d.label).join(' ')).toContain('matmul_splitk');
            await runDispatches(device, ds);
            const expected = Float64Array.from(init);
            twin.matmul(expected, a, b, null, { M, K, N, transA: true, accumulate: acc });
            const d = maxAbsDiff(await readF32(device, out, M * N), expected);
            console.log(
              `matmul split-K (${variant}) ${M}x${K}x${N} Z=${Z} acc=${+acc}: max abs diff ${d.toExponential(2)}`,
            );
            expect(d).toBeLessThanOrEqual(2e-5 * Math.max(1, maxAbs(expected)) * Math.sqrt(K / 64));
          }
        }
      }
    },
  );

  gpuIt(
    'matmul split-K at its chunk bounds: only the first and last row of each chunk (and the last row of K) are non-zero, and each counts once',
    async ({ device }) => {
      // In training the batch's last row is the last position of the last sequence, which has no
      // target: its gradient is zero, so no training run can notice a kernel that drops it (or any
      // other row a bound gets wrong). Here those rows are all there is.
      const r = makeRng(34);
      for (const [M, K, N] of [...SPLIT_K_SHAPES, [8, 513, 8]]) {
        const Z = expectSplitK(M, K, N);
        const KC = Math.ceil(K / Z);
        const bounds = new Set<number>();
        for (let z = 0; z < Z; z++) {
          bounds.add(Math.min(K - 1, z * KC));
          bounds.add(Math.min(K, (z + 1) * KC) - 1);
        }
        const a = new Float32Array(K * M),
          b = new Float32Array(K * N); // a: [K, M] (op(a) = aᵀ), b: [K, N]
        for (const k of bounds) {
          a.set(randn32(r, M), k * M);
          b.set(randn32(r, N), k * N);
        }
        const out = storageFrom(device, new Float32Array(M * N));
        const ds = matmulOp(
          device,
          out,
          storageFrom(device, a),
          storageFrom(device, b),
          null,
          { M, K, N, transA: true },
          MATMUL_VARIANTS[0],
        );
        expect(ds.map((d) => d.label).join(' ')).toContain('matmul_splitk');
        await runDispatches(device, ds);
        const expected = new Float64Array(M * N);
        twin.matmul(expected, a, b, null, { M, K, N, transA: true });
        const d = maxAbsDiff(await readF32(device, out, M * N), expected);
        console.log(
          `matmul split-K ${M}x${K}x${N} Z=${Z}, ${bounds.size} boundary rows: max abs diff ${d.toExponential(2)}`,
        );
        expect(d, `rows ${[...bounds].join(', ')}`).toBeLessThanOrEqual(1e-5 * Math.max(1, maxAbs(expected)));
      }
    },
  );

  gpuIt('bias_backward: one chunk of rows, several, and more than a round of them', async ({ device }) => {
    for (const R of [10, 3 * SUM_ROWS + 7, 10 * SUM_ROWS + 3]) {
      const OC = 11;
      const r = makeRng(4 + R);
      const dout = randn32(r, R * OC),
        dbias0 = randn32(r, OC);
      const dbias = storageFrom(device, dbias0);
      await runDispatches(device, biasBackwardOp(device, dbias, storageFrom(device, dout), R, OC));
      const got = await readF32(device, dbias, OC);
      const e = Float64Array.from(dbias0);
      twin.biasBackward(e, dout, R, OC);
      expectClose(`bias_backward R=${R}`, got, e, 1e-5);
      // the order is fixed by R alone: each chunk of SUM_ROWS rows in row order, then the chunk sums in order
      const chunked = Float32Array.from(dbias0, (d, j) => {
        let acc = 0;
        for (let z = 0; z * SUM_ROWS < R; z++) {
          let s = 0;
          for (let row = z * SUM_ROWS; row < Math.min(R, (z + 1) * SUM_ROWS); row++)
            s = Math.fround(s + dout[row * OC + j]);
          acc = Math.fround(acc + s);
        }
        return Math.fround(d + acc);
      });
      expect([...got]).toEqual([...chunked]);
    }
  });

  gpuIt('attention forward/backward', async ({ device }) => {
    for (const [N, T, C, NH] of [
      [3, 5, 12, 2],
      [2, 7, 12, 3],
    ]) {
      const r = makeRng(5 + NH);
      const qkv = randn32(r, N * T * 3 * C),
        dout = randn32(r, N * T * C);
      const out = createStorage(device, N * T * C * 4),
        att = createStorage(device, N * NH * T * T * 4);
      const dqkv = storageFrom(device, new Float32Array(N * T * 3 * C).fill(NaN)); // (=): every element written
      const qkvB = storageFrom(device, qkv);
      await runDispatches(device, [
        ...attentionForwardOp(device, out, att, qkvB, { N, T, C, NH }),
        ...attentionBackwardOp(device, dqkv, storageFrom(device, dout), qkvB, att, { N, T, C, NH }),
      ]);
      const eOut = new Float64Array(N * T * C),
        eAtt = new Float64Array(N * NH * T * T);
      twin.attentionForward(eOut, eAtt, qkv, { N, T, C, NH });
      const gAtt = await readF32(device, att, N * NH * T * T);
      const tag = `N=${N} T=${T} C=${C} NH=${NH}`;
      expectClose(`attention_forward out (${tag})`, await readF32(device, out, N * T * C), eOut, 1e-5);
      expectClose(`attention_forward att (${tag})`, gAtt, eAtt, 1e-5);
      const eD = new Float64Array(N * T * 3 * C);
      twin.attentionBackward(eD, dout, qkv, gAtt, { N, T, C, NH });
      expectClose(`attention_backward dqkv (${tag})`, await readF32(device, dqkv, N * T * 3 * C), eD, 1e-5);
    }
  });

  gpuIt('gelu forward/backward, add, accumulate', async ({ device }) => {
    const n = 1000 + 37;
    const r = makeRng(6);
    const x = randn32(r, n, 3);
    x[0] = 30;
    x[1] = -30;
    x[2] = 9;
    x[3] = -9; // saturated tanh
    const dout = randn32(r, n),
      y = randn32(r, n),
      dst0 = randn32(r, n);
    const out = createStorage(device, n * 4),
      dinp = createStorage(device, n * 4),
      sum = createStorage(device, n * 4);
    const xB = storageFrom(device, x),
      yB = storageFrom(device, y),
      dst = storageFrom(device, dst0);
    await runDispatches(device, [
      ...geluForwardOp(device, out, xB, n),
      ...geluBackwardOp(device, dinp, xB, storageFrom(device, dout), n),
      ...addOp(device, sum, xB, yB, n),
      ...accumulateOp(device, dst, yB, n),
    ]);
    const eOut = new Float64Array(n),
      eD = new Float64Array(n);
    twin.geluForward(eOut, x, n);
    twin.geluBackward(eD, x, dout, n);
    expectClose('gelu_forward', await readF32(device, out, n), eOut, 1e-5);
    expectClose('gelu_backward', await readF32(device, dinp, n), eD, 1e-5);
    const eSum = new Float32Array(n),
      eDst = Float32Array.from(dst0);
    twin.add(eSum, x, y, n);
    twin.accumulate(eDst, y, n);
    expect(expectClose('add', await readF32(device, sum, n), eSum, 0)).toBe(0);
    expect(expectClose('accumulate', await readF32(device, dst, n), eDst, 0)).toBe(0);
  });

  gpuIt(
    'add past 65535 workgroups of 64 (the sampler of a 16384-sequence batch at width 512): a 2-D dispatch',
    async ({ device }) => {
      const n = 65535 * 64 + 1000; // 4,195,240 elements: the 1-D dispatch could not be built
      const x = Float32Array.from({ length: n }, (_, i) => i % 1000);
      const y = Float32Array.from({ length: n }, (_, i) => (i % 7) - 3);
      const sum = createStorage(device, n * 4);
      const ops = addOp(device, sum, storageFrom(device, x), storageFrom(device, y), n);
      expect(ops[0].workgroups[1]).toBeGreaterThan(1);
      await runDispatches(device, ops);
      const got = await readF32(device, sum, n);
      const e = new Float32Array(n);
      twin.add(e, x, y, n);
      expect(expectClose('add (2-D)', got, e, 0)).toBe(0);
      sum.destroy();
    },
  );

  gpuIt('building an op again creates no pipeline; bad shapes are named', ({ device }) => {
    const a = createStorage(device, 64 * 4),
      b = createStorage(device, 64 * 4),
      out = createStorage(device, 64 * 4);
    const build = (): void => {
      matmulOp(device, out, a, b, null, { M: 4, K: 4, N: 4, transB: true, accumulate: true });
      layernormForwardOp(device, out, b, a, a, a, 4, 4);
      attentionBackwardOp(device, out, a, b, a, { N: 1, T: 2, C: 4, NH: 2 });
    };
    build();
    const before = pipelineCreations(device);
    build();
    expect(pipelineCreations(device)).toBe(before);
    expect(() => matmulOp(device, out, a, b, null, { M: 9, K: 9, N: 9 })).toThrow(
      /matmul: out holds 64 elements, needs 81/,
    );
    expect(() => attentionForwardOp(device, out, a, b, { N: 1, T: 2, C: 5, NH: 2 })).toThrow(/not divisible/);
  });
});
