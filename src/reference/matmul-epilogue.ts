// The CPU twins of a matmul with an epilogue or a layernorm prologue (shaders/matmul.wgsl,
// EPILOGUE and LN_PROLOGUE; docs/engine.md): the twins of the kernels the GPU fuses, in the same
// order, so each output is the value the separate kernels gave.

import type { F } from './float';
import { add, geluBackward, geluForward, layernormForward } from './ops';
import { matmul } from './matmul-twin';

/** The epilogue's tensor [M, N]: the residual read, the pre-activation written (gelu) or read (gelu backward). */
export type MatmulEpilogueTwin =
  { kind: 'residual'; residual: F } | { kind: 'gelu'; pre: F } | { kind: 'geluBackward'; pre: F };

/**
 * out (=) epilogue(op(a)·op(b) + bias): `residual` out = residual + s; `gelu` pre = s,
 * out = gelu(s); `geluBackward` out = gelu'(pre)·s.
 */
export function matmulEpilogue(
  out: F, // [M, N] (=)
  a: F, // [M, K], or [K, M] if transA
  b: F, // [K, N], or [N, K] if transB
  bias: F | null, // [N] or null
  M: number,
  K: number,
  N: number,
  transA: boolean,
  transB: boolean,
  epilogue: MatmulEpilogueTwin,
): void {
  const n = M * N;
  const s = new (out.constructor as typeof Float64Array)(n); // the sums, in out's precision
  matmul(s, a, b, bias, M, K, N, transA, transB, false);
  if (epilogue.kind === 'residual') add(out, epilogue.residual, s, n);
  else if (epilogue.kind === 'gelu') {
    epilogue.pre.set(s);
    geluForward(out, s, n);
  } else geluBackward(out, epilogue.pre, s, n);
}

/**
 * The layernorm prologue: ln (=), mean, rstd (=) the layernorm of x's rows; out (=)
 * epilogue(ln·op(b) + bias), or the plain sum without an epilogue.
 */
export function matmulLayernorm(
  out: F, // [M, N] (=)
  ln: F, // [M, K] (=)
  mean: F, // [M] (=)
  rstd: F, // [M] (=)
  x: F, // [M, K]
  w: F, // [K]
  lnb: F, // [K]
  b: F, // [K, N], or [N, K] if transB
  bias: F | null, // [N] or null
  M: number,
  K: number,
  N: number,
  transB: boolean,
  epilogue: MatmulEpilogueTwin | null,
): void {
  layernormForward(ln, mean, rstd, x, w, lnb, M, K);
  if (epilogue) matmulEpilogue(out, ln, b, bias, M, K, N, false, transB, epilogue);
  else matmul(out, ln, b, bias, M, K, N, false, transB, false);
}
