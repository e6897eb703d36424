// The two index spaces of src/rl/rollout.ts on a hand-made batch: completion position c of
// sequence n is token n·T + Lp + c, and is trained through row n·T + Lp + c − 1 (the row that
// predicts it). An off-by-one here trains every token on its neighbour's advantage.
import { describe, expect, it } from 'vitest';
import { buildTemplate, completionFacts, rolloutShape, rowArrays, sliceMinibatch } from './rollout';
import { completionRatios } from './step-update';
import { BOS, EOS, SEP } from '../tasks/types';
import type { TaskInstance } from '../tasks/types';

// Prompt BOS 5 SEP (Lp 3); completion region of 4 where the environment writes position 1 (token 9).
const inst = {
  task: 'fake',
  params: {},
  promptTokens: [BOS, 5, SEP],
  promptText: '',
  completionLength: 4,
  fixed: [null, 9, null, null],
  answerTokens: [6, 9, 7, EOS],
  answerText: '',
} as unknown as TaskInstance;
const G = 2;
const s = rolloutShape([inst], G);
const { T, Lp, Lc } = s;

// Sequence 0 ends at completion position 2 (EOS); sequence 1 never writes EOS (truncated).
const tokens = Int32Array.from([BOS, 5, SEP, 6, 9, EOS, 0, BOS, 5, SEP, 7, 9, 8, 8]);
// log π and entropy are stored at the position of the token they produced.
const logp = Float32Array.from({ length: 2 * T }, (_, i) => -(i + 1) / 10);
const entropy = Float32Array.from({ length: 2 * T }, (_, i) => (i + 1) / 100);

describe('rollout index spaces', () => {
  it('the template fixes the prompt and the environment-written token, −1 where the policy samples', () => {
    expect(s).toEqual({ B: 1, G: 2, N: 2, Lp: 3, Lc: 4, T: 7 });
    expect(Array.from(buildTemplate([inst], s))).toEqual([BOS, 5, SEP, -1, 9, -1, -1, BOS, 5, SEP, -1, 9, -1, -1]);
  });

  it("completion facts: the mask covers policy tokens up to and including EOS, read at the token's own position", () => {
    const f = completionFacts({ tokens, logp, entropy }, [inst], s, false);
    expect(Array.from(f.mask)).toEqual([1, 0, 1, 0, /* truncated: */ 1, 0, 1, 1]);
    expect(Array.from(f.lengths)).toEqual([3, 4]);
    expect(Array.from(f.truncated)).toEqual([0, 1]);
    // completion position c of sequence n ↔ token n·T + Lp + c
    expect(f.logp[0]).toBe(logp[Lp]);
    expect(f.logp[2]).toBe(logp[Lp + 2]);
    expect(f.entropy[Lc + 3]).toBe(entropy[T + Lp + 3]);
    expect(f.logp[1]).toBe(0); // environment-written: no log π
    const masked = completionFacts({ tokens, logp, entropy }, [inst], s, true);
    expect(Array.from(masked.mask)).toEqual([1, 0, 1, 0, 0, 0, 0, 0]);
  });

  it('row arrays: row Lp + c − 1 predicts completion token c and carries its advantage, log π_old and masks', () => {
    const f = completionFacts({ tokens, logp, entropy }, [inst], s, false);
    const adv = Float32Array.from([0.5, 9, -0.25, 9, 2, 9, 3, 4]); // 9 where untrained: must not reach a row
    const rows = rowArrays(tokens, s, adv, f.mask, f.logp, 3);
    for (let n = 0; n < 2; n++) {
      for (let c = 0; c < Lc; c++) {
        const r = n * T + Lp + c - 1;
        expect(rows.targets[r], `n${n} c${c}`).toBe(tokens[n * T + Lp + c]);
        const j = n * Lc + c;
        expect(rows.mask[r]).toBe(f.mask[j]);
        expect(rows.adv[r]).toBe(f.mask[j] ? adv[j] : 0);
        expect(rows.oldLogp[r]).toBe(f.mask[j] ? logp[n * T + Lp + c] : 0);
        expect(rows.klMask[r]).toBe(f.mask[j] && c < 3 ? 1 : 0);
      }
    }
    // The prompt rows (but the last, which predicts completion token 0) are never trained; the last row has no target.
    expect(Array.from(rows.mask.subarray(0, Lp - 1))).toEqual([0, 0]);
    expect(rows.targets[T - 1]).toBe(-1);
    expect(rows.mask.reduce((a, b) => a + b, 0)).toBe(f.mask.reduce((a, b) => a + b, 0));
    // A minibatch is whole rows in the given order.
    const mb = sliceMinibatch(rows, T, [1, 0], 0, 1);
    expect(Array.from(mb.adv)).toEqual(Array.from(rows.adv.subarray(T, 2 * T)));
  });

  it('importance ratios: exp(new − old) on trained tokens, exactly 1 on every other position', () => {
    const f = completionFacts({ tokens, logp, entropy }, [inst], s, false);
    const rows = rowArrays(tokens, s, new Float32Array(s.N * Lc), f.mask, f.logp, Lc);
    // New log-probs differ everywhere, on untrained rows too: those must still show 1.
    const newLogp = Float32Array.from({ length: 2 * T }, (_, r) => rows.oldLogp[r] + 0.1 * (r + 1));
    const ratio = completionRatios(newLogp, rows, s);
    for (let n = 0; n < 2; n++) {
      for (let c = 0; c < Lc; c++) {
        const r = n * T + Lp + c - 1;
        const want = f.mask[n * Lc + c] ? Math.fround(Math.exp(newLogp[r] - rows.oldLogp[r])) : 1;
        expect(ratio[n * Lc + c], `n${n} c${c}`).toBe(want);
      }
    }
    expect(ratio[1]).toBe(1);
    expect(ratio[Lc + 1]).toBe(1);
  });
});
