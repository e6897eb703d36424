// docs/add-an-estimator.md's promise: an estimator is its function plus one row of the table.
// Here a throwaway estimator is registered through one row alone (the table module with one more
// row) and goes through everything the table feeds: the knob's values and prose, validation,
// the group-size rule, the methods suite, and the trainer's dispatch, which calls it.

import { describe, expect, it, vi } from 'vitest';
import { TINY_MODEL_BATCH } from '../rl/trainer-fixtures';

const calls = vi.hoisted(() => ({ n: 0 }));

vi.mock('./table', async (importOriginal) => {
  const real = await importOriginal<typeof import('./table')>();
  const { grpoEstimator } = await import('./grpo');
  /** Half of GRPO's advantage: enough to train, and distinguishable from every built-in. */
  function halfGrpoEstimator(batch: import('./types').RolloutBatch, options: import('./types').EstimatorOptions) {
    calls.n++;
    return grpoEstimator(batch, options).map((a) => a / 2);
  }
  const row = {
    name: 'half_grpo',
    kind: 'group',
    peers: true,
    title: 'Half GRPO',
    doc: "half of GRPO's advantage",
    paper: 'a test (src/estimators/one-row.test.ts)',
    params: ['grpoScale'],
    advantages: halfGrpoEstimator,
    suite: { source: 'the one-row test' },
    example: false,
  } as const;
  return { ...real, ESTIMATOR_TABLE: [...real.ESTIMATOR_TABLE, row] };
});

describe('an estimator registered through one table row', () => {
  it('is a value of the knob, with its prose and paper, and validation accepts it', async () => {
    const { findKnob } = await import('../config/knobs');
    const { validateConfig } = await import('../config/config');
    const { parseSetFlags } = await import('../config/knob-flags');
    const knob = findKnob('estimator')!;
    expect(knob.values).toContain('half_grpo');
    expect(knob.values![knob.values!.length - 1]).toBe('custom');
    expect(knob.doc).toContain("half_grpo half of GRPO's advantage;");
    expect(knob.source).toContain('a test (src/estimators/one-row.test.ts)');
    expect(validateConfig(parseSetFlags(['estimator=half_grpo'])).estimator).toBe('half_grpo');
    // It compares with peers, so the group-size rule holds it too.
    expect(() => validateConfig({ estimator: 'half_grpo', groupSize: 1 })).toThrow(/groupSize must be at least 2/);
  });

  it('joins the methods suite as one more cell', async () => {
    const { getSuite } = await import('../ablation/methods-suite');
    const method = getSuite('methods').methods.find((m) => m.label === 'Half GRPO');
    expect(method).toEqual({ label: 'Half GRPO', set: { estimator: 'half_grpo' }, source: 'the one-row test' });
  });

  it('is what the pipeline dispatches to, in the trainer (CPU engine)', async () => {
    const { mergeConfig } = await import('../config/config');
    const { presetConfig } = await import('../lessons/presets');
    const { Trainer } = await import('../rl/trainer');
    const { CpuEngine } = await import('../rl/cpu-engine');
    const config = mergeConfig(presetConfig('sort-easy'), TINY_MODEL_BATCH);
    const runOf = async (estimator: string) => {
      const t = await Trainer.create(mergeConfig(config, { estimator }), (l, p, s) => new CpuEngine(l, p, s));
      const records = [];
      for (let i = 0; i < 3; i++) records.push(await t.step());
      t.destroy();
      return records;
    };
    calls.n = 0;
    const half = await runOf('half_grpo');
    expect(calls.n).toBe(3); // once per step
    const grpo = await runOf('grpo');
    expect(calls.n).toBe(3); // GRPO's run does not call it
    // Same seed, same first batch: its advantages are exactly half of GRPO's.
    expect(half[0].scalars['advantages/max']).toBe(grpo[0].scalars['advantages/max'] / 2);
    expect(half[0].scalars['advantages/max']).toBeGreaterThan(0);
  }, 60_000);
});
