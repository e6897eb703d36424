// The trainer end to end: GPU vs CPU reference parity, determinism, faults, learning.
import { describe, expect, it } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { presetConfig } from '../lessons/presets';
import { mergeConfig } from '../config/config';
import { estimatorRows } from '../estimators';
import { Trainer, TrainingFault } from './trainer';
import { GpuEngine } from './gpu-engine';
import { CpuEngine } from './cpu-engine';
import { TINY_RUN } from './trainer-fixtures';
import type { MakeEngine, PolicyEngine, TrainPass } from './engine';

// A tiny sort run: 4 prompts × 4 completions, 1 layer of width 8.
const tiny = mergeConfig(presetConfig('sort-easy'), TINY_RUN);

describe('Trainer', () => {
  for (const estimator of ['grpo', 'mapp'] as const)
    it(`a preview (one group, no update) leaves the run as it was: the same steps follow with or without it (${estimator})`, async () => {
      const cfg = mergeConfig(tiny, { estimator, mappPool: 8 });
      const make = () => Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
      const plain = await make();
      const previewed = await make();
      const records = async (t: Trainer, preview: boolean) => {
        const out = [];
        for (let i = 0; i < 2; i++) {
          if (preview) {
            const g = await t.preview();
            // One group of G answers, verified and with advantages, at the step it stands at.
            expect(g.shape.B).toBe(1);
            expect(g.shape.G).toBe(cfg.groupSize);
            expect(g.advantages?.seqAdv.length).toBe(cfg.groupSize);
            expect(t.stepCount).toBe(i);
          }
          const r = await t.step();
          out.push({
            step: r.step,
            tokens: Array.from(t.latest!.tokens),
            scalars: Object.fromEntries(
              Object.entries(r.scalars).filter(([k]) => !k.startsWith('time/') && k !== 'tokens_per_s'),
            ),
          });
        }
        return out;
      };
      expect(await records(previewed, true)).toEqual(await records(plain, false));
    });

  for (const entropyMode of ['exact', 'uniform'] as const)
    gpuIt(
      `one step of the GPU trainer and of the CPU reference trainer give the same rewards, advantages and loss (entropyMode ${entropyMode})`,
      async ({ device }) => {
        const cfg = mergeConfig(tiny, { entropyMode });
        const gpu = await Trainer.create(cfg, (l, p, s) => new GpuEngine(device, l, p, s));
        const cpu = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
        gpu.collectRatios = cpu.collectRatios = true;
        for (let step = 0; step < 2; step++) {
          const g = await gpu.step();
          const c = await cpu.step();
          // Same sampled tokens → same rewards and advantages (both come from the JS side).
          expect(Array.from(gpu.latest!.tokens)).toEqual(Array.from(cpu.latest!.tokens));
          expect(Array.from(gpu.latest!.verified.rewards)).toEqual(Array.from(cpu.latest!.verified.rewards));
          const ga = gpu.latest!.advantages!.adv,
            ca = cpu.latest!.advantages!.adv;
          expect(Math.max(...ga.map((v, i) => Math.abs(v - ca[i])))).toBeLessThan(1e-5);
          console.log(
            `step ${step + 1}: loss gpu ${g.scalars.loss.toExponential(4)} cpu ${c.scalars.loss.toExponential(4)}; kl ${g.scalars.kl.toExponential(2)} vs ${c.scalars.kl.toExponential(2)}; grad_norm ${g.scalars.grad_norm.toFixed(5)} vs ${c.scalars.grad_norm.toFixed(5)}`,
          );
          expect(Math.abs(g.scalars.loss - c.scalars.loss)).toBeLessThan(1e-4 * Math.max(1, Math.abs(c.scalars.loss)));
          expect(Math.abs(g.scalars.grad_norm - c.scalars.grad_norm)).toBeLessThan(
            1e-3 * Math.max(1e-3, c.scalars.grad_norm),
          );
          expect(g.scalars.reward).toBe(c.scalars.reward);
          // Importance ratios after the update: 1 where untrained, equal on both engines, not all 1.
          const gr = gpu.latest!.ratio!,
            cr = cpu.latest!.ratio!;
          const trained = gpu.latest!.advantages!.tokenMask;
          expect(Math.max(...gr.map((v, i) => Math.abs(v - cr[i])))).toBeLessThan(1e-4);
          expect(gr.every((v, i) => (trained[i] ? v > 0 && Number.isFinite(v) : v === 1))).toBe(true);
          expect(gr.some((v, i) => trained[i] && Math.abs(v - 1) > 1e-4)).toBe(true);
        }
        const [pg, pc] = [await gpu.engine.readParams(), await cpu.engine.readParams()];
        let d = 0;
        for (let i = 0; i < pg.length; i++) d = Math.max(d, Math.abs(pg[i] - pc[i]));
        console.log(`weights after 2 steps: max |gpu − cpu| ${d.toExponential(2)}`);
        expect(d).toBeLessThan(1e-4);
        gpu.destroy();
      },
    );

  gpuIt('the same seed and config give identical metrics', async ({ device }) => {
    const run = async () => {
      const t = await Trainer.create(tiny, (l, p, s) => new GpuEngine(device, l, p, s));
      const out = [];
      for (let i = 0; i < 3; i++) out.push((await t.step()).scalars);
      t.destroy();
      return out.map((s) =>
        Object.fromEntries(Object.entries(s).filter(([k]) => !k.startsWith('time/') && k !== 'tokens_per_s')),
      );
    };
    expect(await run()).toEqual(await run());
  });

  gpuIt('non-finite weights stop the run at sampling, naming the step and the tensor', async ({ device }) => {
    const t = await Trainer.create(tiny, (l, p, s) => new GpuEngine(device, l, p, s));
    await t.step();
    // Poison one embedding weight: the next step's loss and gradients go non-finite.
    const poisoned = await t.engine.readParams();
    poisoned[t.layout.wpe.offset + 3] = NaN;
    await t.engine.loadParams(poisoned);
    const fault = await t.step().then(
      () => null,
      (e: unknown) => e,
    );
    expect(fault).toBeInstanceOf(TrainingFault);
    const f = fault as TrainingFault;
    console.log(`fault: ${f.message}`);
    expect(f.step).toBe(2);
    expect(f.message).toMatch(/^step 2: non-finite/);
    expect(f.message).toMatch(/weights from before this step are kept/);
    expect(f.tensors).toContain('transformer.wpe.weight');
    const after = await t.engine.readParams();
    expect(after.every((v, i) => Object.is(v, poisoned[i]))).toBe(true);
    // The user repairs the weights and the run continues.
    poisoned[t.layout.wpe.offset + 3] = 0;
    await t.engine.loadParams(poisoned);
    const r = await t.step();
    expect(Number.isFinite(r.scalars.loss)).toBe(true);
    t.destroy();
  });

  gpuIt(
    'a non-finite gradient is caught on the GPU: the step is rolled back and the run pauses with the step named',
    async ({ device }) => {
      let poisonNext = false;
      const t = await Trainer.create(tiny, (l, p, s) => {
        const e = new GpuEngine(device, l, p, s);
        const train = e.train.bind(e);
        // Poison one advantage of the first minibatch: its gradient goes NaN, the second is fine.
        e.train = (passes, ...rest) => {
          if (poisonNext) {
            const d = passes[0].data;
            d.adv[d.mask.indexOf(1)] = NaN;
          }
          return train(passes, ...rest);
        };
        return e;
      });
      await t.step();
      const before = await t.engine.readParams();
      poisonNext = true;
      const fault = await t.step().then(
        () => null,
        (e: unknown) => e,
      );
      expect(fault).toBeInstanceOf(TrainingFault);
      console.log(`fault: ${(fault as Error).message}`);
      expect((fault as TrainingFault).step).toBe(2);
      expect((fault as Error).message).toMatch(
        /^step 2: non-finite gradient in pass 1 \(tensors: transformer\.wte\.weight/,
      );
      // Pass 2 (a clean minibatch) had updated the weights; the rollback undoes it.
      const after = await t.engine.readParams();
      expect(after.every((v, i) => v === before[i])).toBe(true);
      poisonNext = false;
      expect(Number.isFinite((await t.step()).scalars.loss)).toBe(true);
      t.destroy();
    },
  );
});

describe('Trainer (CPU reference engine)', () => {
  it('parameters change and the loss is finite over 3 steps, for every estimator and aggregation', async () => {
    // Every row of the estimator table (src/estimators/table.ts).
    const estimators = estimatorRows().map((r) => r.name);
    const aggregations = [
      'token-mean',
      'seq-mean-token-mean',
      'seq-mean-token-sum',
      'seq-mean-token-sum-norm',
    ] as const;
    const cases = [
      ...estimators.map((estimator) => (estimator === 'passk' ? { estimator, passK: 2 } : { estimator })),
      ...aggregations.map((aggregation) => ({ aggregation })),
      { tokenCredit: 'eapo' },
      { topEntropyQuantile: 0.5 },
      { cueGamma: 0.5 },
      { edasGamma: 0.5 },
      { dualClip: 3 },
      { klKind: 'k1' },
      { entropyMode: 'sampled' },
      { entropyMode: 'uniform' },
      { dynamicSampling: true },
    ];
    for (const overrides of cases) {
      const cfg = mergeConfig(tiny, { epochs: 1, minibatches: 1, ...overrides });
      const t = await Trainer.create(cfg, (l, p, s) => new CpuEngine(l, p, s));
      const before = await t.engine.readParams();
      for (let i = 0; i < 3; i++) {
        const r = await t.step();
        expect(Number.isFinite(r.scalars.loss), JSON.stringify(overrides)).toBe(true);
      }
      const after = await t.engine.readParams();
      expect(
        after.some((v, i) => v !== before[i]),
        JSON.stringify(overrides),
      ).toBe(true);
    }
  });

  it('a larger held-out set extends the same prompts (the in-training checks are its prefix)', async () => {
    const t = await Trainer.create(mergeConfig(tiny, { evalPrompts: 4 }), (l, p, s) => new CpuEngine(l, p, s));
    const four = t.heldOutPrompts(t.level).map((i) => i.promptTokens.join(','));
    const twelve = t.heldOutPrompts(t.level, 12).map((i) => i.promptTokens.join(','));
    expect(twelve).toHaveLength(12);
    expect(twelve.slice(0, 4)).toEqual(four);
    expect(t.heldOutPrompts(t.level).map((i) => i.promptTokens.join(','))).toEqual(four);
    const ev = await t.evaluate(t.level, 12);
    expect(ev.prompts).toBe(12);
  });
});

describe('an engine given a pass whose input is not N × T long', () => {
  /** One real step, then the first pass again with one advantage short: refused by name, the weights untouched. */
  async function refusesShortInput(make: MakeEngine) {
    let seen: { passes: TrainPass[]; N: number; T: number } | null = null;
    const t = await Trainer.create(tiny, (l, p, s) => {
      const e = make(l, p, s) as PolicyEngine;
      const train = e.train.bind(e);
      e.train = (passes, N, T) => {
        seen ??= { passes, N, T };
        return train(passes, N, T);
      };
      return e;
    });
    await t.step();
    const { passes, N, T } = seen!;
    const before = await t.engine.readParams();
    const short: TrainPass = { ...passes[0], data: { ...passes[0].data, adv: passes[0].data.adv.subarray(1) } };
    await expect(t.engine.train([short], N, T)).rejects.toThrow(
      `train: pass 0 adv: ${N * T - 1} values, N × T = ${N} × ${T} = ${N * T}`,
    );
    expect(await t.engine.readParams()).toEqual(before);
    t.destroy();
  }

  it('the CPU engine refuses it, naming the input', () => refusesShortInput((l, p, s) => new CpuEngine(l, p, s)));
  gpuIt('the GPU engine refuses it, naming the input', ({ device }) =>
    refusesShortInput((l, p, s) => new GpuEngine(device, l, p, s)),
  );
});
