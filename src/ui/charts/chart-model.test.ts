// What the charts draw: fixed ranges, one colour per run, identical series merged, the chance
// line, curriculum markers, the overlay mode. (The lesson's recorded runs: recordedRuns.test.ts.)

import { describe, expect, it } from 'vitest';
import { type RunConfig } from '../../config';
import { CHART_IDS, CHART_INFO, presetConfig } from '../../lessons';
import { pts, recordedRuns, run } from './testRuns';
import { CHART_VIEWS, chartSpec, dashboardCharts, maxEntropy } from './catalog';
import {
  chartModel,
  evalSeries,
  levelAdvances,
  runColor,
  scalarSeries,
  taskMetricKeys,
  xDomainOf,
} from './chart-model';
import { RUN_COLORS } from './palette';

describe('chart data', () => {
  it('scalarSeries takes one scalar per step and skips steps without it; level comes from the point', () => {
    const r = run('#1', [
      { step: 1, level: 2, scalars: { reward: 0.1 } },
      { step: 2, level: 2, scalars: {} },
      { step: 3, level: 3, scalars: { reward: 0.3 } },
    ]);
    expect(scalarSeries(r, 'reward')).toEqual([
      { x: 1, y: 0.1 },
      { x: 3, y: 0.3 },
    ]);
    expect(scalarSeries(r, 'level')).toEqual([
      { x: 1, y: 2 },
      { x: 2, y: 2 },
      { x: 3, y: 3 },
    ]);
    expect(levelAdvances(r)).toEqual([{ step: 3, level: 3 }]);
  });

  it('finds the task metrics of the runs, sorted; eval points', () => {
    const a = run(
      '#1',
      pts(2, () => ({ reward: 1, 'task/b': 1 })),
    );
    const b = run(
      '#2',
      pts(2, () => ({ 'task/a': 1, 'task/b': 2 })),
    );
    expect(taskMetricKeys([a, b])).toEqual(['task/a', 'task/b']);
    expect(taskMetricKeys([])).toEqual([]);
    a.evals = [
      {
        step: 2,
        level: 3,
        prompts: 4,
        k: 2,
        'eval/pass@1_greedy': 0.5,
        'eval/pass@1_sampled': 0.25,
        'eval/pass@k': 0.75,
        taskMetrics: {},
      },
    ];
    expect(evalSeries(a, 'eval/pass@k')).toEqual([{ x: 2, y: 0.75 }]);
  });

  it('held-out pass@1: an unmeasured value is no point (not a 0); before the first measurement the legend says when it comes, and why it can differ from the reward', () => {
    const r = run(
      '#1',
      pts(30, () => ({ reward: 0.75 })),
      { ...presetConfig('sort-easy'), evalEvery: 50 },
    );
    const before = chartModel('reward', [r]);
    expect(before.series.some((s) => s.id.endsWith('eval/pass@1_greedy'))).toBe(false);
    const waiting = before.legend.find((l) => l.label.startsWith('held-out pass@1'))!;
    expect(waiting.label).toBe('held-out pass@1 (a first measurement at step 50)');
    expect(waiting.faint).toBe(true);
    expect(waiting.title).toMatch(/greedy.*every 50 steps.*not 0/);
    r.evals = [
      {
        step: 50,
        level: 1,
        prompts: 4,
        k: 2,
        'eval/pass@1_greedy': null as unknown as number,
        'eval/pass@1_sampled': 0.5,
        'eval/pass@k': 0.75,
        taskMetrics: {},
      },
      {
        step: 100,
        level: 1,
        prompts: 4,
        k: 2,
        'eval/pass@1_greedy': 0,
        'eval/pass@1_sampled': 0.5,
        'eval/pass@k': 0.75,
        taskMetrics: {},
      },
    ];
    expect(evalSeries(r, 'eval/pass@1_greedy')).toEqual([{ x: 100, y: 0 }]);
    const after = chartModel('reward', [r]);
    expect(after.legend.map((l) => l.label)).toContain('held-out pass@1 (a greedy answer, fresh prompts)');
  });
});

describe('chart model', () => {
  it("colour means the run: one run tells its metrics apart by dash, several runs draw only the chart's first metric, labelled by run", () => {
    const a = run(
      '#1',
      pts(5, (i) => ({ reward: i / 10, 'pass@1': i / 20 })),
    );
    const b = run(
      '#2',
      pts(5, (i) => ({ reward: i / 5, 'pass@1': 0 })),
      presetConfig('sort-easy'),
      'ε_high = 0.28',
    );
    const one = chartModel('reward', [a]);
    expect(one.series.map((s) => [s.label, s.color, s.dash])).toEqual([
      ['reward', RUN_COLORS[0], ''],
      ['pass@1', RUN_COLORS[0], '7 4'],
    ]);
    const both = chartModel('reward', [a, b]);
    expect(both.series.map((s) => [s.label, s.color])).toEqual([
      ['#1 sort-easy', runColor(a)],
      ['#2 ε_high = 0.28', runColor(b)],
    ]);
    expect(both.legend.map((l) => l.label)).toEqual(['#1 sort-easy', '#2 ε_high = 0.28']);
    // Two runs of one seed agree step for step: the later one is dashed and thinner, so both show.
    expect(both.series.map((s) => [s.dash, s.width])).toEqual([
      ['', 3.5],
      ['7 4', 2.5],
    ]);
    expect(both.legend.map((l) => l.dash)).toEqual(['', '7 4']);
    // The overlaid groups chart draws one of its three metrics: its title says which.
    const groups = (x: number) => pts(3, () => ({ frac_reward_zero_std: x, frac_all_wrong: x, frac_all_correct: 0 }));
    expect(chartModel('groups', [run('#1', groups(1)), run('#2', groups(0.5))]).title).toBe(
      'Groups that teach nothing: groups with no spread',
    );
    expect(chartModel('groups', [run('#1', groups(1))]).title).toBe('Groups that teach nothing');
    expect(chartModel('reward', [a, b]).title).toBe('Reward');
    expect(runColor(b)).not.toBe(runColor(a));
  });

  it('two metrics equal at every step are drawn once and say so', () => {
    const a = run(
      '#1',
      pts(6, (i) => ({
        reward: i % 2,
        'pass@1': i % 2,
        frac_reward_zero_std: 1,
        frac_all_wrong: 1,
        frac_all_correct: 0,
      })),
    );
    expect(chartModel('reward', [a]).series.map((s) => s.label)).toEqual(['reward (= pass@1)']);
    expect(chartModel('groups', [a]).series.map((s) => s.label)).toEqual([
      'groups with no spread (= groups all wrong)',
      'groups all right',
    ]);
  });

  it("axes keep the quantity's range: rates [0, 1], entropy [0, ln V], levels whole numbers, a constant norm flat", () => {
    const zero = run(
      '#1',
      pts(151, () => ({ reward: 0, 'pass@1': 0, entropy: 2.985, grad_norm: 0 })),
    );
    const reward = chartModel('reward', [zero]);
    expect(reward.yDomain).toEqual([0, 1]);
    expect(reward.xDomain).toEqual([0, 300]); // the step budget
    const entropy = chartModel('entropy', [zero]);
    expect(entropy.yDomain).toEqual([0, maxEntropy(zero.config)]);
    expect(entropy.hLines[0].y).toBeCloseTo(Math.log(7)); // sort-easy: 4 special tokens + 3 letters
    expect(
      chartModel('clip', [
        run(
          '#1',
          pts(3, () => ({ 'clip_ratio/high_mean': 0.01 })),
        ),
      ]).yDomain,
    ).toEqual([0, 1]); // a share of tokens
    const norm = chartModel('grad-norm', [zero]);
    expect(norm.yDomain[0]).toBe(0);
    expect(norm.yDomain[1]).toBeGreaterThanOrEqual(0.1);
    const cot = presetConfig('cot-discovery');
    const levels = chartModel('level', [
      run(
        '#1',
        pts(3, () => ({})),
        cot,
      ),
    ]);
    expect(levels.yDomain).toEqual([1, 6]);
    expect(levels.yInteger).toBe(true);
  });

  it('the step axis is the budget, or a round number past the last step without one', () => {
    const open = { ...presetConfig('sort-easy'), steps: 0 };
    /** The axis of one run with no step budget, `steps` steps in. */
    const openAfter = (steps: number) =>
      xDomainOf([
        run(
          '#1',
          pts(steps, () => ({})),
          open,
        ),
      ]);
    expect(openAfter(151)).toEqual([0, 200]);
    expect(openAfter(3)).toEqual([0, 10]);
    expect(xDomainOf([])).toEqual([0, 10]);
    expect(xDomainOf([], presetConfig('start-here'))).toEqual([0, 300]); // before the first step: the budget of the run to come
    // A run that began at step 751 (a loaded checkpoint) is drawn from there, not lost at the end of 0–1000.
    const loaded = run(
      '#1',
      pts(3, () => ({})).map((p) => ({ ...p, step: p.step + 750 })),
      open,
    );
    expect(xDomainOf([loaded])).toEqual([750, 760]);
    // A lesson's trained model is drawn on the lesson's whole axis, beside the recorded runs that got there.
    const lesson = run(
      '#1',
      pts(3, () => ({ reward: 0.9 })).map((p) => ({ ...p, step: p.step + 800 })),
      presetConfig('cot-discovery'),
    );
    const reference = recordedRuns('cot-discovery', [
      [1, 0.2],
      [400, 0.5],
      [800, 0.9],
    ]);
    const withRecord = chartModel('reward', [lesson], { reference, fromZero: true });
    expect(withRecord.xDomain).toEqual([0, presetConfig('cot-discovery').steps]);
    expect(withRecord.series.find((s) => s.id === 'reference:0')?.points[0]).toEqual({ x: 1, y: 0.2 });
  });

  it('the chance line: flat without a curriculum, a staircase along the levels with one; markers where the level went up', () => {
    const chance = (c: RunConfig, level: number) => (c.curriculum !== 'off' ? 1 / 6 + level / 100 : 0.2);
    const flat = chartModel(
      'reward',
      [
        run(
          '#1',
          pts(4, () => ({ reward: 0.3 })),
        ),
      ],
      { chance },
    );
    expect(flat.hLines).toEqual([expect.objectContaining({ y: 0.2, label: 'chance' })]);
    expect(flat.vLines).toEqual([]);
    let level = 1;
    const cot = run(
      '#1',
      pts(
        6,
        () => ({ reward: 0.5 }),
        () => (level === 3 ? 3 : level++),
      ),
      presetConfig('cot-discovery'),
    );
    const stairs = chartModel('reward', [cot], { chance });
    const line = stairs.series.find((s) => s.id === 'chance')!;
    expect(line.kind).toBe('step');
    expect(line.points.map((p) => p.x)).toEqual([0, 2, 3, 6]);
    expect(stairs.vLines.map((v) => [v.x, v.label])).toEqual([
      [2, 'L2'],
      [3, 'L3'],
    ]);
    // Overlaid runs do not share a curriculum: no markers then.
    expect(
      chartModel(
        'reward',
        [
          cot,
          run(
            '#2',
            pts(6, () => ({ reward: 0.1 })),
          ),
        ],
        { chance },
      ).vLines,
    ).toEqual([]);
  });

  it("before any point, a maze lesson's task chart is already named after its headline, the shortest walks' diversity (a 0–1 share)", () => {
    const empty = chartModel('task', [], { pending: presetConfig('maze-base-rl') });
    expect(empty.title).toBe('Shortest-path share');
    expect(empty.yLabel).toBe('share (0–1)');
    expect(chartModel('task', [], { pending: presetConfig('cot-discovery') }).yLabel).toBe('share (0–1)');
  });

  it("draws every chart of the list: its view is keyed by the list's id, its title and metrics are the list's", () => {
    expect(Object.keys(CHART_VIEWS).sort()).toEqual([...CHART_IDS].sort());
    for (const id of CHART_IDS) {
      const spec = chartSpec(id);
      expect([spec.id, spec.title, spec.metrics]).toEqual([id, CHART_INFO[id].title, CHART_INFO[id].metrics]);
    }
    expect(CHART_IDS.filter((id) => CHART_VIEWS[id].plot === 'histogram')).toEqual(['advantages']);
    expect(chartModel('kl', [run('#1', [])]).title).toBe(CHART_INFO.kl.title);
  });

  it('the dashboard folds the engineering charts and those off in this config', () => {
    const { main, fold } = dashboardCharts(presetConfig('sort-easy'));
    expect(main).toEqual(['reward', 'entropy', 'advantages', 'groups', 'length']);
    expect(fold).toEqual([
      'level',
      'task',
      'verifier',
      'consensus',
      'alpha',
      'clip',
      'kl',
      'grad-norm',
      'loss',
      'throughput',
      'time',
    ]);
    // Its verifier chart is on only where the verifier has a hole.
    expect(dashboardCharts(presetConfig('reward-hacking')).main).toContain('verifier');
    expect(dashboardCharts(presetConfig('cot-discovery')).main).toEqual([
      'reward',
      'entropy',
      'advantages',
      'groups',
      'level',
      'task',
      'alpha',
      'kl',
    ]);
    expect(dashboardCharts(presetConfig('no-cot-room')).main).not.toContain('task');
  });
});
