// decode_block (one whole transformer block per decoded position, one dispatch) against its CPU
// twin decodeBlock (the eleven unfused decoding kernels' twins in order): the residual rows and
// the KV cache, over several positions, with the weights at offsets of one parameter buffer.
import { describe } from 'vitest';
import { expectClose, gpuIt, randn32 } from './testing';
import { runDispatches } from './dispatch';
import { createStorage, readF32, storageFrom } from './buffers';
import { decodeBlockOp, type DecodeBlockOffsets } from './ops';
import { decodeBlock, type DecodeBlockWeights } from '../reference/decode';
import { makeRng } from '../core/random';

/** Random block weights packed into one buffer at 64-float-aligned offsets (as the model's layout does). */
function packedBlock(
  C: number,
  seed: number,
): { params: Float32Array; offsets: DecodeBlockOffsets; weights: DecodeBlockWeights } {
  const rng = makeRng(seed);
  const sizes: [keyof DecodeBlockOffsets, number, number, number][] = [
    // name, floats, scale, shift (layernorm gains around 1)
    ['ln1w', C, 0.1, 1],
    ['ln1b', C, 0.1, 0],
    ['qkvw', 3 * C * C, 0.3, 0],
    ['qkvb', 3 * C, 0.1, 0],
    ['projw', C * C, 0.3, 0],
    ['projb', C, 0.1, 0],
    ['ln2w', C, 0.1, 1],
    ['ln2b', C, 0.1, 0],
    ['fcw', 4 * C * C, 0.3, 0],
    ['fcb', 4 * C, 0.1, 0],
    ['fcprojw', 4 * C * C, 0.2, 0],
    ['fcprojb', C, 0.1, 0],
  ];
  let at = 64; // something before the block, as in the real buffer
  const offsets = {} as DecodeBlockOffsets;
  for (const [name, n] of sizes) {
    offsets[name] = at;
    at += Math.ceil(n / 64) * 64;
  }
  const params = new Float32Array(at);
  const weights = {} as DecodeBlockWeights;
  for (const [name, n, scale, shift] of sizes) {
    const v = randn32(rng, n, scale, shift);
    params.set(v, offsets[name]);
    weights[name] = v;
  }
  return { params, offsets, weights };
}

describe('decode_block', () => {
  for (const [N, Tmax, C, NH] of [
    [3, 6, 16, 2],
    [2, 9, 96, 3],
  ] as const) {
    gpuIt(
      `one dispatch per block equals the unfused twins (N ${N}, Tmax ${Tmax}, C ${C}, NH ${NH})`,
      async ({ device }) => {
        const rng = makeRng(C);
        const { params, offsets, weights } = packedBlock(C, C + 1);
        const x0 = randn32(rng, N * C);
        const cache0 = randn32(rng, N * Tmax * 3 * C); // rows beyond pos must not matter
        const x = storageFrom(device, x0);
        const cache = storageFrom(device, cache0);
        const cursor = createStorage(device, 4);
        const d = decodeBlockOp(device, x, cache, storageFrom(device, params), offsets, { N, T: Tmax, C, NH }, cursor);
        const ex = Float32Array.from(x0);
        const eCache = Float32Array.from(cache0);
        for (const pos of [0, 1, Tmax - 1]) {
          device.queue.writeBuffer(cursor, 0, Uint32Array.of(pos));
          await runDispatches(device, d);
          decodeBlock(ex, eCache, weights, { N, T: Tmax, C, NH }, pos);
          expectClose(`decode_block x at pos ${pos}`, await readF32(device, x, N * C), ex, 2e-5);
          expectClose(`decode_block cache at pos ${pos}`, await readF32(device, cache, N * Tmax * 3 * C), eCache, 2e-5);
        }
      },
    );
  }
});
