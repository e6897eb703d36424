// The custom path through the trainer on the CPU engine: given the built-in GRPO's own code, a
// run is the built-in run bit for bit (every metric of every step, and the weights); a broken
// estimator stops the run at the step with a fault that names the line, nothing trained.

import { describe, expect, it } from 'vitest';
import { mergeConfig, type RunConfig } from '../../config/config';
import { CODE_EXAMPLES } from '../../config/code-examples';
import { withOptions } from '../estimators-fixtures';
import { presetConfig } from '../../lessons/presets';
import { CpuEngine } from '../cpu-engine';
import { TINY_RUN } from '../trainer-fixtures';
import type { StepRecord } from '../step-metrics';
import { Trainer, TrainingFault } from '../trainer';
import { CustomCodeError } from './custom-code-errors';
import { nodeSandbox } from './sandbox-node';

// The trainer tests' tiny run, with a held-out evaluation every 2 steps and a larger lr.
const tiny = mergeConfig(presetConfig('sort-easy'), { ...TINY_RUN, evalEvery: 2, evalPrompts: 4, lr: 0.01 });
const GRPO = CODE_EXAMPLES.find((e) => e.id === 'grpo')!.source;

async function run(config: RunConfig, steps: number): Promise<{ records: StepRecord[]; params: Float32Array }> {
  const t = await Trainer.create(config, (l, p, s) => new CpuEngine(l, p, s), { sandbox: nodeSandbox });
  const records: StepRecord[] = [];
  for (let i = 0; i < steps; i++) records.push(await t.step());
  const params = await t.readParams();
  t.destroy();
  // Wall-clock times differ from run to run; everything else must not.
  for (const r of records)
    for (const k of Object.keys(r.scalars)) if (k.startsWith('time/') || k === 'tokens_per_s') delete r.scalars[k];
  return { records, params };
}

describe('a custom estimator in the trainer (CPU engine)', () => {
  it("given the built-in GRPO's code, reproduces the built-in run bit for bit", async () => {
    const builtin = await run(tiny, 4);
    const custom = await run(mergeConfig(tiny, { estimator: 'custom', customEstimator: GRPO }), 4);
    expect(custom.records).toEqual(builtin.records);
    expect(Buffer.from(custom.params.buffer).equals(Buffer.from(builtin.params.buffer))).toBe(true);
    // Not a vacuous comparison: the run trained (its weights moved) and advantages were nonzero.
    expect(builtin.records.some((r) => r.scalars['advantages/max'] > 0)).toBe(true);
    const other = await run(
      mergeConfig(tiny, {
        estimator: 'custom',
        customEstimator: withOptions(GRPO, { grpoScale: 'none' }),
      }),
      2,
    );
    expect(other.records[1]).not.toEqual(builtin.records[1]);
  }, 60_000);

  it("a reward shaping that returns the verifier's rewards changes nothing, and the verifier's mean is reported", async () => {
    const verifier = CODE_EXAMPLES.find((e) => e.id === 'reward-verifier')!.source;
    const plain = await run(tiny, 2);
    const shaped = await run(mergeConfig(tiny, { rewardShaping: 'custom', customReward: verifier }), 2);
    for (let i = 0; i < 2; i++) {
      const { 'reward/verifier': seen, ...rest } = shaped.records[i].scalars;
      expect(seen).toBe(plain.records[i].scalars.reward);
      expect({ ...shaped.records[i], scalars: rest }).toEqual(plain.records[i]);
    }
  }, 60_000);

  it('a broken estimator stops the run at its step with the line, and nothing is trained', async () => {
    const broken = mergeConfig(tiny, {
      estimator: 'custom',
      customEstimator: 'function advantages(batch) {\n  if (batch.step === 2) return [1];\n  return batch.rewards;\n}',
    });
    const t = await Trainer.create(broken, (l, p, s) => new CpuEngine(l, p, s), { sandbox: nodeSandbox });
    await t.step();
    const before = await t.readParams();
    let fault: unknown;
    try {
      await t.step();
    } catch (e) {
      fault = e;
    }
    expect(fault).toBeInstanceOf(TrainingFault);
    const f = fault as TrainingFault;
    expect(f).toMatchObject({ step: 2, check: 'custom-code', code: { kind: 'estimator', line: 1 } });
    expect(f.message).toMatch(/^step 2: your estimator, line 1: advantages\(batch\) returned 1 values; expected 16/);
    expect(t.stepCount).toBe(1);
    expect(await t.readParams()).toEqual(before);
    t.destroy();
  }, 60_000);

  it('a syntax error refuses the run before it starts; no sandbox, no custom code', async () => {
    const bad = mergeConfig(tiny, {
      estimator: 'custom',
      customEstimator: 'function advantages(batch) {\n  return batch.rewards\n',
    });
    await expect(Trainer.create(bad, (l, p, s) => new CpuEngine(l, p, s), { sandbox: nodeSandbox })).rejects.toThrow(
      CustomCodeError,
    );
    await expect(
      Trainer.create(mergeConfig(tiny, { estimator: 'custom' }), (l, p, s) => new CpuEngine(l, p, s)),
    ).rejects.toThrow(/given no sandbox/);
  });
});
