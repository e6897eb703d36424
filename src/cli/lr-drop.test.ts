// The lr drop (lrDropStep, lrDropTo) is the schedule a run continued by hand at a lower lr
// follows: n steps with the drop at step k give the metrics, bit for bit, of k steps at lr and
// then `--resume … --set lr=<lrDropTo>` to n. That is how maze-base-rl's tails were trained
// (docs/results.md), so the lesson's recorded runs are runs of its own settings.

import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trainCommand } from './train-commands';
import { rlLearningRate, rlLearningRateKnob } from '../rl/step-update';
import { defaultConfig } from '../config/config';
import { metricsWithoutClock } from './run-folder-fixtures';
import { smallTrainFlags, TINY_MODEL } from './testTrain';

const TINY = smallTrainFlags({ set: { ...TINY_MODEL, warmupSteps: 0 } });
const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-lrdrop-'));

async function train(args: string[]): Promise<void> {
  const errs: string[] = [];
  expect(
    await trainCommand(
      [...args, '--json'],
      () => {},
      (s) => errs.push(s),
    ),
    errs.join('\n'),
  ).toBe(0);
}

describe('the lr drop', () => {
  it('uses lr up to and at step lrDropStep, lrDropTo after it; 0 never drops', () => {
    const c = { ...defaultConfig(), lr: 1e-3, lrDropStep: 3, lrDropTo: 2e-4 };
    expect([1, 2, 3, 4, 50].map((s) => rlLearningRate(c, s))).toEqual([1e-3, 1e-3, 1e-3, 2e-4, 2e-4]);
    expect(rlLearningRate({ ...c, lrDropStep: 0 }, 1e6)).toBe(1e-3);
    // A fault names the knob that set the lr it happened at.
    expect([3, 4].map((s) => rlLearningRateKnob(c, s))).toEqual(['lr', 'lrDropTo']);
  });

  it('is a run resumed at that step with --set lr=<lrDropTo>, bit for bit; without the drop the later steps differ', async () => {
    const whole = tmp();
    await train([
      ...TINY,
      '--set',
      'lr=0.01',
      '--set',
      'lrDropStep=2',
      '--set',
      'lrDropTo=0.001',
      '--steps',
      '4',
      '--out',
      whole,
    ]);
    const byHand = tmp();
    await train([...TINY, '--set', 'lr=0.01', '--steps', '2', '--out', byHand]);
    await train(['--resume', byHand, '--backend', 'cpu', '--steps', '4', '--set', 'lr=0.001']);
    const constant = tmp();
    await train([...TINY, '--set', 'lr=0.01', '--steps', '4', '--out', constant]);

    const [w, h, k] = [metricsWithoutClock(whole), metricsWithoutClock(byHand), metricsWithoutClock(constant)];
    expect(w).toHaveLength(4);
    expect(h).toEqual(w);
    // The first two steps are the constant run's; the drop shows in the next update's size.
    expect(k.slice(0, 2)).toEqual(w.slice(0, 2));
    const updateNorm = (line: string) => (JSON.parse(line) as { scalars: Record<string, number> }).scalars.update_norm;
    expect(updateNorm(w[2])).toBeLessThan(updateNorm(k[2]) / 3);
  }, 120_000);
});
