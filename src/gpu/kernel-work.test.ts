// The flop and byte counts a profile divides by: matmul 2·M·K·N, attention counted pair by
// pair, bytes = the tensors' elements once each.
import { describe, expect, it } from 'vitest';
import {
  adamwWork,
  attentionBackwardGradsWork,
  attentionBackwardScoresWork,
  attentionDecodeWork,
  attentionForwardWork,
  elementwiseWork,
  layernormForwardWork,
  matmulShapeLabel,
  matmulWork,
} from './kernel-work';

/** Multiply-adds of the causal dot products of length hd, counted one pair at a time. */
function causalPairsMacs(N: number, T: number, C: number, NH: number): number {
  const hd = C / NH;
  let macs = 0;
  for (let n = 0; n < N; n++)
    for (let h = 0; h < NH; h++) for (let t = 0; t < T; t++) for (let s = 0; s <= t; s++) macs += hd;
  return macs;
}

describe('kernel work', () => {
  it('matmul: 2·M·K·N flops; a, b, out (read too when +=) and bias bytes', () => {
    const w = matmulWork({ M: 64, K: 512, N: 96, transA: true, accumulate: true }, false);
    expect(w.flops).toBe(2 * 64 * 512 * 96);
    expect(w.bytes).toBe(4 * (64 * 512 + 512 * 96 + 2 * 64 * 96));
    expect(w.shape).toBe('64×512×96 Aᵀ +=');
    expect(matmulWork({ M: 8, K: 4, N: 2 }, true).bytes).toBe(4 * (8 * 4 + 4 * 2 + 8 * 2 + 2));
  });

  it("matmul labels are the bench's shape labels", () => {
    expect(
      matmulShapeLabel({ M: 512, K: 32, N: 128, transA: false, transB: true, accumulate: false, bias: true }),
    ).toBe('512×32×128 Bᵀ +b');
  });

  it('attention flops count two (forward) or one and three (backward) dot products per causal pair', () => {
    const [N, T, C, NH] = [2, 5, 12, 3];
    const macs = causalPairsMacs(N, T, C, NH);
    expect(attentionForwardWork(N, T, C, NH).flops).toBe(2 * 2 * macs);
    expect(attentionBackwardScoresWork(N, T, C, NH).flops).toBe(2 * macs);
    expect(attentionBackwardGradsWork(N, T, C, NH).flops).toBe(3 * 2 * macs);
  });

  it('elementwise and reduction kernels have bytes, no flops', () => {
    expect(elementwiseWork(100, 2, 1)).toEqual({ shape: 'n 100', flops: null, bytes: 1200 });
    expect(layernormForwardWork(10, 4).flops).toBeNull();
    expect(layernormForwardWork(10, 4).bytes).toBe(4 * (10 * 4 + 8 + 10 * 4 + 20));
    // params, m, v read and written; grads and decay read; the norm pair
    expect(adamwWork(1000).bytes).toBe(4 * (8 * 1000 + 2));
  });

  it('decoding attention has no figure: its position is only known on the GPU', () => {
    const w = attentionDecodeWork(8, 32, 64, 4);
    expect(w.flops).toBeNull();
    expect(w.bytes).toBeNull();
  });
});
