// sampleToken: environment positions, top-k, determinism, and a chi-square test that the
// counter-based draws follow softmax(z). Fixed seeds, so the statistical tests cannot flake.

import { describe, expect, it } from 'vitest';
import { sampleToken } from './ops';
import { uniform4 } from '../core/random';

const V = 5;
const logitsRow = [1, 0.5, -0.3, 2, 0];
const invTemp = 0.8;

/** softmax(logits·invTemp) of one row. */
function softmax(row: number[], k: number): number[] {
  const e = row.map((z) => Math.exp(z * k));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / s);
}

/** Draws one token per step for a single sequence (N = 1, Tmax = 4, pos = 2). */
function draw(seed: number, step: number, topK: number, logits: number[] = logitsRow) {
  const tokens = new Int32Array(4).fill(-7);
  const logp = new Float64Array(4),
    ent = new Float64Array(4);
  sampleToken(
    tokens,
    logp,
    ent,
    Float64Array.from(logits),
    new Int32Array(4).fill(-1),
    1,
    logits.length,
    4,
    2,
    seed,
    step,
    invTemp,
    topK,
  );
  return { token: tokens[2], logp: logp[2], entropy: ent[2], tokens };
}

/** Pearson's statistic of observed counts against expected probabilities. */
function chiSquare(counts: number[], probs: number[], total: number): number {
  return counts.reduce((a, c, i) => a + (c - total * probs[i]) ** 2 / (total * probs[i]), 0);
}

describe('sampleToken', () => {
  it('copies fixed positions and samples the rest, writing only at pos', () => {
    const N = 3,
      Tmax = 4,
      pos = 2;
    const fixed = Int32Array.from([-1, -1, -1, -1, 9, 9, 6, 9, -1, -1, -1, -1]); // [N,Tmax]
    const tokens = new Int32Array(N * Tmax).fill(-5);
    const logp = new Float64Array(N * Tmax).fill(7),
      ent = new Float64Array(N * Tmax).fill(7);
    const logits = Float64Array.from([...logitsRow, ...logitsRow, ...logitsRow]); // [N,V]
    sampleToken(tokens, logp, ent, logits, fixed, N, V, Tmax, pos, 42, 3, invTemp, 0);
    expect(tokens[1 * Tmax + pos]).toBe(6);
    expect(logp[1 * Tmax + pos]).toBe(0);
    expect(ent[1 * Tmax + pos]).toBe(0);
    for (const n of [0, 2]) {
      const tok = tokens[n * Tmax + pos];
      expect(tok).toBeGreaterThanOrEqual(0);
      expect(tok).toBeLessThan(V);
      // logp and entropy of the full tempered softmax
      const p = softmax(logitsRow, invTemp);
      expect(logp[n * Tmax + pos]).toBeCloseTo(Math.log(p[tok]), 12);
      expect(ent[n * Tmax + pos]).toBeCloseTo(-p.reduce((a, q) => a + q * Math.log(q), 0), 12);
    }
    for (let i = 0; i < N * Tmax; i++) {
      if (i % Tmax === pos) continue;
      expect(tokens[i]).toBe(-5);
      expect(logp[i]).toBe(7);
    }
  });

  it('is a pure function of (seed, step, sequence, position)', () => {
    const a = Array.from({ length: 50 }, (_, s) => draw(7, s, 0).token);
    const b = Array.from({ length: 50 }, (_, s) => draw(7, s, 0).token);
    const c = Array.from({ length: 50 }, (_, s) => draw(8, s, 0).token);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it('topK = 1 picks the argmax (lower index on ties), logp still of the full softmax', () => {
    for (let s = 0; s < 200; s++) expect(draw(1, s, 1).token).toBe(3);
    const tied = [0.2, 1.5, -1, 1.5, 0.3];
    for (let s = 0; s < 200; s++) expect(draw(1, s, 1, tied).token).toBe(1);
    const { logp } = draw(1, 0, 1);
    expect(logp).toBeCloseTo(Math.log(softmax(logitsRow, invTemp)[3]), 12);
  });

  it('draws follow the exact inverse CDF; frequencies match softmax(z) (chi-square, full and top-3)', () => {
    const M = 20000;
    // 0.999 quantiles of chi-square: 4 degrees of freedom 18.467, 2 degrees of freedom 13.816
    const cases: [number, number][] = [
      [0, 18.467],
      [3, 13.816],
    ];
    for (const [topK, critical] of cases) {
      const counts = new Array<number>(V).fill(0);
      let probs = softmax(logitsRow, invTemp);
      const keep = topK > 0 ? [1, 1, 0, 1, 0] : [1, 1, 1, 1, 1]; // top 3: indices 3, 0, 1
      const kept = probs.map((p, i) => p * keep[i]);
      const mass = kept.reduce((a, b) => a + b, 0);
      for (let s = 0; s < M; s++) {
        const tok = draw(12345, s, topK).token;
        counts[tok]++;
        // exact inverse CDF in index order: the first j with u < Σ_{i≤j} p̃_i
        const u = uniform4(12345, s, 0, 2);
        let cdf = 0;
        let expected = -1;
        for (let j = 0; j < V && expected < 0; j++) {
          cdf += kept[j] / mass;
          if (keep[j] && u < cdf) expected = j;
        }
        expect(tok).toBe(expected);
      }
      if (topK > 0) {
        expect(counts[2] + counts[4]).toBe(0);
        probs = kept.map((p) => p / mass);
      }
      const used = probs.map((p, i) => i).filter((i) => probs[i] > 0);
      const stat = chiSquare(
        used.map((i) => counts[i]),
        used.map((i) => probs[i]),
        M,
      );
      console.log(
        `sampleToken chi-square (topK ${topK}, ${M} draws, ${used.length - 1} dof): ${stat.toFixed(3)} < ${critical}`,
      );
      expect(stat).toBeLessThan(critical);
    }
  });
});
