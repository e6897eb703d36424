// GPU builder of linear_backward (shaders/linear_backward.wgsl, docs/engine.md): a linear layer's
// input, weight and bias gradients in one dispatch (two when the weight gradient is split over K).
// The conventions are those of ops.ts.

import { createStorage } from './buffers';
import { makeDispatch, type Buf, type Dispatch } from './dispatch';
import * as work from './kernel-work';
import { splitKChunks, SUM_ROWS } from '../core/abi';
import { dummyBuffer, need, positiveInts, sumChunks, u32Uniform } from './op-plumbing';
import { MM_WX, MM_WY, splitKFinish, tileGrid } from './ops-matmul';

/**
 * The backward of out[R,OC] = inp[R,IC]·W[IC,OC] + b: dinp (=) dout·Wᵀ, or gelu'(pre)·(dout·Wᵀ)
 * when `geluPre` is given; dW (+=) inpᵀ·dout; db (+=) Σ_r dout[r,·]. The same bits as matmulOp
 * (input grad, then weight grad) and biasBackwardOp, in one dispatch; a weight gradient that
 * matmulOp would split over K (splitKChunks) is split the same way, its chunk sums added by a
 * second dispatch.
 */
export function linearBackwardOp(
  device: GPUDevice,
  dinp: Buf, // [R, IC] (=)
  dW: Buf, // [IC, OC] (+=)
  db: Buf, // [OC] (+=)
  dout: Buf, // [R, OC]
  inp: Buf, // [R, IC]
  W: Buf, // [IC, OC]
  geluPre: Buf | null, // [R, IC] gelu's input, or null
  R: number,
  IC: number,
  OC: number,
): Dispatch[] {
  const op = 'linearBackward';
  positiveInts(op, { R, IC, OC });
  need(op, 'dinp', dinp, R * IC);
  need(op, 'dW', dW, IC * OC);
  need(op, 'db', db, OC);
  need(op, 'dout', dout, R * OC);
  need(op, 'inp', inp, R * IC);
  need(op, 'W', W, IC * OC);
  if (geluPre) need(op, 'geluPre', geluPre, R * IC);
  const Z = splitKChunks(IC, R, OC, true, false);
  const [wxA, wyA] = tileGrid(op, R, IC);
  const [wxB, wyB] = tileGrid(op, IC, OC);
  const nA = wxA * wyA,
    nB = wxB * wyB * Z,
    nC = Math.ceil(OC / (MM_WX * MM_WY));
  const total = nA + nB + nC;
  // the flat grid as x·y workgroups within the per-dimension limit (extras past the end return)
  const y = Math.ceil(total / 65535);
  if (y > 65535) throw new RangeError(`${op}: ${total} workgroups are too many`);
  const part = Z > 1 ? createStorage(device, Z * IC * OC * 4, `${op} chunk sums`) : null;
  const uniform = u32Uniform(
    device,
    [R, IC, OC, Z, Math.ceil(R / Z), sumChunks(op, R, SUM_ROWS), wxA, nA, wxB, nB],
    op,
  );
  const fused = makeDispatch(device, {
    kernel: 'linear_backward',
    bindings: [dinp, part ?? dW, db, dout, inp, W, geluPre ?? dummyBuffer(device)],
    uniform,
    overrides: { GELU_BACKWARD: geluPre ? 1 : 0, WX: MM_WX, WY: MM_WY, ROWS: SUM_ROWS },
    workgroups: [Math.ceil(total / y), y, 1],
    work: work.linearBackwardWork(R, IC, OC, geluPre !== null),
  });
  return part ? [fused, splitKFinish(device, dW, part, IC, R, OC, Z, true)] : [fused];
}
