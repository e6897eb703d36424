// Gradient checks of every backward kernel twin, in Float64, on small shapes that are not
// multiples of anything. Each check builds a scalar loss L = Σ dout ⊙ forward(x) with a fixed
// random cotangent dout, so the analytic gradient is the backward kernel applied to dout.
// (+=) outputs start from random values (the increment is checked), (=) outputs from NaN
// (so a kernel that reads its output, or skips an element, fails).

import { describe, expect, it } from 'vitest';
import {
  accumulate,
  add,
  attentionBackward,
  attentionForward,
  biasBackward,
  embeddingBackward,
  embeddingForward,
  geluBackward,
  geluForward,
  layernormBackward,
  layernormForward,
  matmul,
  matmulDefinition,
} from './ops';
import { dot, expectGrad, randn, rng, sub, uniform } from './testing';

const nanArray = (n: number): Float64Array => new Float64Array(n).fill(NaN);

describe('embedding', () => {
  const N = 2,
    T = 5,
    C = 7,
    V = 11,
    Tmax = 6;
  // repeated ids, and ids outside [0,V) that must read (and write) nothing of wte
  const tokens = Int32Array.from([3, 0, 10, 3, -1, 7, 11, 3, 5, 0]); // [N,T]

  it('out-of-range token ids read a zero wte row', () => {
    const r = rng(1);
    const wte = randn(r, V * C),
      wpe = randn(r, Tmax * C);
    const out = nanArray(N * T * C);
    embeddingForward(out, tokens, wte, wpe, { N, T, C, V });
    for (const [n, t] of [
      [0, 4],
      [1, 1],
    ]) {
      const row = out.subarray((n * T + t) * C, (n * T + t + 1) * C);
      expect(Array.from(row)).toEqual(Array.from(wpe.subarray(t * C, (t + 1) * C)));
    }
    // with zero position embeddings the row is exactly zero
    embeddingForward(out, tokens, wte, new Float64Array(Tmax * C), { N, T, C, V });
    expect(Array.from(out.subarray((0 * T + 4) * C, (0 * T + 5) * C))).toEqual(new Array(C).fill(0));
    // an in-range row is wte[tok] + wpe[t]
    expect(out[(1 * T + 0) * C + 2]).toBe(wte[7 * C + 2]);
  });

  it('backward (dwte, dwpe) passes gradcheck', () => {
    const r = rng(2);
    const wte = randn(r, V * C),
      wpe = randn(r, Tmax * C),
      dout = randn(r, N * T * C);
    const out = new Float64Array(N * T * C);
    const dwte0 = randn(r, V * C),
      dwpe0 = randn(r, Tmax * C);
    const dwte = dwte0.slice(),
      dwpe = dwpe0.slice();
    embeddingBackward(dwte, dwpe, dout, tokens, { N, T, C, V });
    const fwd = (a: Float64Array, b: Float64Array) => {
      embeddingForward(out, tokens, a, b, { N, T, C, V });
      return dot(out, dout);
    };
    expectGrad('embedding dwte', (x) => fwd(x, wpe), wte, sub(dwte, dwte0));
    expectGrad('embedding dwpe', (x) => fwd(wte, x), wpe, sub(dwpe, dwpe0));
    // row T of wpe is beyond the sequence: untouched
    expect(Array.from(sub(dwpe, dwpe0).subarray(T * C))).toEqual(new Array(C).fill(0));
  });
});

describe('layernorm', () => {
  it('forward normalises rows', () => {
    const R = 3,
      C = 7;
    const r = rng(3);
    const inp = randn(r, R * C, 3);
    const out = nanArray(R * C),
      mean = nanArray(R),
      rstd = nanArray(R);
    layernormForward(out, mean, rstd, inp, new Float64Array(C).fill(1), new Float64Array(C), R, C);
    const moments = (row: number[]) => {
      const m = row.reduce((a, b) => a + b, 0) / C;
      return [m, row.reduce((a, b) => a + (b - m) ** 2, 0) / C];
    };
    for (let i = 0; i < R; i++) {
      const [mi, vi] = moments(Array.from(inp.subarray(i * C, (i + 1) * C)));
      const [mo, vo] = moments(Array.from(out.subarray(i * C, (i + 1) * C)));
      expect(mean[i]).toBeCloseTo(mi, 12);
      expect(rstd[i]).toBeCloseTo(1 / Math.sqrt(vi + 1e-5), 12); // population variance, eps 1e-5
      expect(Math.abs(mo)).toBeLessThan(1e-12);
      expect(vo).toBeCloseTo(vi / (vi + 1e-5), 12);
    }
  });

  it('backward (inp, w, b) passes gradcheck', () => {
    const R = 5,
      C = 7;
    const r = rng(4);
    const inp = randn(r, R * C, 2),
      w = randn(r, C),
      b = randn(r, C),
      dout = randn(r, R * C);
    const out = new Float64Array(R * C),
      mean = new Float64Array(R),
      rstd = new Float64Array(R);
    const fwd = (x: Float64Array, ww: Float64Array, bb: Float64Array) => {
      layernormForward(out, mean, rstd, x, ww, bb, R, C);
      return dot(out, dout);
    };
    fwd(inp, w, b); // saves mean/rstd at the base point
    const dinp0 = randn(r, R * C),
      dw0 = randn(r, C),
      db0 = randn(r, C);
    const dinp = dinp0.slice(),
      dw = dw0.slice(),
      db = db0.slice();
    layernormBackward(dinp, dw, db, dout, inp, w, mean, rstd, R, C);
    expectGrad('layernorm dinp', (x) => fwd(x, w, b), inp, sub(dinp, dinp0));
    expectGrad('layernorm dw', (x) => fwd(inp, x, b), w, sub(dw, dw0));
    expectGrad('layernorm db', (x) => fwd(inp, w, x), b, sub(db, db0));
  });
});

/** Every combination of n booleans: [false,…], …, [true,…]. */
function flagCombinations(n: number): boolean[][] {
  return Array.from({ length: 2 ** n }, (_, m) => Array.from({ length: n }, (_, bit) => ((m >> bit) & 1) === 1));
}

describe('matmul', () => {
  it('forward on a hand-computed case, with bias and accumulate', () => {
    // [1 2; 3 4]·[5 6; 7 8] = [19 22; 43 50]
    const a = Float64Array.from([1, 2, 3, 4]),
      b = Float64Array.from([5, 6, 7, 8]);
    const out = nanArray(4);
    matmul(out, a, b, Float64Array.from([1, -1]), { M: 2, K: 2, N: 2 });
    expect(Array.from(out)).toEqual([20, 21, 44, 49]);
    matmul(out, a, b, null, { M: 2, K: 2, N: 2, accumulate: true });
    expect(Array.from(out)).toEqual([39, 43, 87, 99]);
    // aᵀ·bᵀ = [1 3; 2 4]·[5 7; 6 8] = [23 31; 34 46]
    matmul(out, a, b, null, { M: 2, K: 2, N: 2, transA: true, transB: true });
    expect(Array.from(out)).toEqual([23, 31, 34, 46]);
  });

  it('gives bit for bit the sums of its definition, for every flag combination', () => {
    // Float32 in and out, as the engine runs: the loop order may change, the sums may not.
    // [6, 9, 7] reaches both the four-wide passes and the leftover ones.
    const rand = (n: number, seed: number) => Float32Array.from(uniform(rng(seed), n, -3, 3));
    for (const [M, K, Nc] of [
      [5, 7, 3],
      [6, 9, 7],
      [2, 3, 9],
    ]) {
      for (const [transA, transB, accumulate] of flagCombinations(3)) {
        for (const bias of [null, rand(Nc, 3)]) {
          const a = rand(M * K, 1),
            b = rand(K * Nc, 2),
            start = rand(M * Nc, 4);
          const fast = start.slice(),
            slow = start.slice();
          matmul(fast, a, b, bias, { M, K, N: Nc, transA, transB, accumulate });
          matmulDefinition(slow, a, b, bias, { M, K, N: Nc, transA, transB, accumulate });
          const what = `[${M},${K},${Nc}] transA ${transA} transB ${transB} accumulate ${accumulate} bias ${!!bias}`;
          expect(Array.from(fast), what).toEqual(Array.from(slow));
          expect(
            fast.some((v, i) => v !== start[i]),
            what,
          ).toBe(true);
        }
      }
    }
  });

  // M, K, N pairwise coprime and not multiples of 4, so index mix-ups cannot cancel.
  const M = 5,
    K = 7,
    Nc = 3;
  for (const transA of [false, true]) {
    for (const transB of [false, true]) {
      it(`backward through matmul passes gradcheck (transA=${transA}, transB=${transB})`, () => {
        const r = rng(10 + Number(transA) * 2 + Number(transB));
        const a = randn(r, M * K),
          b = randn(r, K * Nc),
          bias = randn(r, Nc),
          dout = randn(r, M * Nc);
        const out = new Float64Array(M * Nc);
        const fwd = (aa: Float64Array, bb: Float64Array, cc: Float64Array) => {
          matmul(out, aa, bb, cc, { M, K, N: Nc, transA, transB });
          return dot(out, dout);
        };
        // dA = dout·op(b)ᵀ, dB = op(a)ᵀ·dout, each written in the storage layout of a / b,
        // using matmul itself with every flag combination (and accumulate on top of noise).
        const da0 = randn(r, M * K),
          db0 = randn(r, K * Nc),
          dbias0 = randn(r, Nc);
        const da = da0.slice(),
          db = db0.slice(),
          dbias = dbias0.slice();
        if (!transA)
          matmul(da, dout, b, null, { M, K: Nc, N: K, transB: !transB, accumulate: true }); // [M,K]
        else matmul(da, b, dout, null, { M: K, K: Nc, N: M, transA: transB, transB: true, accumulate: true }); // [K,M]
        if (!transB)
          matmul(db, a, dout, null, { M: K, K: M, N: Nc, transA: !transA, accumulate: true }); // [K,N]
        else matmul(db, dout, a, null, { M: Nc, K: M, N: K, transA: true, transB: transA, accumulate: true }); // [N,K]
        biasBackward(dbias, dout, M, Nc);
        const tag = `${transA ? 'T' : 'N'}${transB ? 'T' : 'N'}`;
        expectGrad(`matmul ${tag} da`, (x) => fwd(x, b, bias), a, sub(da, da0));
        expectGrad(`matmul ${tag} db`, (x) => fwd(a, x, bias), b, sub(db, db0));
        expectGrad(`matmul ${tag} dbias`, (x) => fwd(a, b, x), bias, sub(dbias, dbias0));
      });
    }
  }
});

describe('attention', () => {
  const N = 2,
    T = 5,
    C = 6,
    NH = 2; // hd = 3

  it('forward: causal probabilities, rows sum to 1', () => {
    const r = rng(20);
    const qkv = randn(r, N * T * 3 * C);
    const out = nanArray(N * T * C),
      att = nanArray(N * NH * T * T);
    attentionForward(out, att, qkv, { N, T, C, NH });
    for (let row = 0; row < N * NH * T; row++) {
      const t = row % T;
      let s = 0;
      for (let u = 0; u < T; u++) {
        const p = att[row * T + u];
        if (u > t) expect(p).toBe(0);
        s += p;
      }
      expect(s).toBeCloseTo(1, 12);
    }
    // t = 0 attends only to itself: out = v_0
    for (let h = 0; h < NH; h++) {
      for (let d = 0; d < C / NH; d++) expect(out[h * 3 + d]).toBeCloseTo(qkv[2 * C + h * 3 + d], 12);
    }
  });

  it('backward (dqkv) passes gradcheck', () => {
    const r = rng(21);
    const qkv = randn(r, N * T * 3 * C),
      dout = randn(r, N * T * C);
    const out = new Float64Array(N * T * C),
      att = new Float64Array(N * NH * T * T);
    const fwd = (x: Float64Array) => {
      attentionForward(out, att, x, { N, T, C, NH });
      return dot(out, dout);
    };
    fwd(qkv);
    const dqkv = nanArray(N * T * 3 * C);
    attentionBackward(dqkv, dout, qkv, att, { N, T, C, NH });
    expectGrad('attention dqkv', fwd, qkv, dqkv);
  });
});

describe('gelu', () => {
  it('forward matches known values', () => {
    const x = Float64Array.from([0, 1, -1, 3]);
    const out = nanArray(4);
    geluForward(out, x, 4);
    // values of 0.5x(1 + tanh(sqrt(2/π)(x + 0.044715x³))) computed in Python
    expect(out[0]).toBe(0);
    expect(out[1]).toBeCloseTo(0.8411919906082768, 14);
    expect(out[2]).toBeCloseTo(-0.15880800939172324, 14);
    expect(out[3]).toBeCloseTo(2.996362607918227, 14);
  });

  it('backward passes gradcheck', () => {
    const n = 13;
    const r = rng(30);
    const x = uniform(r, n, -4, 4),
      dout = randn(r, n);
    const out = new Float64Array(n);
    const dinp = nanArray(n);
    geluBackward(dinp, x, dout, n);
    expectGrad(
      'gelu dinp',
      (v) => {
        geluForward(out, v, n);
        return dot(out, dout);
      },
      x,
      dinp,
    );
  });
});

describe('residual add / accumulate', () => {
  it('accumulate is the backward of add', () => {
    const n = 11;
    const r = rng(40);
    const a = randn(r, n),
      b = randn(r, n),
      dout = randn(r, n);
    const out = nanArray(n);
    const fwd = (x: Float64Array, y: Float64Array) => {
      add(out, x, y, n);
      return dot(out, dout);
    };
    const da0 = randn(r, n),
      db0 = randn(r, n);
    const da = da0.slice(),
      db = db0.slice();
    accumulate(da, dout, n);
    accumulate(db, dout, n);
    expectGrad('add da (accumulate)', (x) => fwd(x, b), a, sub(da, da0));
    expectGrad('add db (accumulate)', (x) => fwd(a, x), b, sub(db, db0));
  });
});
