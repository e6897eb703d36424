// The recorded curves of a suite task: what is kept of each run (evaluations whole, the reward
// averaged down), that the file reads back to the same statistics of the main metric, and that a
// bad file is refused naming its field.

import { describe, expect, it } from 'vitest';
import {
  parseRecordedCurves,
  recordCurves,
  recordedCells,
  RecordedCurvesError,
  RECORDED_CURVES_FORMAT,
  type RecordCurvesInput,
} from './recorded-curves';
import type { AblationCell, SeedRun } from './curves';
import { summarizeAblation } from './summary';

/** A run of `steps` steps: reward rising to `top`, an evaluation every 25 steps reaching 1 at step `solveAt`. */
function run(seed: number, steps: number, top: number, solveAt: number): SeedRun {
  const reward = Array.from({ length: steps }, (_, i) => ({ step: i + 1, value: (top * (i + 1)) / steps, level: 1 }));
  const evals = Array.from({ length: steps / 25 + 1 }, (_, i) => ({
    step: i * 25,
    value: i * 25 >= solveAt ? 1 : (i * 25) / (2 * solveAt),
    level: 1,
  }));
  return { seed, lastStep: steps, series: { reward, 'eval/pass@1_greedy': evals, entropy: reward } };
}

const cells: AblationCell[] = [
  { label: 'GRPO', set: {}, runs: [run(1, 500, 0.9, 300), run(0, 500, 0.95, 250), run(2, 500, 0.9, 275)] },
  { label: 'MaPP', set: { estimator: 'mapp' }, runs: [0, 1, 2].map((s) => run(s, 500, 0.2, 1000)) },
];
const input: RecordCurvesInput = {
  suite: 'methods',
  task: { id: 'sorting', title: 'sorting', preset: 'sort-easy', sets: ['task.length=5'], steps: 500 },
  seeds: [0, 1, 2],
  solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
  metrics: ['eval/pass@1_greedy', 'reward', 'entropy'],
  cells,
  command: 'npm run rlvr -- sweep --suite methods --tasks sorting',
  notes: ['Only GRPO, MaPP (--methods).'],
};

describe('recorded curves', () => {
  it('keeps the main metric and the reward of every run: evaluations whole, the reward averaged down to 100 points', () => {
    const file = recordCurves(input);
    expect(file.format).toBe(RECORDED_CURVES_FORMAT);
    expect(file.metrics).toEqual(['eval/pass@1_greedy', 'reward']);
    expect(file.methods.map((m) => m.label)).toEqual(['GRPO', 'MaPP']);
    expect(file.methods[1].set).toEqual({ estimator: 'mapp' });
    const grpo = file.methods[0];
    expect(grpo.runs.map((r) => r.seed)).toEqual([0, 1, 2]);
    const r0 = grpo.runs[0];
    expect(Object.keys(r0.series).sort()).toEqual(['eval/pass@1_greedy', 'reward']);
    expect(r0.series['eval/pass@1_greedy']).toHaveLength(21);
    expect(r0.series['eval/pass@1_greedy'][10]).toEqual([250, 1]);
    const reward = r0.series.reward;
    expect(reward).toHaveLength(100);
    // First and last points exactly; between them bucket means (steps 2–6 average to step 4).
    expect(reward[0]).toEqual([1, 0.0019]);
    expect(reward.at(-1)).toEqual([500, 0.95]);
    expect(reward[1][0]).toBeCloseTo(4, 5);
    // No level where the solved rule has none: two numbers a point.
    expect(reward.every((p) => p.length === 2)).toBe(true);
  });

  it('keeps the level of each point when "solved" is measured at a level', () => {
    const file = recordCurves({ ...input, solved: { metric: 'eval/pass@1_greedy', target: 0.9, level: 1 } });
    expect(file.methods[0].runs[0].series['eval/pass@1_greedy'][0]).toEqual([0, 0, 1]);
  });

  it('reads the level at 100 evenly spaced steps, the level in force at each, ending on the final level', () => {
    // The trainer logs the level twice a step; it climbs 1 → 2 at step 120 and 2 → 3 at step 498.
    const level = Array.from({ length: 1000 }, (_, i) => {
      const step = 1 + Math.floor(i / 2);
      return { step, value: step >= 498 ? 3 : step >= 120 ? 2 : 1 };
    });
    const withLevel = cells.map((c) => ({ ...c, runs: c.runs.map((r) => ({ ...r, series: { ...r.series, level } })) }));
    const file = recordCurves({
      ...input,
      cells: withLevel,
      metrics: ['level', 'reward'],
      solved: { metric: 'eval/pass@1_greedy', target: 0.9, level: 3 },
    });
    const runs = file.methods.flatMap((m) => m.runs);
    const kept = runs[0].series.level;
    expect(kept).toHaveLength(100);
    // Steps 1 + round(k · 499 / 99): the same in every run, so seeds average point by point.
    expect(kept.slice(0, 3)).toEqual([
      [1, 1],
      [6, 1],
      [11, 1],
    ]);
    expect(kept.find((p) => p[0] >= 120)).toEqual([122, 2]);
    expect(kept.at(-2)).toEqual([495, 2]);
    expect(kept.at(-1)).toEqual([500, 3]);
    expect(runs.every((r) => JSON.stringify(r.series.level) === JSON.stringify(kept))).toBe(true);
    // Only the solved rule's metric carries the level of each point.
    expect(runs[0].series['eval/pass@1_greedy'][0]).toEqual([0, 0, 1]);
    const fromFile = summarizeAblation(recordedCells(parseRecordedCurves(JSON.stringify(file))), {
      metrics: ['level'],
    });
    expect(fromFile.cells[0].finals.level.mean).toBe(3);
  });

  it('reads back to the same steps to solve and final held-out values as the runs themselves', () => {
    const file = parseRecordedCurves(JSON.stringify(recordCurves(input)));
    const options = { metrics: ['eval/pass@1_greedy'], solved: input.solved, compare: 'baseline' as const };
    const fromFile = summarizeAblation(recordedCells(file), options);
    const fromRuns = summarizeAblation(cells, options);
    expect(fromFile.cells.map((c) => c.solve)).toEqual(fromRuns.cells.map((c) => c.solve));
    expect(fromFile.comparisons.map((c) => c.pAdjusted)).toEqual(fromRuns.comparisons.map((c) => c.pAdjusted));
    expect(fromFile.cells[0].finals['eval/pass@1_greedy'].mean).toBe(1);
    // The whole 2 × 3-run file is a few kilobytes: 13 methods × 6 seeds stay far below 300 KB.
    expect(JSON.stringify(file).length).toBeLessThan(10_000);
  });

  it('refuses what is not a recorded-curves file, naming the field', () => {
    const good = recordCurves(input);
    const bad = (patch: (f: Record<string, unknown>) => void) => {
      const f = JSON.parse(JSON.stringify(good)) as Record<string, unknown>;
      patch(f);
      return () => parseRecordedCurves(JSON.stringify(f), 'mine.json');
    };
    expect(() => parseRecordedCurves('{', 'mine.json')).toThrow(/mine\.json: not JSON/);
    expect(bad((f) => (f.format = 'rlvr-playground-ablation'))).toThrow(/format must be "rlvr-leaderboard-curves"/);
    expect(bad((f) => (f.version = 2))).toThrow(/version must be 1, got 2/);
    expect(bad((f) => (f.methods = []))).toThrow(/methods must be a non-empty list/);
    const methods = (f: Record<string, unknown>) =>
      f.methods as { label: string; runs: { series: Record<string, unknown> }[] }[];
    expect(bad((f) => (methods(f)[1].label = 'GRPO'))).toThrow(/methods\[1\]\.label "GRPO" is given twice/);
    expect(bad((f) => (methods(f)[0].runs[1].series.reward = [[1, 'x']]))).toThrow(
      /methods\[0\]\.runs\[1\]\.series\.reward\[0\] must be \[step, value\]/,
    );
    expect(bad((f) => (methods(f)[0].runs[0].series.loss = []))).toThrow(/has "loss", not one of the file's metrics/);
    expect(
      bad(
        (f) =>
          (methods(f)[0].runs[0].series.reward = [
            [5, 1],
            [3, 1],
          ]),
      ),
    ).toThrow(/steps must not decrease/);
    let caught: unknown = null;
    try {
      bad((f) => (f.task = { id: 'sorting', preset: 'sort-easy', steps: 0 }))();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RecordedCurvesError);
    expect((caught as RecordedCurvesError).field).toBe('task.steps');
  });
});
