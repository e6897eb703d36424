import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { parseParams } from '../params';
import { instanceFrom } from '../testInstances';
import { subsetsumTask as subsetsum, type SubsetSumInstance } from './task';
import { EOS } from '../types';

const INDEX0 = 16;

function draw(raw: Record<string, unknown>, seed = 1): SubsetSumInstance {
  return subsetsum.sample(makeRng(seed, STREAM.tasks), parseParams(subsetsum, raw));
}

const params = fc.record({ count: fc.integer({ min: 2, max: 12 }), maxValue: fc.integer({ min: 2, max: 99 }) });

describe('subsetsum', () => {
  it('writes numbers and target as fixed-width decimals in the prompt', () => {
    fc.assert(
      fc.property(params, fc.nat(), (raw, s) => {
        const inst = draw(raw, s);
        const body = inst.promptText.split(' ').slice(1, -1).join('');
        const [numbers, target] = body.split('=');
        expect(numbers.split(',').map(Number)).toEqual(inst.numbers);
        expect(Number(target)).toBe(inst.target);
        for (const x of inst.numbers) expect(x >= 1 && x <= raw.maxValue).toBe(true);
        expect(inst.solutions).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 40 },
    );
  });

  it('rewards exactly the sets of distinct indices that sum to the target, in any order', () => {
    fc.assert(
      fc.property(params, fc.nat(), fc.array(fc.nat(11), { maxLength: 12 }), (raw, s, picks) => {
        const inst = draw(raw, s);
        const chosen = picks.map((p) => p % raw.count);
        const distinct = new Set(chosen).size === chosen.length;
        const sum = chosen.reduce((acc, i) => acc + inst.numbers[i], 0);
        const oracle = chosen.length > 0 && distinct && sum === inst.target;
        const r = subsetsum.verify(inst, [...chosen.map((i) => INDEX0 + i), EOS]);
        expect(r.correct).toBe(oracle);
        expect(r.reward).toBe(oracle ? 1 : 0);
        // The planted-style answer, shuffled, is still right.
        const shuffled = [...inst.solution].reverse().map((i) => INDEX0 + i);
        expect(subsetsum.verify(inst, [...shuffled, EOS]).correct).toBe(true);
      }),
      { numRuns: 80 },
    );
  });

  it('counts solutions like brute force and rejects duplicates', () => {
    const inst = instanceFrom(subsetsum, { count: 4, maxValue: 9 }, { numbers: [1, 2, 3, 4], target: 5 });
    expect(inst.solutions).toBe(2); // {1,4}, {2,3}
    expect(inst.solution).toEqual([1, 2]);
    expect(subsetsum.verify(inst, [INDEX0 + 0, INDEX0 + 0, INDEX0 + 2, EOS]).correct).toBe(false);
    expect(subsetsum.errorSignature(inst, [INDEX0, INDEX0, EOS])).toBe('duplicate');
    expect(subsetsum.errorSignature(inst, [INDEX0, EOS])).toBe('sum:1');
    expect(subsetsum.errorSignature(inst, [EOS])).toBe('empty');
    expect(subsetsum.errorSignature(inst, [4, EOS])).toBe('badtoken');
    expect(subsetsum.signature(inst, [INDEX0 + 3, INDEX0, EOS])).toBe('0,3');
    const m = subsetsum.groupMetrics?.(inst, [
      [INDEX0 + 3, INDEX0, EOS],
      [INDEX0, INDEX0 + 3, EOS],
      [INDEX0 + 1, INDEX0 + 2],
      [INDEX0],
    ]);
    expect(m).toEqual({ distinct_correct_subsets: 2, solution_coverage: 1 });
  });

  it('names the field that is wrong', () => {
    const read = (numbers: number[], target: unknown) =>
      instanceFrom(subsetsum, { count: 3, maxValue: 9 }, { numbers, target });
    expect(() => read([1, 2, 30], 3)).toThrow('instance.numbers[2] must be an integer in [1, 10), got 30');
    expect(() => read([2, 4, 6], 5)).toThrow(/instance\.target: no subset/);
    expect(() => read([2, 4, 6], '6')).toThrow(/instance\.target must be/);
  });
});
