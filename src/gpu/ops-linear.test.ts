// linear_backward (shaders/linear_backward.wgsl) against its CPU twin (src/reference/linear-backward.ts),
// and bit for bit against the kernels it fuses (matmul's input and weight grads, bias_backward),
// on ragged shapes, with and without gelu, and at a shape whose weight grad is split over K.
import { describe, expect } from 'vitest';
import { expectClose, gpuIt, randn32 } from './testing';
import { runDispatches } from './dispatch';
import { readF32, storageFrom } from './buffers';
import { biasBackwardOp, linearBackwardOp, matmulOp, splitKChunks } from './ops';
import { linearBackward } from '../reference/linear-backward';
import { makeRng } from '../core/random';

describe('linear_backward', () => {
  gpuIt(
    'gives the bits of matmul (input, weight grads) and bias_backward, and its twin',
    async ({ device }) => {
      const r = makeRng(48);
      for (const [R, IC, OC] of [
        [13, 9, 22],
        [37, 20, 11],
        [130, 6, 5],
        [600, 10, 7], // the weight grad split over K
      ] as const) {
        const split = splitKChunks(IC, R, OC, true, false);
        expect(split > 1, `${R}x${IC}x${OC} split`).toBe(R >= 512);
        const dout = randn32(r, R * OC),
          inp = randn32(r, R * IC),
          W = randn32(r, IC * OC),
          pre = randn32(r, R * IC, 1.5),
          dW0 = randn32(r, IC * OC),
          db0 = randn32(r, OC);
        const [doutB, inpB, WB, preB] = [dout, inp, W, pre].map((x) => storageFrom(device, x));
        for (const gelu of [false, true]) {
          const tag = `${R}x${IC}x${OC}${gelu ? ' gelu' : ''}`;
          const fused = [
            storageFrom(device, new Float32Array(R * IC)),
            storageFrom(device, dW0),
            storageFrom(device, db0),
          ];
          const apart = [
            storageFrom(device, new Float32Array(R * IC)),
            storageFrom(device, dW0),
            storageFrom(device, db0),
          ];
          const ds = linearBackwardOp(
            device,
            fused[0],
            fused[1],
            fused[2],
            doutB,
            inpB,
            WB,
            gelu ? preB : null,
            R,
            IC,
            OC,
          );
          expect(ds, tag).toHaveLength(split > 1 ? 2 : 1);
          const e = gelu ? ({ kind: 'geluBackward', pre: preB } as const) : null;
          await runDispatches(device, [
            ...ds,
            ...matmulOp(device, apart[0], doutB, WB, null, { M: R, K: OC, N: IC, transB: true }, 'tuned', e),
            ...matmulOp(
              device,
              apart[1],
              inpB,
              doutB,
              null,
              { M: IC, K: R, N: OC, transA: true, accumulate: true },
              'tuned',
            ),
            ...biasBackwardOp(device, apart[2], doutB, R, OC),
          ]);
          const sizes = [R * IC, IC * OC, OC];
          const got = await Promise.all(fused.map((b, i) => readF32(device, b, sizes[i])));
          const want = await Promise.all(apart.map((b, i) => readF32(device, b, sizes[i])));
          ['dinp', 'dW', 'db'].forEach((name, i) =>
            expect([...got[i]], `${tag} ${name}: the unfused kernels' bits`).toEqual([...want[i]]),
          );
          const twin = [new Float64Array(R * IC), Float64Array.from(dW0), Float64Array.from(db0)];
          linearBackward(twin[0], twin[1], twin[2], dout, inp, W, gelu ? pre : null, R, IC, OC);
          ['dinp', 'dW', 'db'].forEach((name, i) => expectClose(`${tag} ${name}`, got[i], twin[i], 2e-5, i === 0));
        }
      }
    },
    120_000,
  );

  gpuIt('names the argument that is too small', ({ device }) => {
    const b = (n: number) => storageFrom(device, new Float32Array(n));
    expect(() => linearBackwardOp(device, b(8), b(6), b(3), b(12), b(7), b(6), null, 4, 2, 3)).toThrow(
      'linearBackward: inp holds 7 elements, needs 8',
    );
  });
});
