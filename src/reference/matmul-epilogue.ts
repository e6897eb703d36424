// The CPU twin of a matmul with an epilogue (shaders/matmul.wgsl, EPILOGUE; docs/engine.md): the
// matmul's twin, then the elementwise twin the GPU fuses into its store, in the same order, so
// each output is the value the separate kernels gave.

import type { F } from './float';
import { add, geluBackward, geluForward } from './ops';
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
