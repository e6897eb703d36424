import { describe, expect, it } from 'vitest';
import { mergeConfig } from '../config';
import { presetConfig } from '../lessons';
import type { StepRecord } from '../rl/step-metrics';
import { appendRecords, makeRun, nextRunName, runLabel, truncateRun } from './kept-runs';

const base = mergeConfig(presetConfig('sort-easy'), { lr: 0.003, epsHigh: 0.2, seed: 1 });
const rec = (step: number, reward = step / 10): StepRecord => ({
  step,
  scalars: { reward },
  entropy_by_pos: [0.5],
  advantage_histogram: { counts: [step], edges: [0, 1] },
  level: 3,
});

describe('runs', () => {
  it("labels a lesson's run by the lesson and what was changed from it; without a lesson, by the change from the run before", () => {
    const first = makeRun([], base, 'sort-easy', { id: 'a', now: 1 });
    expect(first).toMatchObject({ name: '#1', label: 'sort-easy', points: [], evals: [], preset: 'sort-easy' });
    expect(runLabel(base, undefined, undefined)).toBe('defaults');
    const clip = mergeConfig(base, { epsHigh: 0.28 });
    expect(runLabel(clip, 'sort-easy', first)).toBe('sort-easy: ε_high 0.2→0.28');
    expect(runLabel(mergeConfig(clip, { seed: 2, lr: 0.001 }), 'sort-easy', { ...first, config: clip })).toBe(
      'sort-easy: lr 0.003→0.001, ε_high 0.2→0.28, seed 1→2',
    );
    expect(runLabel({ ...base, steps: 40 }, 'sort-easy', first)).toBe('sort-easy'); // the budget is not a difference
    expect(runLabel(clip, undefined, first)).toBe('ε_high 0.2→0.28');
    expect(runLabel(base, undefined, first)).toBe('same config');
    const second = makeRun([first], clip, 'sort-easy');
    expect(second.name).toBe('#2');
    expect(second.label).toBe('sort-easy: ε_high 0.2→0.28');
    expect(nextRunName([{ ...first, name: '#7' }, second])).toBe('#8');
  });

  it('appends step records as points (immutably), keeps the latest histogram, and replaces re-trained steps', () => {
    const run = makeRun([], base, undefined, { id: 'r' });
    const a = appendRecords(run, [rec(1), rec(2)], []);
    expect(run.points).toEqual([]);
    expect(a.points).toEqual([
      { step: 1, level: 3, scalars: { reward: 0.1 } },
      { step: 2, level: 3, scalars: { reward: 0.2 } },
    ]);
    expect(a.histogram).toEqual({ counts: [2], edges: [0, 1] });
    const ev = {
      step: 2,
      level: 3,
      prompts: 4,
      'eval/pass@1_greedy': 1,
      'eval/pass@k': 1,
      'eval/pass@1_sampled': 1,
      k: 2,
      taskMetrics: {},
    };
    const b = appendRecords(a, [rec(3)], [ev]);
    expect(b.points.map((p) => p.step)).toEqual([1, 2, 3]);
    expect(b.evals).toEqual([ev]);
    expect(appendRecords(b, [], [])).toBe(b);
    // a resume from step 1 re-trains step 2 on: the old points from there are replaced
    const resumed = appendRecords(truncateRun(b, 1), [rec(2, 0.9)], []);
    expect(resumed.points.map((p) => [p.step, p.scalars.reward])).toEqual([
      [1, 0.1],
      [2, 0.9],
    ]);
    expect(truncateRun(b, 1).evals).toEqual([]);
  });
});
