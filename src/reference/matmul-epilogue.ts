// The CPU twins of a matmul with an epilogue or a layernorm prologue (shaders/matmul.wgsl,
// EPILOGUE and LN_PROLOGUE; docs/engine.md): the twins of the kernels the GPU fuses, in the same
// order, so each output is the value the separate kernels gave.

import type { MatmulShape } from '../core/abi';
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
  shape: MatmulShape, // never accumulate
  epilogue: MatmulEpilogueTwin,
): void {
  if (shape.accumulate)
    throw new RangeError(`matmulEpilogue: an epilogue (${epilogue.kind}) needs (=), not accumulate`);
  const n = shape.M * shape.N;
  const s = new (out.constructor as typeof Float64Array)(n); // the sums, in out's precision
  matmul(s, a, b, bias, shape);
  if (epilogue.kind === 'residual') add(out, epilogue.residual, s, n);
  else if (epilogue.kind === 'gelu') {
    epilogue.pre.set(s);
    geluForward(out, s, n);
  } else geluBackward(out, epilogue.pre, s, n);
}

/** The layernorm prologue's tensors (LayernormPrologue's twin, src/gpu/ops-matmul.ts; its stats as mean and rstd). */
export interface LayernormPrologueTwin {
  w: F; // [K]
  b: F; // [K]
  ln: F; // [M, K] (=)
  mean: F; // [M] (=)
  rstd: F; // [M] (=)
}

/**
 * The layernorm prologue: ln (=), mean, rstd (=) the layernorm of x's rows with the prologue's
 * w and b; out (=) epilogue(ln·op(b) + bias), or the plain sum without an epilogue. The
 * arguments in matmulOp's order.
 */
export function matmulLayernorm(
  out: F, // [M, N] (=)
  x: F, // [M, K]
  b: F, // [K, N], or [N, K] if transB
  bias: F | null, // [N] or null
  shape: MatmulShape, // never transA nor accumulate
  epilogue: MatmulEpilogueTwin | null,
  pro: LayernormPrologueTwin,
): void {
  if (shape.transA) throw new RangeError('matmulLayernorm: a layernorm prologue needs op(a) untransposed');
  layernormForward(pro.ln, pro.mean, pro.rstd, x, pro.w, pro.b, shape.M, shape.K);
  if (epilogue) matmulEpilogue(out, pro.ln, b, bias, shape, epilogue);
  else matmul(out, pro.ln, b, bias, shape);
}
