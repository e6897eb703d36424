import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng } from '../core/random';
import { betaBinomialPmf, binaryGrpoAdvantage, MappPosterior } from './mapp';
import { grpoAdvantages } from './grpo';

describe('Beta-Binomial', () => {
  it('n = 2, Beta(2, 1): 1/6, 1/3, 1/2', () => {
    // P(k) = C(2,k) B(k+2, 3−k) / B(2,1), B(2,1) = 1/2: B(2,3) = 1/12, 2·B(3,2) = 1/6, B(4,1) = 1/4.
    const p = betaBinomialPmf(2, 2, 1);
    [1 / 6, 1 / 3, 1 / 2].forEach((e, k) => expect(p[k]).toBeCloseTo(e, 12));
  });

  it('Beta(1, 1) is uniform over 0..n', () => {
    for (const v of betaBinomialPmf(5, 1, 1)) expect(v).toBeCloseTo(1 / 6, 12);
  });

  it('a concentrated posterior approaches the Binomial, with no underflow', () => {
    // α = 0.3·1e9, β = 0.7·1e9: P(k) → C(3,k) 0.3^k 0.7^(3−k).
    const p = betaBinomialPmf(3, 0.3e9, 0.7e9);
    [0.343, 0.441, 0.189, 0.027].forEach((e, k) => expect(p[k]).toBeCloseTo(e, 6));
    const big = betaBinomialPmf(255, 1e7, 1);
    expect(big[255]).toBeGreaterThan(0.99);
    expect(big.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});

describe('MaPP advantage', () => {
  it('binary GRPO matches grpoAdvantages (sample std + 1e-4)', () => {
    const g = grpoAdvantages([1, 1, 0, 0, 0], 1, 5, 'group');
    expect(binaryGrpoAdvantage(true, 2, 5)).toBeCloseTo(g[0], 12);
    expect(binaryGrpoAdvantage(false, 2, 5)).toBeCloseTo(g[4], 12);
    expect(binaryGrpoAdvantage(true, 5, 5)).toBe(0);
    expect(binaryGrpoAdvantage(false, 0, 5)).toBe(0);
  });

  it('G = 2, Beta(1, 1): ±0.25/(√0.5 + 1e-4)', () => {
    // The peer succeeds with P = 1/2. Success: peer fails (1/2) → GRPO (1 − 1/2)/(√(1/2) + 1e-4) = 0.7070068;
    // peer succeeds → all agree → 0. So A = 0.3535034. Failure: symmetric, −0.3535034.
    const a = new MappPosterior().advantage('q', [1, 0], 2);
    expect(a[0]).toBeCloseTo(0.3535034, 6);
    expect(a[1]).toBeCloseTo(-0.3535034, 6);
    // All-equal groups still get a signal: MaPP depends only on the completion's own outcome.
    expect(Array.from(new MappPosterior().advantage('q', [1, 1], 2))).toEqual([a[0], a[0]]);
  });

  it('G = 2 after 3 successes and 1 failure: Beta(4, 2)', () => {
    // P(peer fails) = β/(α+β) = 1/3. Success: (1/3)·0.7070068 = 0.2356689. Failure: (2/3)·(−0.7070068) = −0.4713379.
    const m = new MappPosterior();
    m.update('q', 3, 1);
    expect(m.posterior('q')).toEqual({ alpha: 4, beta: 2 });
    const a = m.advantage('q', [1, 0], 2);
    expect(a[0]).toBeCloseTo(0.2356689, 6);
    expect(a[1]).toBeCloseTo(-0.4713379, 6);
  });

  it('G = 3, Beta(1, 1): ±(1/3)/(√(1/3) + 1e-4)', () => {
    // k ∈ {0,1,2} each 1/3; sample std is √(1/3) for m = 1 or 2. Success: (1/3)(2/3 + 1/3 + 0)/0.5774503 = 0.5772503.
    const a = new MappPosterior().advantage('q', [1, 0, 0.7], 3);
    expect(a[0]).toBeCloseTo(0.5772503, 6);
    expect(a[1]).toBeCloseTo(-0.5772503, 6);
    expect(a[2]).toBe(a[0]); // 0.7 ≥ 0.5 counts as a success
  });

  it('a concentrated posterior gives the binomial expectation of GRPO', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (G, p) => {
        const m = new MappPosterior();
        m.update('q', p * 1e9, (1 - p) * 1e9);
        let expected = 0;
        let choose = 1; // C(G−1, k)
        for (let k = 0; k <= G - 1; k++) {
          expected += choose * p ** k * (1 - p) ** (G - 1 - k) * binaryGrpoAdvantage(true, k + 1, G);
          choose = (choose * (G - 1 - k)) / (k + 1);
        }
        expect(m.advantage('q', new Array(G).fill(1), G)[0]).toBeCloseTo(expected, 5);
      }),
      { numRuns: 50 },
    );
  });

  it('rejects a group of the wrong size and bad counts', () => {
    expect(() => new MappPosterior().advantage('q', [1, 0], 3)).toThrow(/expected G=3/);
    expect(() => new MappPosterior().update('q', -1, 0)).toThrow(/successes/);
  });
});

describe('MaPP score and selection', () => {
  it('score = E[p(1−p)] + c·Var[p]', () => {
    // Beta(1,1): E[p(1−p)] = 1/2 − 1/3 = 1/6, Var = 1/12. c = 1 → 1/4; c = 2 → 1/3.
    expect(new MappPosterior().score('new')).toBeCloseTo(1 / 4, 12);
    expect(new MappPosterior({ uncertaintyBonus: 2 }).score('new')).toBeCloseTo(1 / 3, 12);
    expect(new MappPosterior({ uncertaintyBonus: 0 }).score('new')).toBeCloseTo(1 / 6, 12);
    // Beta(4,2): m = 2/3, m(1−m) = 2/9, Var = 8/(36·7) = 2/63. c = 1 → 2/9.
    const m = new MappPosterior();
    m.update('q', 3, 1);
    expect(m.score('q')).toBeCloseTo(2 / 9, 12);
  });

  it('selects B distinct prompts, reproducibly', () => {
    const m = new MappPosterior();
    const pool = ['a', 'b', 'c', 'd', 'e', 'a'];
    const pick = m.selectPrompts(makeRng(7, 9), 5, pool);
    expect(new Set(pick).size).toBe(5);
    expect(pick).toEqual(m.selectPrompts(makeRng(7, 9), 5, pool));
    expect(() => m.selectPrompts(makeRng(7, 9), 6, pool)).toThrow(/distinct candidates/);
  });

  it('draws ∝ score: a fresh prompt beats a solved-never one about 25 : 1', () => {
    // 'a' Beta(1,1): 0.25. 'b' Beta(1,99): m(1−m) = 0.0099. P(first pick = a) = 0.25/0.2599 = 0.9619.
    const m = new MappPosterior();
    m.update('b', 0, 98);
    const rng = makeRng(3, 0);
    let a = 0;
    const draws = 4000;
    for (let i = 0; i < draws; i++) if (m.selectPrompts(rng, 1, ['a', 'b'])[0] === 'a') a++;
    expect(a / draws).toBeGreaterThan(0.95);
    expect(a / draws).toBeLessThan(0.975);
  });

  it('round-trips through JSON', () => {
    const m = new MappPosterior({ uncertaintyBonus: 3 });
    m.update('q', 2, 5);
    const back = MappPosterior.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(back.posterior('q')).toEqual({ alpha: 3, beta: 6 });
    expect(back.score('q')).toBe(m.score('q'));
  });
});
