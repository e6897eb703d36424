// What the trainer hands the engine, checked on a spy around the CPU engine with knob values
// that cannot be mistaken for each other or for defaults: a knob wired to the wrong field, or
// an advantage built from the wrong array, fails here rather than in a learning curve.
import { describe, expect, it } from 'vitest';
import { presetConfig } from '../lessons/presets';
import { mergeConfig, type RunConfig } from '../config/config';
import { Trainer } from './trainer';
import { CpuEngine } from './cpu-engine';
import { rowArrays } from './rollout';
import { EOS, NUM_SPECIAL } from '../tasks/types';
import { usesReference, type EngineSettings, type TrainPass, type TrainResult } from './engine';
import type { ParamLayout } from '../model/layout';
import { AGGREGATION, REGULATOR, type SampleResult, type SampleTokenParams } from '../core/abi';

interface TrainCall {
  passes: TrainPass[];
  N: number;
  T: number;
  invTemp: number;
  useReference: boolean;
}

class SpyEngine extends CpuEngine {
  readonly trains: TrainCall[] = [];
  readonly samples: { fixed: Int32Array; N: number; T: number; params: SampleTokenParams; result: SampleResult }[] = [];
  /** Rewrites a sample before the trainer sees it (the dynamic-sampling test's outcomes). */
  rewrite:
    ((s: SampleResult, call: { fixed: Int32Array; N: number; T: number; params: SampleTokenParams }) => void) | null =
    null;

  constructor(layout: ParamLayout, params: Float32Array, settings: EngineSettings) {
    super(layout, params, settings);
  }

  override async sample(fixed: Int32Array, N: number, T: number, params: SampleTokenParams): Promise<SampleResult> {
    const result = await super.sample(fixed, N, T, params);
    this.rewrite?.(result, { fixed, N, T, params });
    this.samples.push({ fixed: fixed.slice(), N, T, params: { ...params }, result });
    return result;
  }

  override async train(passes: TrainPass[], N: number, T: number): Promise<TrainResult> {
    this.trains.push({ passes, N, T, invTemp: this.settings.invTemp, useReference: passes.some(usesReference) });
    return super.train(passes, N, T);
  }
}

async function spyTrainer(config: RunConfig): Promise<{ t: Trainer; spy: SpyEngine }> {
  let spy: SpyEngine | null = null;
  const t = await Trainer.create(config, (l, p, s) => (spy = new SpyEngine(l, p, s)));
  return { t, spy: spy! };
}

/** Rows of a minibatch as strings, sorted: the multiset of rows, whatever the shuffle. */
function rowSet(
  d: { tokens: Int32Array; adv: Float32Array; mask: Float32Array; oldLogp: Float32Array; klMask: Float32Array },
  T: number,
): string[] {
  const rows: string[] = [];
  for (let n = 0; n < d.tokens.length / T; n++) {
    const s = (a: ArrayLike<number>) =>
      Array.from(a)
        .slice(n * T, (n + 1) * T)
        .map((v) => Math.fround(v))
        .join(',');
    rows.push([s(d.tokens), s(d.adv), s(d.mask), s(d.oldLogp), s(d.klMask)].join('|'));
  }
  return rows.sort();
}

const base = mergeConfig(presetConfig('sort-easy'), {
  'model.nEmbd': 8,
  'model.nLayer': 1,
  'model.nHead': 2,
  batchPrompts: 3,
  groupSize: 4,
  evalEvery: 0,
  epsLow: 0.1,
  epsHigh: 0.3,
  klKind: 'k1',
  klBeta: 0.07,
  refSync: 'none',
  dualClip: 2.5,
  lr: 0.0021,
  beta1: 0.81,
  beta2: 0.93,
  adamEps: 3e-7,
  weightDecay: 0.013,
  maxGradNorm: 0.7,
  warmupSteps: 4,
  temperature: 0.8,
  topK: 5,
  aggregation: 'seq-mean-token-sum',
  epochs: 2,
  minibatches: 3,
});

describe('what the trainer hands the engine', () => {
  it('loss, optimiser and sampling knobs reach the engine unchanged (ε_low 0.1, ε_high 0.3, k1, β, α, dual clip, AdamW, warm-up)', async () => {
    const cfg = mergeConfig(base, { entropyAlpha: 0.037, entropyMode: 'exact' });
    const { t, spy } = await spyTrainer(cfg);
    await t.step();
    await t.step();
    expect(spy.samples[0].params).toEqual({ seed: cfg.seed, step: 0, invTemp: 1 / 0.8, topK: 5 });
    expect(spy.samples[1].params.step).toBe(1);
    expect(spy.settings.regulator).toBe(REGULATOR.entropy);
    const call = spy.trains[1];
    expect(call).toMatchObject({ N: 4, invTemp: 1 / 0.8, useReference: true }); // 12 sequences / 3 minibatches
    expect(call.passes).toHaveLength(6); // 2 epochs × 3 minibatches
    call.passes.forEach((p, i) => {
      expect(p.loss.kind).toBe('pg');
      if (p.loss.kind !== 'pg') return;
      expect(p.loss.params).toMatchObject({
        epsLow: 0.1,
        epsHigh: 0.3,
        dualClip: 2.5,
        beta: 0.07,
        klKind: 1,
        alpha: 0.037,
        aggregation: AGGREGATION.seqMeanTokenSum,
        totalSeqs: 4,
      });
      expect(p.loss.params.maxLen).toBe(t.latest!.shape.Lc);
      expect(p.loss.params.totalTokens).toBe(
        Math.max(
          1,
          p.data.mask.reduce((a, b) => a + b, 0),
        ),
      );
      // The second step's passes are optimiser steps 7..12; the lr warms up over 4 of them.
      const step = 7 + i;
      expect(p.adam).toEqual({
        lr: 0.0021 * Math.min(1, step / 4),
        beta1: 0.81,
        beta2: 0.93,
        eps: 3e-7,
        weightDecay: 0.013,
        step,
        maxGradNorm: 0.7,
      });
    });
    expect(spy.trains[0].passes[0].adam.lr).toBeCloseTo(0.0021 / 4, 12);
  });

  it("the sampled-entropy regulator adds α·(−log π) to each trained token's advantage and sends α = 0 to the loss", async () => {
    const alpha = 0.05;
    const cfg = mergeConfig(base, { entropyAlpha: alpha, entropyMode: 'sampled', epochs: 1, minibatches: 1 });
    const { t, spy } = await spyTrainer(cfg);
    await t.step();
    const snap = t.latest!;
    const { adv, tokenMask } = snap.advantages!;
    const expected = Float32Array.from(adv, (a, j) => (tokenMask[j] ? a + alpha * -snap.facts.logp[j] : a));
    expect(expected.some((v, j) => tokenMask[j] && v !== adv[j])).toBe(true);
    const pass = spy.trains[0].passes[0];
    expect(pass.loss.kind === 'pg' && pass.loss.params.alpha).toBe(0);
    const want = rowArrays(snap.tokens, snap.shape, expected, tokenMask, snap.facts.logp, snap.shape.Lc);
    expect(rowSet(pass.data, snap.shape.T)).toEqual(rowSet(want, snap.shape.T));
  });

  it('the uniform regulator goes to the engine as its regulator code, and α to the loss', async () => {
    const { t, spy } = await spyTrainer(mergeConfig(base, { entropyAlpha: 0.02, entropyMode: 'uniform', klBeta: 0 }));
    await t.step();
    expect(spy.settings.regulator).toBe(REGULATOR.uniform);
    for (const p of spy.trains[0].passes) {
      expect(p.loss.kind === 'pg' && p.loss.params).toMatchObject({ alpha: 0.02, beta: 0 });
    }
    expect(spy.trains[0].useReference).toBe(false);
  });
});

describe('the curriculum anchor (refSync curriculum)', () => {
  // Sort lengths 2 → 3, checked every 50 steps: no advance happens in these two steps.
  const curriculum = mergeConfig(base, {
    'task.length': 3,
    curriculum: 'pass-rate',
    curriculumParam: 'length',
    curriculumStart: 2,
    curriculumWindow: 50,
    refSync: 'curriculum',
  });
  const pgCalls = (spy: SpyEngine) => spy.trains.filter((c) => c.passes.every((p) => p.loss.kind === 'pg'));

  it('from scratch: no reference before the first advance (a random init is nothing to stay near)', async () => {
    const { t, spy } = await spyTrainer(curriculum);
    await t.step();
    await t.step();
    expect(pgCalls(spy).map((c) => c.useReference)).toEqual([false, false]);
  });

  it('after a warm start: level 1 is anchored to the warm-started model from the first RL step', async () => {
    const { t, spy } = await spyTrainer(mergeConfig(curriculum, { sftSteps: 2 }));
    await t.warmStart();
    const trained = await spy.readParams();
    await t.step();
    await t.step();
    expect(pgCalls(spy).map((c) => c.useReference)).toEqual([true, true]);
    expect(await spy.readReference()).toEqual(trained);
  });

  it('from given weights (rlvr train --init): anchored to them', async () => {
    const { t: first, spy: donor } = await spyTrainer(curriculum);
    await first.step();
    const weights = { layout: first.layout, params: await donor.readParams() };
    const { t, spy } = await (async () => {
      let s: SpyEngine | null = null;
      const tr = await Trainer.create(curriculum, (l, p, st) => (s = new SpyEngine(l, p, st)), { initial: weights });
      return { t: tr, spy: s! };
    })();
    await t.step();
    expect(pgCalls(spy).map((c) => c.useReference)).toEqual([true]);
    expect(await spy.readReference()).toEqual(weights.params);
  });
});

describe('dynamic sampling (DAPO)', () => {
  // Sort with exact reward: a group is made all wrong (uninformative) or one right and the rest
  // wrong (informative) by rewriting the sampled completions from the prompt's letters.
  const cfg = mergeConfig(base, {
    dynamicSampling: true,
    dynamicMaxTries: 3,
    batchPrompts: 4,
    groupSize: 3,
    minibatches: 1,
    epochs: 1,
    klBeta: 0,
  });

  function plan(informative: (attempt: number, b: number) => boolean) {
    return (s: SampleResult, call: { fixed: Int32Array; N: number; T: number; params: SampleTokenParams }) => {
      const { T, N } = call;
      const G = cfg.groupSize;
      const attempt = call.params.step % cfg.dynamicMaxTries;
      const k = Number(cfg['task.length']);
      const Lp = k + 2;
      for (let n = 0; n < N; n++) {
        const b = Math.floor(n / G),
          g = n % G;
        const letters = Array.from(call.fixed.subarray(n * T + 1, n * T + 1 + k)).sort((x, y) => x - y);
        const right = informative(attempt, b) && g === 0;
        const completion = right ? [...letters, EOS] : [EOS, ...letters.map(() => NUM_SPECIAL)];
        s.tokens.set(completion, n * T + Lp);
      }
    };
  }

  async function kept(informative: (attempt: number, b: number) => boolean) {
    const { t, spy } = await spyTrainer(cfg);
    spy.rewrite = plan(informative);
    await t.step();
    const prompt = (fixed: Int32Array, T: number, b: number) =>
      Array.from(fixed.subarray(b * cfg.groupSize * T, b * cfg.groupSize * T + Number(cfg['task.length']) + 2)).join(
        ',',
      );
    const byAttempt = spy.samples.map((s) =>
      Array.from({ length: cfg.batchPrompts }, (_, b) => prompt(s.fixed, s.T, b)),
    );
    const got = t.latest!.instances.map((i) => i.promptTokens.join(','));
    return { t, spy, byAttempt, got };
  }

  it('keeps the informative groups of each try, in order, and drops the uninformative ones', async () => {
    const inf = (a: number, b: number) =>
      (a === 0 && (b === 1 || b === 3)) || (a === 1 && b === 0) || (a === 2 && (b === 2 || b === 3));
    const { t, spy, byAttempt, got } = await kept(inf);
    expect(spy.samples).toHaveLength(3);
    expect(got).toEqual([byAttempt[0][1], byAttempt[0][3], byAttempt[1][0], byAttempt[2][2]]);
    // The kept groups' rows are their own try's rows.
    const T = t.latest!.shape.T,
      G = cfg.groupSize;
    const rows = (tokens: Int32Array, b: number) => Array.from(tokens.subarray(b * G * T, (b + 1) * G * T));
    expect(rows(t.latest!.tokens, 2)).toEqual(rows(spy.samples[1].result.tokens, 0));
    expect(Array.from(t.latest!.verified.correct)).toEqual([1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0]);
  });

  it('stops trying once the batch is full, and fills a short batch with the uninformative groups of the first tries', async () => {
    const full = await kept((a) => a === 0);
    expect(full.spy.samples).toHaveLength(1);
    const short = await kept((a, b) => a === 1 && b === 2);
    expect(short.spy.samples).toHaveLength(3);
    expect(short.got).toEqual([
      short.byAttempt[1][2],
      short.byAttempt[0][0],
      short.byAttempt[0][1],
      short.byAttempt[0][2],
    ]);
  });
});
