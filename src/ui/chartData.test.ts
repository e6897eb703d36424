import { describe, expect, it } from 'vitest';
import { presetConfig } from '../config';
import { makeRun, type MetricPoint, type RunRecord } from '../store/runs';
import { chartSeries, evalSeries, histogramBars, passAtKKey, RUN_COLORS, runColor, scalarSeries, stackedRows, taskMetricKeys } from './chartData';

function run(name: string, points: MetricPoint[]): RunRecord {
  return { ...makeRun([], presetConfig('sort-easy'), 'sort-easy', { id: name, now: 0 }), name, points };
}

const pts = (n: number, f: (i: number) => Record<string, number>): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, level: 3, scalars: f(i) }));

describe('chart data', () => {
  it('scalarSeries takes one scalar per step and skips steps without it; level comes from the point', () => {
    const r = run('#1', [
      { step: 1, level: 2, scalars: { reward: 0.1 } },
      { step: 2, level: 2, scalars: {} },
      { step: 3, level: 3, scalars: { reward: 0.3 } },
    ]);
    expect(scalarSeries(r, 'reward')).toEqual([{ x: 1, y: 0.1 }, { x: 3, y: 0.3 }]);
    expect(scalarSeries(r, 'level')).toEqual([{ x: 1, y: 2 }, { x: 2, y: 2 }, { x: 3, y: 3 }]);
  });

  it('one run: a colour per metric, plain names; several runs: a colour per run, a dash per metric', () => {
    const a = run('#1', pts(5, (i) => ({ reward: i, 'pass@1': i / 2 })));
    const b = run('#2', pts(5, (i) => ({ reward: -i, 'pass@1': 0 })));
    const single = chartSeries([a], ['reward', 'pass@1']);
    expect(single.map((s) => [s.name, s.color, s.dash])).toEqual([['reward', RUN_COLORS[0], ''], ['pass@1', RUN_COLORS[1], '']]);
    const both = chartSeries([a, b], ['reward', 'pass@1']);
    expect(both.map((s) => s.name)).toEqual(['#1 reward', '#1 pass@1', '#2 reward', '#2 pass@1']);
    expect(both.map((s) => s.color)).toEqual([runColor(a), runColor(a), runColor(b), runColor(b)]);
    expect(new Set(both.map((s) => s.dash)).size).toBe(2);
    expect(runColor(b)).not.toBe(runColor(a));
  });

  it('series are downsampled to the budget and a metric missing everywhere gives no series', () => {
    const long = run('#1', pts(5000, (i) => ({ reward: Math.sin(i) })));
    const [s] = chartSeries([long], ['reward'], 300);
    expect(s.points.length).toBeLessThanOrEqual(300);
    expect(chartSeries([long], ['kl'])).toEqual([]);
  });

  it('finds the task metrics of the runs, sorted', () => {
    const a = run('#1', pts(2, () => ({ reward: 1, 'task/b': 1 })));
    const b = run('#2', pts(2, () => ({ 'task/a': 1, 'task/b': 2 })));
    expect(taskMetricKeys([a, b])).toEqual(['task/a', 'task/b']);
    expect(taskMetricKeys([])).toEqual([]);
  });

  it('evals, pass@k key, histogram bars, stacked rows', () => {
    const r = run('#1', pts(3, (i) => ({ 'time/a': i, 'time/b': 1 })));
    r.evals = [{ step: 2, level: 3, prompts: 4, 'eval/pass@1_greedy': 0.5, 'eval/pass@k': 0.75, 'eval/pass@1_sampled': 0.4, k: 4, taskMetrics: {} }];
    expect(evalSeries(r, 'eval/pass@k')).toEqual([{ x: 2, y: 0.75 }]);
    expect(passAtKKey(8, 4)).toBe('pass@4');
    expect(passAtKKey(8, 1)).toBe('pass@2');
    expect(passAtKKey(1, 8)).toBe('pass@1');
    expect(histogramBars({ counts: [1, 2], edges: [-1, 0, 1] })).toEqual([{ x: -0.5, count: 1 }, { x: 0.5, count: 2 }]);
    expect(histogramBars(undefined)).toEqual([]);
    expect(stackedRows(r, ['time/a', 'time/b'])).toEqual([
      { x: 1, 'time/a': 0, 'time/b': 1 },
      { x: 2, 'time/a': 1, 'time/b': 1 },
      { x: 3, 'time/a': 2, 'time/b': 1 },
    ]);
  });
});
