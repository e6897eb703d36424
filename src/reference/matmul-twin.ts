// The CPU twins of the matmul kernels (docs/engine.md): matmul, with its loops arranged for
// speed (the CPU engine spends most of its time here) and its plain definition beside it, tested
// to give the same bits; and the bias gradient. The conventions are those of ops.ts.

import type { MatmulShape } from '../core/abi';
import type { F } from './float';

// ─── matmul ─────────────────────────────────────────────────────────────────────────────────

/**
 * out = op(a)·op(b) (+ bias), (=) or (+= when shape.accumulate); the shape's letters and flags
 * as MatmulShape (src/core/abi.ts) gives them.
 *   forward linear: matmul(out[R,OC], inp[R,IC], W[IC,OC], bias, { M: R, K: IC, N: OC })
 *   tied head:      matmul(logits[R,V], x[R,C], wte[V,C], null, { M: R, K: C, N: V, transB: true })
 *   input grad:     matmul(dinp[R,IC], dout[R,OC], W[IC,OC], null, { M: R, K: OC, N: IC, transB: true })
 *   weight grad:    matmul(dW[IC,OC], inp[R,IC], dout[R,OC], null,
 *                     { M: IC, K: R, N: OC, transA: true, accumulate: true })
 */
export function matmul(
  out: F, // [M, N] (= or +=)
  a: F, // [M, K], or [K, M] if transA
  b: F, // [K, N], or [N, K] if transB
  bias: F | null, // [N] or null
  shape: MatmulShape,
): void {
  // Same sums as matmulDefinition, term by term in the same order (k ascending, the bias first),
  // so the results are bit-identical; only the loops are arranged so the innermost one walks
  // memory in order (1.7–7× per shape in V8, 2.9× over a maze-lesson step's shapes:
  // docs/benchmarks.md, "CPU engine: matmul").
  if (shape.transB && !shape.transA) matmulRowDots(out, a, b, bias, shape);
  else if (!shape.transB) matmulRowSums(out, a, b, bias, shape);
  else matmulDefinition(out, a, b, bias, shape);
}

/** transB, not transA: out[i,j] = a row i · b row j, both rows contiguous. */
function matmulRowDots(out: F, a: F, b: F, bias: F | null, { M, K, N, accumulate }: MatmulShape): void {
  for (let i = 0; i < M; i++) {
    const ai = i * K,
      oi = i * N;
    // Four outputs per pass share the loads of row i of a; each sum still runs k = 0, 1, ….
    let j = 0;
    for (; j + 4 <= N; j += 4) {
      const b0 = j * K,
        b1 = b0 + K,
        b2 = b1 + K,
        b3 = b2 + K;
      let s0 = bias ? bias[j] : 0,
        s1 = bias ? bias[j + 1] : 0,
        s2 = bias ? bias[j + 2] : 0,
        s3 = bias ? bias[j + 3] : 0;
      for (let k = 0; k < K; k++) {
        const av = a[ai + k];
        s0 += av * b[b0 + k];
        s1 += av * b[b1 + k];
        s2 += av * b[b2 + k];
        s3 += av * b[b3 + k];
      }
      if (accumulate) {
        out[oi + j] += s0;
        out[oi + j + 1] += s1;
        out[oi + j + 2] += s2;
        out[oi + j + 3] += s3;
      } else {
        out[oi + j] = s0;
        out[oi + j + 1] = s1;
        out[oi + j + 2] = s2;
        out[oi + j + 3] = s3;
      }
    }
    for (; j < N; j++) {
      const bj = j * K;
      let s = bias ? bias[j] : 0;
      for (let k = 0; k < K; k++) s += a[ai + k] * b[bj + k];
      out[oi + j] = accumulate ? out[oi + j] + s : s;
    }
  }
}

/** b not transposed: row i of out gathers a[i,k]·(row k of b) over k, in a row of doubles. */
function matmulRowSums(out: F, a: F, b: F, bias: F | null, { M, K, N, transA, accumulate }: MatmulShape): void {
  const row = new Float64Array(N); // [N] the sums of one output row, in JS doubles
  for (let i = 0; i < M; i++) {
    if (bias) for (let j = 0; j < N; j++) row[j] = bias[j];
    else row.fill(0);
    // Four rows of b per pass: row[j] + p0 + p1 + p2 + p3 adds left to right, the same order.
    let k = 0;
    for (; k + 4 <= K; k += 4) {
      const a0 = transA ? a[k * M + i] : a[i * K + k];
      const a1 = transA ? a[(k + 1) * M + i] : a[i * K + k + 1];
      const a2 = transA ? a[(k + 2) * M + i] : a[i * K + k + 2];
      const a3 = transA ? a[(k + 3) * M + i] : a[i * K + k + 3];
      const b0 = k * N,
        b1 = b0 + N,
        b2 = b1 + N,
        b3 = b2 + N;
      for (let j = 0; j < N; j++) row[j] = row[j] + a0 * b[b0 + j] + a1 * b[b1 + j] + a2 * b[b2 + j] + a3 * b[b3 + j];
    }
    for (; k < K; k++) {
      const av = transA ? a[k * M + i] : a[i * K + k];
      const bk = k * N;
      for (let j = 0; j < N; j++) row[j] += av * b[bk + j];
    }
    const oi = i * N;
    if (accumulate) for (let j = 0; j < N; j++) out[oi + j] += row[j];
    else for (let j = 0; j < N; j++) out[oi + j] = row[j];
  }
}

/** The definition, one output at a time: the ground truth matmul is tested against. */
export function matmulDefinition(out: F, a: F, b: F, bias: F | null, shape: MatmulShape): void {
  const { M, K, N, transA, transB, accumulate } = shape;
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = bias ? bias[j] : 0;
      for (let k = 0; k < K; k++) {
        const av = transA ? a[k * M + i] : a[i * K + k];
        const bv = transB ? b[j * K + k] : b[k * N + j];
        s += av * bv;
      }
      out[i * N + j] = accumulate ? out[i * N + j] + s : s;
    }
  }
}

/** dbias[j] += Σ_r dout[r,j] (column sums).  (+=) */
export function biasBackward(
  dbias: F, // [OC] (+=)
  dout: F, // [R, OC]
  R: number,
  OC: number,
): void {
  for (let j = 0; j < OC; j++) {
    let s = 0;
    for (let r = 0; r < R; r++) s += dout[r * OC + j];
    dbias[j] += s;
  }
}
