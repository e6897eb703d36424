// Sampling and KV-cache decoding on the GPU against the CPU: the counter-based RNG bit for
// bit, sample_token (same tokens for the same seed; fixed positions copied; topK = 1 is the
// argmax), a whole sampling loop recorded in one command buffer with the position advanced by
// copyBufferToBuffer, and the decode kernels against src/reference/decode.ts.
import { describe, expect } from 'vitest';
import { expectClose, gpuIt, maxAbs, maxAbsDiff, randn32 } from './testing';
import { encodeDispatches, makeDispatch, runDispatches } from './dispatch';
import { createStorage, readBuffer, readF32, readI32, storageFrom } from './buffers';
import {
  attentionDecodeOp,
  copyRowsOp,
  createSampleTokenParams,
  embeddingDecodeOp,
  grid,
  sampleTokenOp,
  writeSampleTokenParams,
} from './ops';
import { sampleToken } from '../reference/ops';
import { attentionDecode, copyRows, embeddingDecode } from '../reference/decode';
import { hash4, hashU32, makeRng, uniform4 } from '../core/random';
import { type SampleTokenParams } from '../core/abi';

/**
 * The smallest distance, relative to the kept mass, between u·mass and a boundary of the
 * inverse CDF, over the sequences the CPU twin samples at `pos`. Above ~1e-5 f32 rounding
 * cannot move a token, so the GPU must agree exactly.
 */
function cdfMargin(
  logits: Float32Array,
  fixed: Int32Array,
  N: number,
  V: number,
  Tmax: number,
  pos: number,
  h: SampleTokenParams,
): number {
  let margin = Infinity;
  for (let n = 0; n < N; n++) {
    if (fixed[n * Tmax + pos] >= 0) continue;
    const row = Array.from(logits.subarray(n * V, (n + 1) * V));
    const order = row.map((l, j) => [l, j] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
    const kept = new Set(order.slice(0, h.topK > 0 && h.topK < V ? h.topK : V).map(([, j]) => j));
    const max = Math.max(...row.map((l) => l * h.invTemp));
    const w = row.map((l, j) => (kept.has(j) ? Math.exp(l * h.invTemp - max) : 0));
    const total = w.reduce((a, b) => a + b, 0);
    const target = uniform4(h.seed, h.step, n, pos) * total;
    let cum = 0;
    for (let j = 0; j < V; j++) {
      if (!kept.has(j)) continue;
      cum += w[j];
      margin = Math.min(margin, Math.abs(cum - target) / total);
    }
  }
  return margin;
}

describe('sampling and decoding kernels vs CPU twins', () => {
  gpuIt('random.wgsl equals src/core/random.ts bit for bit', async ({ device }) => {
    const n = 4096;
    const r = makeRng(30);
    // small counters, large words and the extremes
    const keys = Uint32Array.from({ length: n }, (_, i) =>
      i < 1024 ? i : i < 4094 ? Math.floor(r.next() * 4294967296) : i === 4094 ? 0xffffffff : 0x80000000,
    );
    const cases = [
      [0, 0, 0],
      [12345, 7, 99],
      [0xffffffff, 0xdeadbeef, 1],
    ];
    for (const [seed, a, b] of cases) {
      const out = createStorage(device, n * 3 * 4);
      await runDispatches(device, [
        makeDispatch(device, {
          kernel: 'random_fill',
          bindings: [out, storageFrom(device, keys)],
          uniform: [
            [n, 'u32'],
            [seed, 'u32'],
            [a, 'u32'],
            [b, 'u32'],
          ],
          workgroups: grid(n, 64),
        }),
      ]);
      const got = new Uint32Array(await readBuffer(device, out, n * 3 * 4));
      let mismatches = 0;
      const f = new Float32Array(1),
        fb = new Uint32Array(f.buffer);
      for (let i = 0; i < n; i++) {
        f[0] = uniform4(seed, a, keys[i], b);
        if (got[3 * i] !== hashU32(keys[i])) mismatches++;
        if (got[3 * i + 1] !== hash4(seed, keys[i], a, b)) mismatches++;
        if (got[3 * i + 2] !== fb[0]) mismatches++;
      }
      console.log(`random.wgsl (seed=${seed}): ${n} keys × (hash_u32, hash4, uniform4), ${mismatches} mismatches`);
      expect(mismatches).toBe(0);
      // uniform4 is exact in f32: the TS value survives the round trip
      f[0] = uniform4(seed, a, keys[7], b);
      expect(f[0]).toBe(uniform4(seed, a, keys[7], b));
    }
  });

  gpuIt(
    'sample_token: same tokens as the CPU twin, fixed positions copied, topK = 1 is the argmax',
    async ({ device }) => {
      for (const [N, V, Tmax] of [
        [6, 11, 5],
        [3, 150, 4],
      ]) {
        const r = makeRng(31 + V);
        const logits = randn32(r, N * V, 1.5);
        if (V === 11) {
          logits[3] = logits[5] = 9;
        } // a tie for the max in sequence 0: the lower index wins
        const fixed = Int32Array.from({ length: N * Tmax }, (_, i) => (i % 4 === 0 ? i % V : -1));
        const tokens0 = new Int32Array(N * Tmax).fill(-7);
        const buf = {
          tokens: storageFrom(device, tokens0),
          logp: createStorage(device, N * Tmax * 4),
          entropy: createStorage(device, N * Tmax * 4),
          logits: storageFrom(device, logits),
          fixed: storageFrom(device, fixed),
          cursor: storageFrom(device, Uint32Array.of(0)),
        };
        let h: SampleTokenParams = { seed: 1234, step: 0, invTemp: 1 / 0.8, topK: 0 };
        const params = createSampleTokenParams(device, h);
        const op = sampleTokenOp(
          device,
          buf.tokens,
          buf.logp,
          buf.entropy,
          buf.logits,
          buf.fixed,
          N,
          V,
          Tmax,
          buf.cursor,
          params,
        );
        const e = {
          tokens: Int32Array.from(tokens0),
          logp: new Float64Array(N * Tmax),
          entropy: new Float64Array(N * Tmax),
        };
        let worstMargin = Infinity,
          worstLogp = 0;
        // one op, many (position, step, topK): only the cursor and the params buffer change
        for (const [pos, step, topK] of [
          [0, 0, 0],
          [1, 1, 3],
          [2, 5, 1],
          [3, 2, 40],
          [Tmax - 1, 3, 0],
        ]) {
          h = { ...h, step, topK };
          writeSampleTokenParams(device, params, h);
          device.queue.writeBuffer(buf.cursor, 0, Uint32Array.of(pos));
          await runDispatches(device, op);
          sampleToken(e.tokens, e.logp, e.entropy, logits, fixed, N, V, Tmax, pos, h.seed, h.step, h.invTemp, h.topK);
          if (topK !== 1) worstMargin = Math.min(worstMargin, cdfMargin(logits, fixed, N, V, Tmax, pos, h));
          const got = await readI32(device, buf.tokens, N * Tmax);
          expect(Array.from(got), `tokens at pos ${pos} (topK ${topK})`).toEqual(Array.from(e.tokens));
          if (topK === 1) {
            for (let n = 0; n < N; n++) {
              if (fixed[n * Tmax + pos] >= 0) continue;
              const row = Array.from(logits.subarray(n * V, (n + 1) * V));
              expect(got[n * Tmax + pos]).toBe(row.indexOf(Math.max(...row)));
            }
          }
          worstLogp = Math.max(worstLogp, maxAbsDiff(await readF32(device, buf.logp, N * Tmax), e.logp));
        }
        expect(worstMargin, 'test data must keep u·mass away from CDF boundaries').toBeGreaterThan(1e-5);
        for (let i = 0; i < N * Tmax; i++) if (fixed[i] >= 0 && e.tokens[i] !== -7) expect(e.tokens[i]).toBe(fixed[i]);
        if (V === 11) expect(e.tokens[2]).toBe(3); // sequence 0, pos 2 (topK = 1): tie at 3 and 5
        expectClose(`sample_token logp (N=${N} V=${V})`, await readF32(device, buf.logp, N * Tmax), e.logp, 1e-5);
        expectClose(
          `sample_token entropy (N=${N} V=${V})`,
          await readF32(device, buf.entropy, N * Tmax),
          e.entropy,
          1e-5,
        );
        console.log(
          `sample_token (N=${N} V=${V}): tokens identical at 5 positions; smallest CDF margin ${worstMargin.toExponential(1)}`,
        );
        expect(worstLogp).toBeLessThan(1e-4);
      }
    },
  );

  gpuIt('a whole sampling loop in one command buffer: cursor advanced by copyBufferToBuffer', async ({ device }) => {
    const N = 4,
      V = 9,
      Tmax = 7;
    const r = makeRng(33);
    const logits = randn32(r, N * V);
    const fixed = Int32Array.from({ length: N * Tmax }, (_, i) => (i % Tmax < 2 ? (i * 5) % V : -1)); // a 2-token prompt
    const h: SampleTokenParams = { seed: 99, step: 4, invTemp: 1, topK: 0 };
    const tokens = createStorage(device, N * Tmax * 4),
      logp = createStorage(device, N * Tmax * 4),
      ent = createStorage(device, N * Tmax * 4);
    const cursor = createStorage(device, 4);
    const positions = storageFrom(
      device,
      Uint32Array.from({ length: Tmax }, (_, t) => t),
    );
    const op = sampleTokenOp(
      device,
      tokens,
      logp,
      ent,
      storageFrom(device, logits),
      storageFrom(device, fixed),
      N,
      V,
      Tmax,
      cursor,
      h,
    );
    const enc = device.createCommandEncoder();
    for (let pos = 0; pos < Tmax; pos++) {
      enc.copyBufferToBuffer(positions, pos * 4, cursor, 0, 4);
      encodeDispatches(enc, op);
    }
    device.queue.submit([enc.finish()]);
    const e = {
      tokens: new Int32Array(N * Tmax),
      logp: new Float64Array(N * Tmax),
      entropy: new Float64Array(N * Tmax),
    };
    for (let pos = 0; pos < Tmax; pos++) {
      sampleToken(e.tokens, e.logp, e.entropy, logits, fixed, N, V, Tmax, pos, h.seed, h.step, h.invTemp, h.topK);
      expect(cdfMargin(logits, fixed, N, V, Tmax, pos, h)).toBeGreaterThan(1e-5);
    }
    expect(Array.from(await readI32(device, tokens, N * Tmax))).toEqual(Array.from(e.tokens));
    expectClose('sample_token loop logp', await readF32(device, logp, N * Tmax), e.logp, 1e-5);
  });

  gpuIt('embedding_decode, copy_rows, attention_decode at several positions', async ({ device }) => {
    const N = 3,
      Tmax = 7,
      C = 12,
      NH = 2,
      V = 11,
      W = 3 * C;
    const r = makeRng(34);
    const tokens = Int32Array.from({ length: N * Tmax }, (_, i) => (i % 5 === 4 ? -1 : i % V));
    const wte = randn32(r, V * C),
      wpe = randn32(r, Tmax * C),
      qkv0 = randn32(r, N * Tmax * W),
      row = randn32(r, N * W);
    const cursor = storageFrom(device, Uint32Array.of(0));
    const emb = createStorage(device, N * C * 4),
      att = createStorage(device, N * C * 4);
    const cache = storageFrom(device, qkv0);
    const ops = [
      ...embeddingDecodeOp(
        device,
        emb,
        storageFrom(device, tokens),
        storageFrom(device, wte),
        storageFrom(device, wpe),
        { N, T: Tmax, C, V },
        cursor,
      ),
      ...copyRowsOp(device, cache, storageFrom(device, row), N, Tmax, W, cursor),
      ...attentionDecodeOp(device, att, cache, { N, T: Tmax, C, NH }, cursor),
    ];
    const eCache = Float32Array.from(qkv0);
    const worst = { emb: 0, copy: 0, att: 0 };
    for (const pos of [0, 3, Tmax - 1]) {
      device.queue.writeBuffer(cursor, 0, Uint32Array.of(pos));
      await runDispatches(device, ops);
      const eEmb = new Float32Array(N * C),
        eAtt = new Float64Array(N * C);
      embeddingDecode(eEmb, tokens, wte, wpe, { N, T: Tmax, C, V }, pos);
      copyRows(eCache, row, N, Tmax, W, pos);
      attentionDecode(eAtt, eCache, { N, T: Tmax, C, NH }, pos);
      worst.emb = Math.max(worst.emb, maxAbsDiff(await readF32(device, emb, N * C), eEmb));
      worst.copy = Math.max(worst.copy, maxAbsDiff(await readF32(device, cache, N * Tmax * W), eCache));
      worst.att = Math.max(worst.att, maxAbsDiff(await readF32(device, att, N * C), eAtt));
    }
    console.log(`embedding_decode: max abs diff ${worst.emb.toExponential(2)}`);
    console.log(`copy_rows: max abs diff ${worst.copy.toExponential(2)}`);
    console.log(`attention_decode: max abs diff ${worst.att.toExponential(2)}`);
    expect(worst.emb).toBe(0);
    expect(worst.copy).toBe(0);
    expect(worst.att).toBeLessThan(1e-5 * Math.max(1, maxAbs(qkv0)));
  });

  gpuIt(
    'attention_decode when a workgroup loops: more cache rows and a wider head than its 64 threads',
    async ({ device }) => {
      // Tmax 100 > 64: each thread scores several rows; hd = 160 / 2 = 80 > 64: several outputs.
      const N = 2,
        Tmax = 100,
        C = 160,
        NH = 2,
        W = 3 * C;
      const r = makeRng(35);
      const qkv = randn32(r, N * Tmax * W);
      const cursor = storageFrom(device, Uint32Array.of(0));
      const att = createStorage(device, N * C * 4);
      const ops = attentionDecodeOp(device, att, storageFrom(device, qkv), { N, T: Tmax, C, NH }, cursor);
      let worst = 0;
      for (const pos of [0, 63, 64, Tmax - 1]) {
        device.queue.writeBuffer(cursor, 0, Uint32Array.of(pos));
        await runDispatches(device, ops);
        const expected = new Float64Array(N * C);
        attentionDecode(expected, qkv, { N, T: Tmax, C, NH }, pos);
        worst = Math.max(worst, maxAbsDiff(await readF32(device, att, N * C), expected));
      }
      console.log(`attention_decode (Tmax ${Tmax}, hd ${C / NH}): max abs diff ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-5 * Math.max(1, maxAbs(qkv)));
    },
  );
});
