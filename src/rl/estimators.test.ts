import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeAdvantages, type AdvantageOptions, type EstimatorName } from './estimators';
import { DEFAULT_ADVANTAGE_OPTIONS } from './settings';
import { ESTIMATORS } from '../config/knobs';
import { arbBatch, makeBatch } from './estimators-fixtures';
import { MappPosterior } from '../estimators/mapp';

const opts = (o: Partial<AdvantageOptions>): AdvantageOptions => ({ ...DEFAULT_ADVANTAGE_OPTIONS, ...o });

describe('pipeline, by hand', () => {
  // B = 1, G = 2, T = 3. Sequence 0 (right) has policy tokens at t = 0, 1 with entropies 1, 3;
  // sequence 1 (wrong) one policy token at t = 0 with entropy 2.
  const batch = makeBatch({ B: 1, G: 2, T: 3, rewards: [1, 0], mask: [1, 1, 0, 1, 0, 0], entropy: [1, 3, 0, 2, 0, 0] });
  // GRPO: mean 1/2, sample std √(1/2) → ±0.5/0.7072068 = ±0.7070068.
  const a = 0.5 / (Math.SQRT1_2 + 1e-4);

  it('uniform credit: seqAdv on every policy token, 0 elsewhere', () => {
    const r = computeAdvantages(batch, DEFAULT_ADVANTAGE_OPTIONS);
    expect(Array.from(r.seqAdv)).toEqual([a, -a]);
    [a, a, 0, -a, 0, 0].forEach((e, j) => expect(r.adv[j]).toBeCloseTo(e, 6));
    expect(Array.from(r.tokenMask)).toEqual([1, 1, 0, 1, 0, 0]);
  });

  it('EAPO: h = 0.5, 1.5 on the success; the single failure token keeps weight 1', () => {
    const r = computeAdvantages(batch, opts({ tokenCredit: 'eapo' }));
    [0.5 * a, 1.5 * a, 0, -a, 0, 0].forEach((e, j) => expect(r.adv[j]).toBeCloseTo(e, 6));
  });

  it('q = 0.5: ⌈1.5⌉ = 2 of the entropies 1, 3, 2 → threshold 2', () => {
    const r = computeAdvantages(batch, opts({ topEntropyQuantile: 0.5 }));
    expect(Array.from(r.tokenMask)).toEqual([0, 1, 0, 1, 0, 0]);
    [0, a, 0, -a, 0, 0].forEach((e, j) => expect(r.adv[j]).toBeCloseTo(e, 6));
  });

  it('MaPP reads the posterior and does not update it', () => {
    const mapp = new MappPosterior();
    const r = computeAdvantages(batch, opts({ estimator: 'mapp' }), mapp);
    // G = 2, Beta(1,1): ±0.3535034 (mapp.test.ts).
    expect(r.seqAdv[0]).toBeCloseTo(0.3535034, 6);
    expect(r.seqAdv[1]).toBeCloseTo(-0.3535034, 6);
    expect(mapp.posterior('p0')).toEqual({ alpha: 1, beta: 1 });
    expect(() => computeAdvantages(batch, opts({ estimator: 'mapp' }))).toThrow(/MappPosterior/);
  });

  it('MaPP uses `correct`, not a threshold on the reward', () => {
    // A correct completion with a low (shortest-path style) reward still counts as a success.
    const b = makeBatch({ B: 1, G: 2, T: 1, rewards: [0.3, 0], correct: [1, 0] });
    expect(computeAdvantages(b, opts({ estimator: 'mapp' }), new MappPosterior()).seqAdv[0]).toBeGreaterThan(0);
  });

  it('names the bad field or option', () => {
    expect(() => computeAdvantages({ ...batch, rewards: new Float64Array(3) }, DEFAULT_ADVANTAGE_OPTIONS)).toThrow(
      /rewards has length 3, expected N=B\*G = 2/,
    );
    expect(() =>
      computeAdvantages({ ...batch, entropy: Float32Array.from([1, NaN, 0, 2, 0, 0]) }, DEFAULT_ADVANTAGE_OPTIONS),
    ).toThrow(/entropy\[1\]/);
    expect(() => computeAdvantages({ ...batch, promptKeys: [] }, DEFAULT_ADVANTAGE_OPTIONS)).toThrow(/promptKeys/);
    expect(() => computeAdvantages(batch, opts({ estimator: 'ppo' as EstimatorName }))).toThrow(
      /estimator must be one of/,
    );
    expect(() => computeAdvantages(batch, opts({ softmaxTau: 0 }))).toThrow(/softmaxTau/);
    expect(() => computeAdvantages(batch, opts({ estimator: 'passk', passK: 3 }))).toThrow(/passK/);
  });
});

/** Estimators whose advantage is relative to the group (REINFORCE variants and MaPP are not). */
const GROUP_RELATIVE: AdvantageOptions[] = [
  opts({ estimator: 'rloo' }),
  opts({ estimator: 'grpo', grpoScale: 'group' }),
  opts({ estimator: 'grpo', grpoScale: 'batch' }),
  opts({ estimator: 'grpo', grpoScale: 'none' }),
  opts({ estimator: 'softmax_grpo', softmaxTau: 0.3 }),
  opts({ estimator: 'passk', passK: 1 }),
];

describe('properties', () => {
  it('group-relative estimators give 0 to all-equal groups (also with Cue, EDAS, EAPO)', () => {
    fc.assert(
      fc.property(arbBatch({ allEqualGroups: true }), fc.constantFrom(...GROUP_RELATIVE), (batch, o) => {
        const r = computeAdvantages(batch, {
          ...o,
          cue: true,
          cueGamma: 0.5,
          edas: true,
          edasGamma: 0.5,
          tokenCredit: 'eapo',
        });
        for (const v of r.seqAdv) expect(v).toBe(0);
        for (const v of r.adv) expect(v).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('RLOO, GRPO, SoftmaxGRPO and pass@k sum to zero in every group', () => {
    const withK = fc.integer({ min: 1, max: 6 });
    fc.assert(
      fc.property(arbBatch(), fc.constantFrom(...GROUP_RELATIVE), withK, (batch, o, k) => {
        const options = o.estimator === 'passk' ? { ...o, passK: Math.min(k, batch.G) } : o;
        const { seqAdv } = computeAdvantages(batch, options);
        for (let b = 0; b < batch.B; b++) {
          let sum = 0;
          let scale = 0;
          for (let g = 0; g < batch.G; g++) {
            sum += seqAdv[b * batch.G + g];
            scale += Math.abs(seqAdv[b * batch.G + g]);
          }
          expect(Math.abs(sum)).toBeLessThanOrEqual(1e-9 * (1 + scale));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('uniform credit puts seqAdv on every kept token; adv is 0 wherever tokenMask is', () => {
    fc.assert(
      fc.property(arbBatch(), fc.double({ min: 0.05, max: 1, noNaN: true }), (batch, q) => {
        const r = computeAdvantages(batch, opts({ topEntropyQuantile: q }));
        for (let j = 0; j < r.adv.length; j++) {
          if (r.tokenMask[j] === 0) expect(r.adv[j]).toBe(0);
          else expect(r.adv[j]).toBeCloseTo(r.seqAdv[Math.floor(j / batch.T)], 5);
          if (batch.mask[j] === 0) expect(r.tokenMask[j]).toBe(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('outputs are finite for any batch and any options', () => {
    const anyOptions = fc.record({
      // custom is the config's own code: the trainer runs it (src/rl/custom/trainer-custom.test.ts).
      estimator: fc.constantFrom(...ESTIMATORS.filter((e) => e !== 'custom')),
      grpoScale: fc.constantFrom('group' as const, 'batch' as const, 'none' as const),
      softmaxTau: fc.double({ min: 1e-6, max: 100, noNaN: true }),
      passK: fc.integer({ min: 1, max: 6 }),
      avspoVirtual: fc.integer({ min: 0, max: 8 }),
      lampoTau: fc.double({ min: 1e-3, max: 1000, noNaN: true }),
      gcsSigma: fc.oneof(fc.constant(0), fc.double({ min: 1e-3, max: 10, noNaN: true })),
      cue: fc.boolean(),
      cueGamma: fc.double({ min: -4, max: 4, noNaN: true }),
      edas: fc.boolean(),
      edasGamma: fc.double({ min: -4, max: 4, noNaN: true }),
      tokenCredit: fc.constantFrom('uniform' as const, 'eapo' as const),
      topEntropyQuantile: fc.double({ min: 1e-3, max: 1, noNaN: true }),
    });
    fc.assert(
      fc.property(arbBatch({ shaped: true }), anyOptions, fc.nat(5), (batch, o, seen) => {
        const mapp = new MappPosterior();
        for (let b = 0; b < batch.B; b++) mapp.update(batch.promptKeys[b], seen, 2 * seen);
        const r = computeAdvantages(batch, { ...o, passK: Math.min(o.passK, batch.G) }, mapp);
        for (const v of r.seqAdv) expect(Number.isFinite(v)).toBe(true);
        for (const v of r.adv) expect(Number.isFinite(v)).toBe(true);
        for (const v of r.tokenMask) expect(Number.isFinite(v)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('does not mutate the batch', () => {
    fc.assert(
      fc.property(arbBatch(), (batch) => {
        const copy = structuredClone(batch);
        computeAdvantages(
          batch,
          opts({ cue: true, cueGamma: 0.5, edas: true, edasGamma: 0.5, tokenCredit: 'eapo', topEntropyQuantile: 0.5 }),
        );
        expect(batch).toEqual(copy);
      }),
      { numRuns: 50 },
    );
  });
});
