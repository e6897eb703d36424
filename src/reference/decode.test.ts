// The KV-cache decoding twins agree with the full-sequence twins they shortcut: decoding
// position pos of a cache is row pos of the teacher-forced forward over all Tmax rows.
import { describe, expect, it } from 'vitest';
import { attentionForward, embeddingForward } from './ops';
import { attentionDecode, copyRows, embeddingDecode } from './decode';
import { randn, rng } from './testing';
import type { AttentionShape, EmbeddingShape } from '../core/abi';

describe('KV-cache decoding twins', () => {
  // The caches' shape as the attention and the embedding twins take it: N sequences of Tmax rows
  // of C channels; NH heads; V ids in the vocabulary.
  const N = 3,
    Tmax = 6,
    C = 8;
  const attention: AttentionShape = { N, T: Tmax, C, NH: 2 };
  const embedding: EmbeddingShape = { N, T: Tmax, C, V: 7 };

  it('attentionDecode at pos = row pos of attentionForward', () => {
    const r = rng(11);
    const qkv = randn(r, N * Tmax * 3 * C);
    const full = new Float64Array(N * Tmax * C);
    attentionForward(full, new Float64Array(N * attention.NH * Tmax * Tmax), qkv, attention);
    for (let pos = 0; pos < Tmax; pos++) {
      const out = new Float64Array(N * C).fill(NaN);
      attentionDecode(out, qkv, attention, pos);
      let diff = 0;
      for (let n = 0; n < N; n++) {
        for (let c = 0; c < C; c++) diff = Math.max(diff, Math.abs(out[n * C + c] - full[(n * Tmax + pos) * C + c]));
      }
      expect(diff).toBeLessThan(1e-12);
    }
  });

  it('embeddingDecode at pos = row pos of embeddingForward (out-of-range ids read zero)', () => {
    const r = rng(12);
    const wte = randn(r, embedding.V * C),
      wpe = randn(r, Tmax * C);
    const tokens = Int32Array.from({ length: N * Tmax }, (_, i) => (i % 9) - 1); // −1 and 7 are out of range
    const full = new Float64Array(N * Tmax * C);
    embeddingForward(full, tokens, wte, wpe, embedding);
    for (let pos = 0; pos < Tmax; pos++) {
      const out = new Float64Array(N * C).fill(NaN);
      embeddingDecode(out, tokens, wte, wpe, embedding, pos);
      for (let n = 0; n < N; n++) {
        expect(Array.from(out.subarray(n * C, (n + 1) * C))).toEqual(
          Array.from(full.subarray((n * Tmax + pos) * C, (n * Tmax + pos + 1) * C)),
        );
      }
    }
  });

  it('copyRows writes row pos and nothing else', () => {
    const W = 5,
      pos = 2;
    const dst = new Float64Array(N * Tmax * W).fill(-1);
    const src = Float64Array.from({ length: N * W }, (_, i) => i);
    copyRows(dst, src, N, Tmax, W, pos);
    for (let n = 0; n < N; n++) {
      for (let t = 0; t < Tmax; t++) {
        for (let w = 0; w < W; w++) {
          expect(dst[(n * Tmax + t) * W + w]).toBe(t === pos ? src[n * W + w] : -1);
        }
      }
    }
  });

  it('rejects a position outside [0, Tmax)', () => {
    expect(() => copyRows(new Float64Array(N * Tmax), new Float64Array(N), N, Tmax, 1, Tmax)).toThrow(/pos/);
  });
});
