import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { parseParams } from '../params';
import { sortTask as sort, type SortInstance } from './task';
import { EOS, NUM_SPECIAL } from '../types';

function draw(raw: Record<string, unknown>, seed = 1): SortInstance {
  return sort.sample(makeRng(seed, STREAM.tasks), parseParams(sort, raw));
}

const params = fc.record({ length: fc.integer({ min: 2, max: 12 }), alphabet: fc.integer({ min: 2, max: 26 }) });

describe('sort', () => {
  it('answers with the prompt letters in order', () => {
    const inst = draw({ length: 6, alphabet: 5 }, 3);
    expect(inst.promptText).toMatch(/^<bos>( [a-e]){6} <sep>$/);
    const letters = inst.promptText.split(' ').slice(1, -1).sort().join(' ');
    expect(inst.answerText).toBe(`${letters} <eos>`);
  });

  it('exact: any change to a letter, the length or the EOS loses the reward', () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.nat(), (raw, s, at) => {
        const inst = draw({ ...raw, reward: 'exact' }, s);
        const k = raw.length;
        const i = at % k;
        const wrong = [...inst.answerTokens];
        wrong[i] = NUM_SPECIAL + ((wrong[i] - NUM_SPECIAL + 1) % raw.alphabet);
        expect(sort.verify(inst, wrong)).toMatchObject({ reward: 0, correct: false });
        expect(sort.verify(inst, inst.answerTokens.slice(0, i)).reward).toBe(0);
        const noEos = [...inst.answerTokens.slice(0, k), inst.answerTokens[0]];
        expect(sort.verify(inst, noEos).reward).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('partial: each of the k letters and the EOS is worth 1/(k+1)', () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.nat(), (raw, s, at) => {
        const inst = draw({ ...raw, reward: 'partial' }, s);
        const k = raw.length;
        const wrong = [...inst.answerTokens];
        const i = at % k;
        wrong[i] = NUM_SPECIAL + ((wrong[i] - NUM_SPECIAL + 1) % raw.alphabet);
        expect(sort.verify(inst, wrong).reward).toBeCloseTo(k / (k + 1), 12);
        expect(sort.verify(inst, wrong).correct).toBe(false);
        // An array that stops before the region ends reads as if EOS followed (CLI input).
        expect(sort.verify(inst, inst.answerTokens.slice(0, k)).reward).toBe(1);
      }),
      { numRuns: 60 },
    );
  });

  it('labels mistakes', () => {
    const inst = draw({ length: 4, alphabet: 26 }, 5);
    const sorted = inst.answerTokens.slice(0, 4);
    expect(sort.errorSignature(inst, [...sorted].reverse().concat(EOS))).toMatch(/^(not-sorted|correct)$/);
    expect(sort.errorSignature(inst, [...sorted.slice(0, 3), EOS])).toBe('length:3');
    expect(sort.errorSignature(inst, [1, EOS])).toBe('badtoken');
    expect(sort.errorSignature(inst, [...sorted.slice(0, 3), sorted[3] === 29 ? 28 : 29, EOS])).toBe('not-permutation');
    expect(sort.signature(inst, inst.answerTokens)).toBe(inst.answerText.replace(/ |<eos>/g, ''));
  });
});
