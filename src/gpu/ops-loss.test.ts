// The logits, loss and optimiser kernels against their CPU twins in src/reference/ops.ts:
// logits_stats / logits_backward (invTemp ≠ 1, ids outside [0,V)), pg_loss across every
// aggregation mode with dual clip and k1/k3 KL, ce_loss, grad_norm (several strides per
// workgroup, NaN and Inf flags) and adamw (with and without the fault flag). One line per
// kernel with the max abs diff; tolerances scale with the size of the values.
import { describe, expect } from 'vitest';
import { expectClose, gpuIt, maxAbsDiff, randn32 } from './testing';
import { runDispatches } from './dispatch';
import { createStorage, readF32, storageFrom } from './buffers';
import {
  adamwOp,
  ceLossOp,
  createAdamwParams,
  createPgLossParams,
  diffNormOp,
  gradNormOp,
  logitsBackwardOp,
  logitsStatsOp,
  pgLossOp,
  writeAdamwParams,
  writePgLossParams,
} from './ops';
import { adamw, ceLoss, diffNorm, gradNorm, logitsBackward, logitsStats, pgLoss } from '../reference/ops';
import { makeRng } from '../core/random';
import { type AdamwParams, PG_STATS, REGULATOR, type PgLossParams } from '../core/abi';

describe('logits, loss and optimiser kernels vs CPU twins', () => {
  gpuIt(
    'logits_stats and logits_backward, both regulators (invTemp ≠ 1; V below and above one workgroup)',
    async ({ device }) => {
      for (const [R, V, reg] of [
        [10, 11, REGULATOR.entropy],
        [6, 150, REGULATOR.entropy],
        [10, 11, REGULATOR.uniform],
        [6, 150, REGULATOR.uniform],
      ] as const) {
        const r = makeRng(10 + V);
        const shape = { R, V, invTemp: 1 / 0.7, regulator: reg };
        const logits = randn32(r, R * V, 2);
        const targets = Int32Array.from({ length: R }, (_, i) => (i === 2 ? -1 : i === 5 ? V : r.int(V)));
        const dlogp = randn32(r, R),
          dent = randn32(r, R);
        const logp = createStorage(device, R * 4),
          ent = createStorage(device, R * 4),
          dlogits = createStorage(device, R * V * 4);
        const logitsB = storageFrom(device, logits),
          targetsB = storageFrom(device, targets);
        await runDispatches(device, [
          ...logitsStatsOp(device, logp, ent, logitsB, targetsB, shape),
          ...logitsBackwardOp(
            device,
            dlogits,
            logitsB,
            targetsB,
            storageFrom(device, dlogp),
            storageFrom(device, dent),
            shape,
          ),
        ]);
        const eLogp = new Float64Array(R),
          eEnt = new Float64Array(R),
          eD = new Float64Array(R * V);
        logitsStats(eLogp, eEnt, logits, targets, shape);
        logitsBackward(eD, logits, targets, dlogp, dent, shape);
        const gLogp = await readF32(device, logp, R);
        expect(gLogp[2]).toBe(0); // target outside [0,V)
        expectClose(`logits_stats logp (R=${R} V=${V} regulator ${reg})`, gLogp, eLogp, 1e-5);
        expectClose(`logits_stats entropy (R=${R} V=${V} regulator ${reg})`, await readF32(device, ent, R), eEnt, 1e-5);
        expectClose(
          `logits_backward (R=${R} V=${V} regulator ${reg})`,
          await readF32(device, dlogits, R * V),
          eD,
          1e-5,
        );
      }
    },
  );

  gpuIt('pg_loss: every aggregation, dual clip, k1/k3, entropy bonus; all outputs and stats', async ({ device }) => {
    const N = 4,
      T = 6,
      R = N * T;
    const r = makeRng(20);
    const oldLogp = Float32Array.from({ length: R }, () => -0.2 - 2 * r.next());
    // every branch is hit: i%4 = 0 clipped low (A<0, ρ≈0.55), 1 clipped high (A>0, ρ≈1.65),
    // 2 dual clip when c < 1.65 (A<0, ρ≈1.65), 3 random (mostly unclipped)
    const shift = [-0.6, 0.5, 0.5];
    const logp = Float32Array.from(oldLogp, (x, i) => x + (shift[i % 4] ?? 0.1 * r.normal()));
    const refLogp = Float32Array.from(logp, (x) => x + 0.3 * r.normal());
    const adv = Float32Array.from(
      { length: R },
      (_, i) => (i % 4 === 1 ? 1 : i % 4 === 3 ? 1 : -1) * (0.2 + r.next()) * (i % 4 === 3 && r.next() < 0.5 ? -1 : 1),
    );
    const mask = Float32Array.from({ length: R }, (_, i) => (Math.floor(i / T) === 3 ? 0 : r.next() < 0.75 ? 1 : 0)); // sequence 3: empty
    const klMask = Float32Array.from(mask, (m, i) => (i % 4 === 1 ? 0 : m));
    const entropy = Float32Array.from({ length: R }, () => 2 * r.next());
    const bufs = [logp, oldLogp, refLogp, adv, mask, klMask, entropy].map((a) => storageFrom(device, a));
    const outs = {
      dlogp: createStorage(device, R * 4),
      dent: createStorage(device, R * 4),
      seqLoss: createStorage(device, N * 4),
      stats: createStorage(device, N * PG_STATS * 4),
    };
    const base: PgLossParams = {
      epsLow: 0.2,
      epsHigh: 0.28,
      dualClip: 0,
      beta: 0,
      klKind: 3,
      alpha: 0,
      aggregation: 0,
      maxLen: 8,
      totalTokens: 15,
      totalSeqs: 5,
    };
    const configs: PgLossParams[] = [
      { ...base },
      { ...base, aggregation: 1, dualClip: 1.5, beta: 0.1, klKind: 1, alpha: 0.01 },
      { ...base, aggregation: 2, dualClip: 3, beta: 0.05, klKind: 3, alpha: 0.02 },
      { ...base, aggregation: 3, beta: 0.2, klKind: 3, epsHigh: 0.2 },
      { ...base, aggregation: 1, beta: 0.1, klKind: 3, dualClip: 1.2 },
    ];
    // built once: the configurations are written into the same params buffer
    const params = createPgLossParams(device, configs[0]);
    const op = pgLossOp(
      device,
      outs.dlogp,
      outs.dent,
      outs.seqLoss,
      outs.stats,
      ...(bufs as [GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer, GPUBuffer]),
      N,
      T,
      params,
    );
    const worst = { dlogp: 0, dent: 0, seqLoss: 0, stats: 0 };
    let dualSeen = 0,
      lowSeen = 0,
      highSeen = 0;
    for (const cfg of configs) {
      writePgLossParams(device, params, cfg);
      await runDispatches(device, op);
      const e = {
        dlogp: new Float64Array(R),
        dent: new Float64Array(R),
        seqLoss: new Float64Array(N),
        stats: new Float64Array(N * PG_STATS),
      };
      pgLoss(e.dlogp, e.dent, e.seqLoss, e.stats, logp, oldLogp, refLogp, adv, mask, klMask, entropy, N, T, cfg);
      for (const k of ['dlogp', 'dent', 'seqLoss', 'stats'] as const) {
        const got = await readF32(device, outs[k], e[k].length);
        worst[k] = Math.max(
          worst[k],
          expectClose(
            `pg_loss ${k} agg=${cfg.aggregation} dual=${cfg.dualClip} kl=k${cfg.klKind}`,
            got,
            e[k],
            1e-5,
            false,
          ),
        );
      }
      for (let n = 0; n < N; n++) {
        lowSeen += e.stats[n * PG_STATS + 1];
        highSeen += e.stats[n * PG_STATS + 2];
        dualSeen += e.stats[n * PG_STATS + 6];
      }
    }
    // the data exercise every branch: low/high clipping and the dual clip
    expect(lowSeen).toBeGreaterThan(0);
    expect(highSeen).toBeGreaterThan(0);
    expect(dualSeen).toBeGreaterThan(0);
    for (const [k, d] of Object.entries(worst))
      console.log(`pg_loss ${k}: max abs diff over ${configs.length} configurations ${d.toExponential(2)}`);
  });

  gpuIt('ce_loss', async ({ device }) => {
    const N = 3,
      T = 5,
      R = N * T,
      scale = 1 / 11;
    const r = makeRng(21);
    const logp = Float32Array.from({ length: R }, () => -3 * r.next());
    const mask = Float32Array.from({ length: R }, () => (r.next() < 0.7 ? 1 : 0));
    const dlogp = createStorage(device, R * 4),
      seqLoss = createStorage(device, N * 4);
    await runDispatches(
      device,
      ceLossOp(device, dlogp, seqLoss, storageFrom(device, logp), storageFrom(device, mask), N, T, scale),
    );
    const eD = new Float64Array(R),
      eS = new Float64Array(N);
    ceLoss(eD, eS, logp, mask, N, T, scale);
    expectClose('ce_loss dlogp', await readF32(device, dlogp, R), eD, 1e-6);
    expectClose('ce_loss seqLoss', await readF32(device, seqLoss, N), eS, 1e-6);
  });

  gpuIt('grad_norm: several strides per workgroup, the default split, NaN and Inf flags', async ({ device }) => {
    const r = makeRng(22);
    const cases: { name: string; P: number; opts?: { workgroupSize: number; groups: number } }[] = [
      // 16 workgroups × 64 threads cover 1024 elements per stride: 5 strides
      { name: 'P=5000, 16×64', P: 5000, opts: { workgroupSize: 64, groups: 16 } },
      // the default: 256 workgroups × 256 threads = 65536 per stride, 2 strides
      { name: 'P=70001, default', P: 70001 },
    ];
    for (const { name, P, opts } of cases) {
      const g = randn32(r, P, 0.01);
      const gBuf = storageFrom(device, g);
      const out = createStorage(device, 8);
      const op = gradNormOp(device, out, gBuf, P, opts);
      await runDispatches(device, op);
      const e = new Float64Array(2);
      gradNorm(e, g, P);
      const got = await readF32(device, out, 2);
      expect(got[1]).toBe(0);
      expectClose(`grad_norm (${name})`, got, e, 1e-6);
      // a bad value in the last stride sets the flag; the norm is then not finite either
      for (const bad of [NaN, Infinity, -Infinity]) {
        device.queue.writeBuffer(gBuf, (P - 3) * 4, Float32Array.of(bad));
        await runDispatches(device, op);
        const [norm, flag] = await readF32(device, out, 2);
        expect(flag, `flag for ${bad}`).toBe(1);
        expect(Number.isFinite(norm)).toBe(false);
      }
    }
  });

  gpuIt(
    'diff_norm: the norm of a − b (how far an update moved the weights), and its non-finite flag',
    async ({ device }) => {
      const r = makeRng(24);
      const P = 5000;
      const a = randn32(r, P),
        b = Float32Array.from(a, (v, i) => (i % 7 === 0 ? v + 0.01 * r.normal() : v));
      const aBuf = storageFrom(device, a),
        bBuf = storageFrom(device, b),
        out = createStorage(device, 8);
      const op = diffNormOp(device, out, aBuf, bBuf, P, { workgroupSize: 64, groups: 16 });
      await runDispatches(device, op);
      const e = new Float64Array(2);
      diffNorm(e, a, b, P);
      const got = await readF32(device, out, 2);
      expect(got[1]).toBe(0);
      expectClose('diff_norm', got, e, 1e-6);
      device.queue.writeBuffer(aBuf, (P - 2) * 4, Float32Array.of(Infinity));
      await runDispatches(device, op);
      expect((await readF32(device, out, 2))[1]).toBe(1);
    },
  );

  gpuIt('adamw: update with clipping and decay; nothing changes when the fault flag is set', async ({ device }) => {
    const P = 1000 + 37;
    const r = makeRng(23);
    const params0 = randn32(r, P),
      grads = randn32(r, P, 0.5),
      m0 = randn32(r, P, 0.01);
    const v0 = Float32Array.from({ length: P }, () => 0.01 * r.next());
    const decay = Float32Array.from({ length: P }, (_, i) => (i % 3 === 0 ? 0 : 1));
    const pB = storageFrom(device, params0),
      mB = storageFrom(device, m0),
      vB = storageFrom(device, v0);
    const normB = storageFrom(device, Float32Array.of(7.5, 0)); // above maxGradNorm: the clip is active
    const h: AdamwParams = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, step: 1, maxGradNorm: 1 };
    const hyper = createAdamwParams(device, h);
    const op = adamwOp(device, pB, storageFrom(device, grads), mB, vB, storageFrom(device, decay), normB, P, hyper);
    const e = { p: Float64Array.from(params0), m: Float64Array.from(m0), v: Float64Array.from(v0) };
    const norm = Float64Array.of(7.5, 0);
    // three steps through one built op; the step count and lr change through the uniform
    for (let step = 1; step <= 3; step++) {
      const hs = { ...h, step, lr: h.lr / step };
      writeAdamwParams(device, hyper, hs);
      await runDispatches(device, op);
      adamw(
        e.p,
        grads,
        e.m,
        e.v,
        decay,
        norm,
        P,
        hs.lr,
        hs.beta1,
        hs.beta2,
        hs.eps,
        hs.weightDecay,
        hs.step,
        hs.maxGradNorm,
      );
    }
    const gp = await readF32(device, pB, P),
      gm = await readF32(device, mB, P),
      gv = await readF32(device, vB, P);
    expectClose('adamw params (3 steps)', gp, e.p, 1e-5);
    expectClose('adamw m', gm, e.m, 1e-5);
    expectClose('adamw v', gv, e.v, 1e-5);
    // fault: a non-finite gradient was seen, the step must leave everything as it was
    device.queue.writeBuffer(normB, 0, Float32Array.of(NaN, 1));
    writeAdamwParams(device, hyper, { ...h, step: 4 });
    await runDispatches(device, op);
    expect(maxAbsDiff(await readF32(device, pB, P), gp)).toBe(0);
    expect(maxAbsDiff(await readF32(device, mB, P), gm)).toBe(0);
    expect(maxAbsDiff(await readF32(device, vB, P), gv)).toBe(0);
    console.log('adamw with the fault flag: params, m, v unchanged');
  });

  gpuIt('rewritable params are validated and tied to one shape', ({ device }) => {
    const h: AdamwParams = { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0, step: 0, maxGradNorm: 0 };
    expect(() => createAdamwParams(device, h)).toThrow(/adamw: step must be an integer ≥ 1/);
    const buf = createAdamwParams(device, { ...h, step: 1 });
    const a = createStorage(device, 16 * 4);
    adamwOp(device, a, a, a, a, a, a, 16, buf);
    expect(() => adamwOp(device, a, a, a, a, a, a, 8, buf)).toThrow(/already serves shape/);
    expect(() =>
      createPgLossParams(device, {
        epsLow: 0.2,
        epsHigh: 0.2,
        dualClip: 0,
        beta: 0,
        klKind: 2 as 3,
        alpha: 0,
        aggregation: 0,
        maxLen: 1,
        totalTokens: 1,
        totalSeqs: 1,
      }),
    ).toThrow(/params.klKind/);
  });
});
