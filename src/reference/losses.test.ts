// Gradient checks of the loss-side kernels: logitsStats/logitsBackward (the dlogp path through
// log π(target) and the dent path through the entropy, tempered), pgLoss (every clip, KL and
// aggregation setting) and ceLoss. All in Float64.

import { describe, expect, it } from 'vitest';
import { ceLoss, logitsBackward, logitsStats, pgLoss } from './ops';
import { dot, expectGrad, randn, rng, uniform } from './testing';
import { AGGREGATION, PG_STAT, PG_STATS, REGULATOR, type PgLossParams, type Regulator } from '../core/abi';

describe('logitsStats / logitsBackward', () => {
  const R = 5,
    V = 11,
    invTemp = 0.7;
  // rows 1 and 3 have targets outside [0,V): logp ≡ 0 there
  const targets = Int32Array.from([4, -1, 10, 11, 0]);

  it('logitsStats matches a direct softmax', () => {
    const r = rng(50);
    const logits = randn(r, R * V, 2);
    const logp = new Float64Array(R),
      ent = new Float64Array(R);
    logitsStats(logp, ent, logits, targets, { R, V, invTemp });
    for (let i = 0; i < R; i++) {
      const z = Array.from(logits.subarray(i * V, (i + 1) * V), (x) => x * invTemp);
      const sum = z.reduce((a, b) => a + Math.exp(b), 0);
      const p = z.map((x) => Math.exp(x) / sum);
      const tgt = targets[i];
      expect(logp[i]).toBeCloseTo(tgt >= 0 && tgt < V ? Math.log(p[tgt]) : 0, 12);
      expect(ent[i]).toBeCloseTo(-p.reduce((a, q) => a + q * Math.log(q), 0), 12);
    }
  });

  it('logitsStats with the uniform regulator writes mean_j log p_j (≤ −log V, = at uniform)', () => {
    const r = rng(52);
    const logits = randn(r, R * V, 2);
    logits.fill(0.3, 0, V); // row 0 uniform
    const logp = new Float64Array(R),
      u = new Float64Array(R);
    logitsStats(logp, u, logits, targets, { R, V, invTemp, regulator: REGULATOR.uniform });
    for (let i = 0; i < R; i++) {
      const z = Array.from(logits.subarray(i * V, (i + 1) * V), (x) => x * invTemp);
      const lse = Math.log(z.reduce((a, b) => a + Math.exp(b), 0));
      expect(u[i]).toBeCloseTo(z.reduce((a, b) => a + (b - lse), 0) / V, 12);
      expect(u[i]).toBeLessThanOrEqual(-Math.log(V) + 1e-12);
    }
    expect(u[0]).toBeCloseTo(-Math.log(V), 12);
  });

  it('the uniform regulator still pulls a collapsed row back; the entropy barely does', () => {
    // One row, all mass on token 0: the gradient on the starved token 1's logit.
    const logits = Float64Array.from({ length: V }, (_, j) => (j === 0 ? 20 : 0));
    const none = Int32Array.from([-1]);
    const grad = (reg: 0 | 1) => {
      const d = new Float64Array(V);
      logitsBackward(d, logits, none, Float64Array.from([0]), Float64Array.from([-1]), {
        R: 1,
        V,
        invTemp: 1,
        regulator: reg,
      });
      return -d[1]; // descent direction on loss −reg: how much token 1's logit rises
    };
    expect(grad(REGULATOR.uniform)).toBeCloseTo(1 / V, 6);
    expect(grad(REGULATOR.entropy)).toBeGreaterThan(0);
    expect(grad(REGULATOR.entropy)).toBeLessThan(1e-6);
  });

  const cases: [string, number, number][] = [
    ['dlogp path', 1, 0],
    ['dent path', 0, 1],
    ['both paths', 1, 1],
  ];
  // Each regulator (the entropy, seed 51; uniform, seed 53) through each backward path.
  const regulators: [string, Regulator, number][] = [
    ['entropy', REGULATOR.entropy, 51],
    ['uniform', REGULATOR.uniform, 53],
  ];
  for (const [regName, reg, seed] of regulators) {
    for (const [label, useLogp, useReg] of cases) {
      it(`backward passes gradcheck (${regName} regulator, ${label}, invTemp ${invTemp})`, () => {
        const r = rng(seed);
        const logits = randn(r, R * V, 2);
        const dlogp = randn(r, R).map((x) => x * useLogp);
        const dreg = randn(r, R).map((x) => x * useReg);
        const logp = new Float64Array(R),
          regValue = new Float64Array(R);
        const f = (x: Float64Array) => {
          logitsStats(logp, regValue, x, targets, { R, V, invTemp, regulator: reg });
          return dot(dlogp, logp) + dot(dreg, regValue);
        };
        const dlogits = new Float64Array(R * V).fill(NaN);
        logitsBackward(dlogits, logits, targets, dlogp, dreg, { R, V, invTemp, regulator: reg });
        expectGrad(`logitsBackward ${regName} ${label}`, f, logits, dlogits);
      });
    }
  }
});

describe('pgLoss', () => {
  const N = 4,
    T = 5;
  const base: PgLossParams = {
    epsLow: 0.2,
    epsHigh: 0.28,
    dualClip: 0,
    beta: 0,
    klKind: 1,
    alpha: 0,
    aggregation: AGGREGATION.tokenMean,
    maxLen: 6,
    totalTokens: 13,
    totalSeqs: 5,
  };
  // mask: sequence 3 has no trained token (its seq-mean weight must be 0, not NaN)
  const mask = Float64Array.from([1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0]);
  const klMask = Float64Array.from([1, 0, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);

  /** Random inputs with log-ratios in [−0.6, 0.6], none within 1e-2 of a clip boundary (the
   *  finite differences must not cross one). */
  interface PgInputs {
    logp: Float64Array;
    oldLogp: Float64Array;
    refLogp: Float64Array;
    adv: Float64Array;
    entropy: Float64Array;
  }

  function inputs(seed: number, p: PgLossParams): PgInputs {
    const r = rng(seed);
    const oldLogp = uniform(r, N * T, -3, -0.2);
    const logp = new Float64Array(N * T);
    const bounds = [Math.log(1 - p.epsLow), Math.log(1 + p.epsHigh), p.dualClip > 1 ? Math.log(p.dualClip) : NaN];
    for (let i = 0; i < N * T; i++) {
      let lr: number;
      do lr = -0.6 + 1.2 * r.next();
      while (bounds.some((b) => Math.abs(lr - b) < 1e-2));
      logp[i] = oldLogp[i] + lr;
    }
    const refLogp = uniform(r, N * T, -3, -0.2);
    const adv = randn(r, N * T);
    // make sure every branch occurs: clipped low, clipped high, dual-clipped (c = 1.3)
    [
      [-0.5, -1.2],
      [0.5, 0.9],
      [0.55, -0.7],
    ].forEach(([lr, a], i) => {
      logp[i] = oldLogp[i] + lr;
      adv[i] = a;
    });
    const entropy = uniform(r, N * T, 0.1, 2);
    return { logp, oldLogp, refLogp, adv, entropy };
  }

  /** pgLoss on a batch (by default the N×T one above, with its masks); its (=) outputs start as NaN. */
  function run(p: PgLossParams, x: PgInputs, b = { N, T, mask, klMask }) {
    const dlogp = new Float64Array(b.N * b.T).fill(NaN),
      dent = new Float64Array(b.N * b.T).fill(NaN);
    const seqLoss = new Float64Array(b.N).fill(NaN),
      stats = new Float64Array(b.N * PG_STATS).fill(NaN);
    pgLoss(dlogp, dent, seqLoss, stats, x.logp, x.oldLogp, x.refLogp, x.adv, b.mask, b.klMask, x.entropy, b.N, b.T, p);
    return { dlogp, dent, seqLoss, stats, loss: seqLoss.reduce((a, c) => a + c, 0) };
  }

  it('stats and loss on a hand-computed sequence', () => {
    // t0: ρ=0.5, A=−1 → clipped low, s = 0.8·(−1); t1: ρ=1.5, A=1 → clipped high, s = 1.28;
    // t2: ρ=4, A=−1, dual clip 3 → s = max(−4, −3) = −3; t3: masked out.
    const p: PgLossParams = { ...base, dualClip: 3, totalTokens: 3 };
    const oldLogp = Float64Array.from([-1, -1, -2, -1]);
    const logp = Float64Array.from([-1 + Math.log(0.5), -1 + Math.log(1.5), -2 + Math.log(4), -5]);
    const adv = Float64Array.from([-1, 1, -1, 1]);
    const { seqLoss, dlogp, stats } = run(
      p,
      { logp, oldLogp, refLogp: logp, adv, entropy: new Float64Array(4) },
      { N: 1, T: 4, mask: Float64Array.from([1, 1, 1, 0]), klMask: Float64Array.from([1, 1, 1, 1]) },
    );
    expect(seqLoss[0]).toBeCloseTo((0.8 - 1.28 + 3) / 3, 14);
    expect(Array.from(dlogp)).toEqual([0, 0, 0, 0]); // every branch is constant
    expect(stats[PG_STAT.count]).toBe(3);
    expect(stats[PG_STAT.clippedLow]).toBe(1);
    expect(stats[PG_STAT.clippedHigh]).toBe(1);
    expect(stats[PG_STAT.dualClipped]).toBe(1);
    expect(stats[PG_STAT.sumRatio]).toBeCloseTo(6, 14);
    expect(stats[PG_STAT.maxRatio]).toBeCloseTo(4, 14);
    expect(stats[PG_STAT.sumKl]).toBe(0); // refLogp = logp
    expect(stats[PG_STAT.sumLogRatio]).toBeCloseTo(Math.log(3), 14);
  });

  /** The spec's per-token formulas, written out directly, for the loss values and stats. */
  function specLoss(p: PgLossParams, x: PgInputs): { seqLoss: number[]; stats: number[][] } {
    const seqLoss: number[] = [],
      stats: number[][] = [];
    for (let n = 0; n < N; n++) {
      const idx = Array.from({ length: T }, (_, t) => n * T + t).filter((i) => mask[i] === 1);
      const L = idx.length;
      const w = [1 / p.totalTokens, L ? 1 / (p.totalSeqs * L) : 0, 1 / p.totalSeqs, 1 / (p.totalSeqs * p.maxLen)][
        p.aggregation
      ];
      let loss = 0;
      const st = [L, 0, 0, 0, 0, 0, 0, 0];
      for (const i of idx) {
        const rho = Math.exp(x.logp[i] - x.oldLogp[i]);
        const A = x.adv[i];
        const clipped = Math.min(Math.max(rho, 1 - p.epsLow), 1 + p.epsHigh);
        let s = Math.min(rho * A, clipped * A);
        if (p.dualClip > 1 && A < 0 && p.dualClip * A > s) {
          s = p.dualClip * A;
          st[6]++;
        }
        const k1 = x.logp[i] - x.refLogp[i];
        const k3 = Math.exp(x.refLogp[i] - x.logp[i]) - (x.refLogp[i] - x.logp[i]) - 1;
        const kl = klMask[i] === 1 && p.beta > 0 ? (p.klKind === 1 ? k1 : k3) : 0;
        loss += w * (-s + p.beta * kl - p.alpha * x.entropy[i]);
        if (rho < 1 - p.epsLow && A < 0) st[1]++;
        if (rho > 1 + p.epsHigh && A > 0) st[2]++;
        st[3] += rho;
        st[4] = Math.max(st[4], rho);
        if (klMask[i] === 1) st[5] += k3;
        st[7] += x.logp[i] - x.oldLogp[i];
      }
      seqLoss.push(loss);
      stats.push(st);
    }
    return { seqLoss, stats };
  }

  const settings: [string, Partial<PgLossParams>][] = [
    ['clip inactive', { epsLow: 10, epsHigh: 10 }],
    ['clip active', {}],
    ['dual clip + k1', { dualClip: 1.3, beta: 0.3, klKind: 1 }],
    ['k3 + entropy', { beta: 0.3, klKind: 3, alpha: 0.05 }],
    ['dual clip + k3 + entropy', { dualClip: 1.3, beta: 0.3, klKind: 3, alpha: 0.05 }],
  ];
  const aggNames = ['token-mean', 'seq-mean-token-mean', 'seq-mean-token-sum', 'seq-mean-token-sum-norm'];
  settings.forEach(([label, over], si) => {
    it(`dlogp and dent pass gradcheck (${label}, every aggregation)`, () => {
      for (const agg of [0, 1, 2, 3] as const) {
        const p: PgLossParams = { ...base, ...over, aggregation: agg };
        const x = inputs(60 + si, p);
        const res = run(p, x);
        expect(res.seqLoss[3]).toBe(0);
        // loss values and statistics follow the spec's formulas
        const spec = specLoss(p, x);
        for (let n = 0; n < N; n++) {
          expect(res.seqLoss[n]).toBeCloseTo(spec.seqLoss[n], 14);
          spec.stats[n].forEach((v, k) => expect(res.stats[n * PG_STATS + k]).toBeCloseTo(v, 12));
        }
        // the branches the setting is about really occur in this batch
        const sum = (k: number) => [0, 1, 2, 3].reduce((a, n) => a + res.stats[n * PG_STATS + k], 0);
        if (label === 'clip inactive') expect(sum(PG_STAT.clippedLow) + sum(PG_STAT.clippedHigh)).toBe(0);
        else expect(sum(PG_STAT.clippedLow) * sum(PG_STAT.clippedHigh)).toBeGreaterThan(0);
        if (p.dualClip > 1) expect(sum(PG_STAT.dualClipped)).toBeGreaterThan(0);
        const tag = `pgLoss ${label}, ${aggNames[agg]}`;
        expectGrad(`${tag} dlogp`, (lp) => run(p, { ...x, logp: lp }).loss, x.logp, res.dlogp);
        // masked tokens get exactly zero gradient
        for (let i = 0; i < N * T; i++) if (mask[i] === 0) expect(res.dlogp[i]).toBe(0);
        if (p.alpha > 0) expectGrad(`${tag} dent`, (h) => run(p, { ...x, entropy: h }).loss, x.entropy, res.dent);
        else expect(res.dent.every((d) => d === 0)).toBe(true);
      }
    });
  });

  it('rejects an unknown klKind', () => {
    const x = inputs(70, base);
    expect(() => run({ ...base, klKind: 2 as 1 }, x)).toThrow(/klKind/);
  });
});

describe('ceLoss', () => {
  it('dlogp passes gradcheck and seqLoss splits the loss', () => {
    const N = 3,
      T = 5,
      scale = 1 / 9;
    const r = rng(80);
    const logp = uniform(r, N * T, -4, -0.1);
    const mask = Float64Array.from([0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 1]);
    const dlogp = new Float64Array(N * T).fill(NaN),
      seqLoss = new Float64Array(N).fill(NaN);
    ceLoss(dlogp, seqLoss, logp, mask, N, T, scale);
    expect(seqLoss[0]).toBeCloseTo(-scale * (logp[1] + logp[2] + logp[3]), 14);
    const f = (x: Float64Array) => {
      const s = new Float64Array(N);
      ceLoss(new Float64Array(N * T), s, x, mask, N, T, scale);
      return s.reduce((a, b) => a + b, 0);
    };
    expectGrad('ceLoss dlogp', f, logp, dlogp);
  });
});
