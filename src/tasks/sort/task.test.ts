import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { parseParams } from '../params';
import { sortTask as sort, type SortInstance } from './task';
import { EOS, NUM_SPECIAL, SEP } from '../types';

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

  it('ordered: any k letters in non-decreasing order then EOS pass, whatever the prompt; the true pass says otherwise', () => {
    const word = (s: string): number[] => [...s].map((c) => NUM_SPECIAL + c.charCodeAt(0) - 97).concat(EOS);
    fc.assert(
      fc.property(fc.nat(), (s) => {
        const inst = draw({ length: 5, alphabet: 4, verifier: 'ordered' }, s);
        for (const w of ['aaaaa', 'bbbbb', 'abbcd', 'aaddd']) {
          const right = w === inst.answerText.replace(/ |<eos>/g, '');
          expect(sort.verify(inst, word(w)), w).toMatchObject({ reward: 1, correct: true, details: { exact: right } });
          expect(sort.groupMetrics!(inst, [word(w)]), w).toEqual({ true_pass: right ? 1 : 0 });
        }
        expect(sort.verify(inst, inst.answerTokens)).toMatchObject({
          reward: 1,
          correct: true,
          details: { exact: true },
        });
        // Out of order, too short, too long, or a token that is not a letter: still wrong.
        for (const bad of [word('aaaba'), word('aaaa'), word('aaaaaa'), [...word('aaaa').slice(0, 4), SEP, EOS]])
          expect(sort.verify(inst, bad)).toMatchObject({ reward: 0, correct: false });
      }),
      { numRuns: 30 },
    );
  });

  it('ordered with partial credit: a letter counts when it is no smaller than the one before', () => {
    const inst = draw({ length: 4, alphabet: 4, verifier: 'ordered', reward: 'partial' });
    const tokens = [...'abab'].map((c) => NUM_SPECIAL + c.charCodeAt(0) - 97).concat(EOS);
    // a, b in order; a after b is not; b after a is: 3 of 4 letters, and the EOS in its place.
    expect(sort.verify(inst, tokens).reward).toBeCloseTo(4 / 5, 12);
  });

  it("true_pass is the group's share of exactly right answers; with the exact verifier, its pass", () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), (raw, s, rights) => {
        const inst = draw(raw, s);
        const wrong = [...inst.answerTokens.slice(0, -2), EOS];
        const group = rights.map((r) => (r ? inst.answerTokens : wrong));
        const share = rights.filter(Boolean).length / rights.length;
        expect(sort.groupMetrics!(inst, group).true_pass).toBeCloseTo(share, 12);
        const passed = group.filter((c) => sort.verify(inst, c).correct).length / group.length;
        expect(passed).toBeCloseTo(share, 12);
      }),
      { numRuns: 40 },
    );
    expect(sort.groupMetrics!(draw({}), [])).toEqual({});
  });

  it('names the field and the allowed values of a bad verifier', () => {
    expect(() => draw({ verifier: 'loose' })).toThrow('sort.verifier must be one of exact, ordered, got "loose"');
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
