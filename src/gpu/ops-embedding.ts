// GPU builders of the embedding kernels (docs/engine.md): the forward, its backward, and the
// decode step's embedding of one new position. All three take an EmbeddingShape, check it the
// same way and are one dispatch of a thread per output element. The conventions are those of ops.ts.

import { makeDispatch, type Buf, type Dispatch } from './dispatch';
import * as work from './kernel-work';
import type { EmbeddingShape } from '../core/abi';
import { grid, need, positiveInts, u32Uniform, WG } from './op-plumbing';

/** out[n,t,:] (=) wte[tokens[n,t],:] + wpe[t,:]; ids outside [0,V) read a zero row. */
export function embeddingForwardOp(
  device: GPUDevice,
  out: Buf, // [N·T, C]
  tokens: Buf, // [N, T] i32
  wte: Buf, // [V, C]
  wpe: Buf, // [Tmax ≥ T, C]
  shape: EmbeddingShape,
): Dispatch[] {
  const { N, T, C, V } = shape;
  const op = 'embeddingForward';
  checkEmbeddingShape(op, shape, tokens, { wte, wpe });
  need(op, 'out', out, N * T * C);
  const kernelWork = work.embeddingForwardWork(N, T, C, V);
  return embeddingDispatch(device, op, 'embedding_forward', [out, tokens, wte, wpe], shape, N * T * C, kernelWork);
}

/** dwte (+=) and dwpe (+=) from dout; deterministic (no atomics). */
export function embeddingBackwardOp(
  device: GPUDevice,
  dwte: Buf, // [V, C]
  dwpe: Buf, // [Tmax ≥ T, C]
  dout: Buf, // [N·T, C]
  tokens: Buf, // [N, T] i32
  shape: EmbeddingShape,
): Dispatch[] {
  const { N, T, C, V } = shape;
  const op = 'embeddingBackward';
  checkEmbeddingShape(op, shape, tokens, { wte: dwte, wpe: dwpe }, { grads: true });
  need(op, 'dout', dout, N * T * C);
  const kernelWork = work.embeddingBackwardWork(N, T, C, V);
  return embeddingDispatch(
    device,
    op,
    'embedding_backward',
    [dwte, dwpe, dout, tokens],
    shape,
    (V + T) * C,
    kernelWork,
  );
}

/** out[N,C] (=) wte[tokens[n,pos]] + wpe[pos], pos = cursor[0]. */
export function embeddingDecodeOp(
  device: GPUDevice,
  out: Buf, // [N, C]
  tokens: Buf, // [N, Tmax] i32
  wte: Buf, // [V, C]
  wpe: Buf, // [Tmax, C]
  shape: EmbeddingShape,
  cursor: Buf, // [≥1] u32
): Dispatch[] {
  const { N, C, V } = shape;
  const op = 'embeddingDecode';
  checkEmbeddingShape(op, shape, tokens, { wte, wpe }, { rows: 'Tmax' });
  need(op, 'out', out, N * C);
  need(op, 'cursor', cursor, 1);
  const kernelWork = work.embeddingDecodeWork(N, C, V);
  return embeddingDispatch(device, op, 'embedding_decode', [out, tokens, wte, wpe, cursor], shape, N * C, kernelWork);
}

/**
 * What every embedding builder checks first: the shape's dims are positive integers (T named
 * `rows`: Tmax where it counts wpe's rows for decoding) and tokens [N, T], the token table [V, C]
 * and the position table [T, C] are large enough; the tables are wte, wpe, or with `grads` the
 * backward's dwte, dwpe.
 */
function checkEmbeddingShape(
  op: string,
  { N, T, C, V }: EmbeddingShape,
  tokens: Buf,
  tables: { wte: Buf; wpe: Buf },
  { rows = 'T', grads = false } = {},
): void {
  positiveInts(op, { N, [rows]: T, C, V });
  const d = grads ? 'd' : '';
  need(op, 'tokens', tokens, N * T);
  need(op, `${d}wte`, tables.wte, V * C);
  need(op, `${d}wpe`, tables.wpe, T * C);
}

/** The one dispatch of an embedding kernel: a thread per output element, the shape as its uniform. */
function embeddingDispatch(
  device: GPUDevice,
  op: string,
  kernel: string,
  bindings: Buf[],
  shape: EmbeddingShape,
  threads: number,
  kernelWork: work.KernelWork,
): Dispatch[] {
  const { N, T, C, V } = shape;
  return [
    makeDispatch(device, {
      kernel,
      bindings,
      uniform: u32Uniform(device, [N, T, C, V], op),
      workgroups: grid(threads, WG),
      work: kernelWork,
    }),
  ];
}
