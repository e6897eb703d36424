import { describe, expect, it } from 'vitest';
import { diffLabel } from '../config';
import { presetConfig } from '../lessons';
import { parseSweepValues, planSweep } from './sweep';

describe('sweeps', () => {
  it('parses values separated by commas or spaces', () => {
    expect(parseSweepValues(' 0.2, 0.28 ;0.35  1e-3 ')).toEqual(['0.2', '0.28', '0.35', '1e-3']);
    expect(parseSweepValues('')).toEqual([]);
  });

  it('one config per value, same seed, a fixed number of steps; consecutive runs differ only in the knob', () => {
    const base = presetConfig('sort-easy');
    const plan = planSweep(base, 'epsHigh', ['0.2', '0.28', '0.35'], 30);
    expect(plan.errors).toEqual([]);
    expect(plan.configs.map((c) => [c.epsHigh, c.steps, c.seed])).toEqual([
      [0.2, 30, base.seed],
      [0.28, 30, base.seed],
      [0.35, 30, base.seed],
    ]);
    expect(diffLabel(plan.configs[0], plan.configs[1])).toBe('ε_high 0.2→0.28');
  });

  it('reports refused values and keeps the others', () => {
    const plan = planSweep(presetConfig('sort-easy'), 'groupSize', ['4', '0', 'x', '16'], 10);
    expect(plan.configs.map((c) => c.groupSize)).toEqual([4, 16]);
    expect(plan.errors).toEqual([
      'groupSize must be an integer in [1, 64], got "0"',
      'groupSize must be an integer in [1, 64], got "x"',
    ]);
    expect(planSweep(presetConfig('sort-easy'), 'nope', ['1'], 10).errors).toEqual(['unknown knob "nope"']);
    expect(planSweep(presetConfig('sort-easy'), 'lr', ['0.1'], 0).errors).toEqual([
      'steps per run must be a positive integer',
    ]);
    expect(planSweep(presetConfig('sort-easy'), 'lr', [], 5).errors).toEqual(['give at least one value']);
  });
});
