// What the charts draw: fixed ranges, one colour per run, identical series merged, the chance
// line, curriculum markers, the overlay mode.

import { describe, expect, it } from 'vitest';
import { presetConfig, type RunConfig } from '../../config';
import { makeRun, type MetricPoint, type RunRecord } from '../../store/runs';
import { dashboardCharts, levelRange, maxEntropy } from './catalog';
import {
  chartModel,
  evalSeries,
  levelAdvances,
  RUN_COLORS,
  runColor,
  scalarSeries,
  taskMetricKeys,
  xDomainOf,
} from './model';

function run(
  name: string,
  points: MetricPoint[],
  config: RunConfig = presetConfig('sort-easy'),
  label = 'sort-easy',
): RunRecord {
  return { ...makeRun([], config, 'sort-easy', { id: name, now: 0 }), name, label, points };
}

const pts = (n: number, f: (i: number) => Record<string, number>, level = () => 3): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, level: level(), scalars: f(i) }));

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
    expect(
      xDomainOf([
        run(
          '#1',
          pts(151, () => ({})),
          open,
        ),
      ]),
    ).toEqual([0, 200]);
    expect(
      xDomainOf([
        run(
          '#1',
          pts(3, () => ({})),
          open,
        ),
      ]),
    ).toEqual([0, 10]);
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
    const reference = {
      preset: 'cot-discovery',
      source: 'test',
      runs: [
        {
          seed: 0,
          reward: [
            [1, 0.2],
            [400, 0.5],
            [800, 0.9],
          ] as [number, number][],
        },
      ],
    };
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

  it('reference runs are drawn faint under a single run, not in comparisons', () => {
    const reference = {
      preset: 'sort-easy',
      source: 'test',
      runs: [
        {
          seed: 0,
          reward: [
            [1, 0.2],
            [2, 0.4],
          ] as [number, number][],
        },
      ],
    };
    const a = run(
      '#1',
      pts(2, () => ({ reward: 0.3 })),
    );
    const ref = chartModel('reward', [a], { reference }).series.find((s) => s.id === 'reference:0')!;
    expect(ref.opacity).toBeLessThan(0.5);
    expect(
      chartModel(
        'reward',
        [
          a,
          run(
            '#2',
            pts(2, () => ({ reward: 0.1 })),
          ),
        ],
        { reference },
      ).series.some((s) => s.id.startsWith('reference')),
    ).toBe(false);
  });

  it("a jump: before its first step the recorded runs are drawn to the loaded step, faint after it, the model's own run marked", () => {
    const config = { ...presetConfig('cot-discovery'), seed: 1 };
    const reference = {
      preset: 'cot-discovery',
      source: 'test',
      runs: [0, 1].map((seed) => ({
        seed,
        reward: [
          [1, 0.1],
          [400, 0.5],
          [800, 0.8],
          [900, 0.95],
        ] as [number, number][],
      })),
    };
    const model = chartModel('reward', [], {
      reference,
      pending: config,
      fromZero: true,
      jump: { step: 800, seed: 1 },
    });
    expect(model.points).toBe(0);
    expect(model.recorded).toBe(4);
    expect(model.xDomain).toEqual([0, config.steps]);
    const own = model.series.find((s) => s.id === 'own:reference:1')!;
    expect(own.points.map((p) => p.x)).toEqual([1, 400, 800]);
    expect(own.opacity).toBeGreaterThan(0.5);
    expect(model.series.find((s) => s.id === 'history:reference:0')!.points.map((p) => p.x)).toEqual([1, 400, 800]);
    // The rest of each run, faint, from the loaded step on (joined to its history).
    expect(
      model.series
        .filter((s) => s.id.startsWith('reference:'))
        .map((s) => [s.points.map((p) => p.x), s.opacity! < 0.5]),
    ).toEqual([
      [[800, 900], true],
      [[800, 900], true],
    ]);
    // Drawn last, so on top.
    expect(model.series.at(-1)!.id).toBe('own:reference:1');
    expect(model.legend.map((l) => l.label)).toEqual(
      expect.arrayContaining(['recorded runs to step 800', "this model's run"]),
    );
    expect(model.note).toBeUndefined();
    // A model whose seed has no recorded run: the others are still drawn, and one line says so.
    const other = chartModel('reward', [], {
      reference,
      pending: config,
      fromZero: true,
      jump: { step: 800, seed: 7 },
    });
    expect(other.series.some((s) => s.id.startsWith('own:'))).toBe(false);
    expect(other.note).toBe('no recorded run of this model (seed 7) here');
    // No recorded runs at all.
    expect(chartModel('reward', [], { pending: config, jump: { step: 800, seed: 1 } }).note).toBe(
      'no recorded run of this model',
    );
    // A base model (step 0): every run starts from it, none is its own, all faint.
    const base = chartModel('reward', [], { reference, pending: config, fromZero: true, jump: { step: 0, seed: 1 } });
    expect(base.series.filter((s) => s.id.startsWith('reference:')).every((s) => s.opacity! < 0.5)).toBe(true);
    expect(base.note).toBeUndefined();
  });

  it('the level chart draws the recorded runs as staircases from the first level, so a jump-ahead is not a lone dot', () => {
    const config = presetConfig('cot-discovery');
    const reference = {
      preset: 'cot-discovery',
      source: 'test',
      runs: [
        {
          seed: 0,
          reward: [
            [1, 0.2],
            [900, 0.9],
          ] as [number, number][],
          advances: [
            [40, 2],
            [300, 3],
          ] as [number, number][],
        },
      ],
    };
    const loaded = run(
      '#1',
      pts(
        1,
        () => ({ reward: 0.9 }),
        () => 3,
      ).map((p) => ({ ...p, step: 800 })),
      config,
    );
    const model = chartModel('level', [loaded], { reference, fromZero: true });
    const stairs = model.series.find((s) => s.id === 'reference:0')!;
    expect(stairs.kind).toBe('step');
    expect(stairs.points).toEqual([
      { x: 0, y: levelRange(config)[0] },
      { x: 40, y: 2 },
      { x: 300, y: 3 },
      { x: 900, y: 3 },
    ]);
    expect(model.legend.some((l) => l.label === 'recorded runs (1)')).toBe(true);
    // A file without advances (a run that never went up) is a flat line at the first level.
    const flat = chartModel('level', [loaded], {
      reference: {
        ...reference,
        runs: [
          {
            seed: 1,
            reward: [
              [1, 0.1],
              [50, 0.2],
            ] as [number, number][],
          },
        ],
      },
    });
    expect(flat.series.find((s) => s.id === 'reference:1')!.points).toEqual([
      { x: 0, y: 1 },
      { x: 50, y: 1 },
    ]);
  });

  it("the other charts draw the recorded runs' curves of their metrics, faint and dashed as the live line, not in comparisons", () => {
    const config = presetConfig('cot-discovery');
    const reference = {
      preset: 'cot-discovery',
      source: 'test',
      runs: [
        {
          seed: 0,
          reward: [
            [1, 0.2],
            [900, 0.9],
          ] as [number, number][],
          series: {
            entropy: [
              [1, 1.7],
              [900, 0.4],
            ] as [number, number][],
            'task/cot_alignment_prefix': [
              [1, 0.1],
              [900, 1],
            ] as [number, number][],
          },
        },
      ],
    };
    const loaded = run(
      '#1',
      pts(1, () => ({ reward: 0.9, entropy: 0.4 })).map((p) => ({ ...p, step: 800 })),
      config,
    );
    const entropy = chartModel('entropy', [loaded], { reference, fromZero: true });
    const recorded = entropy.series.find((s) => s.id === 'reference:0:entropy')!;
    expect(recorded.points).toEqual([
      { x: 1, y: 1.7 },
      { x: 900, y: 0.4 },
    ]);
    expect(recorded.opacity).toBeLessThan(0.5);
    expect(entropy.legend.some((l) => l.label === 'recorded runs (1)')).toBe(true);
    // The task chart is named by the recorded metric before the live run has reported it.
    const task = chartModel('task', [loaded], { reference, fromZero: true });
    expect(task.series.map((s) => s.id)).toEqual(['reference:0:task/cot_alignment_prefix']);
    expect(task.title).toBe('CoT alignment');
    // A chart whose metric the file does not hold draws no recorded line and no legend for it.
    const groups = chartModel('groups', [loaded], { reference });
    expect(groups.series.some((s) => s.id.startsWith('reference'))).toBe(false);
    expect(groups.legend.some((l) => l.label.startsWith('recorded'))).toBe(false);
    // Compared runs are not the lesson's own: no recorded lines.
    const two = chartModel(
      'entropy',
      [
        loaded,
        run(
          '#2',
          pts(2, () => ({ entropy: 1 })),
        ),
      ],
      { reference },
    );
    expect(two.series.some((s) => s.id.startsWith('reference'))).toBe(false);
  });

  it("before any point, a maze lesson's task chart already has the axis of its headline count (answers), not a 0–1 share", () => {
    const empty = chartModel('task', [], { pending: presetConfig('maze-base-rl') });
    expect(empty.title).toBe('Distinct correct paths');
    expect(empty.yLabel).toBe('answers');
    expect(chartModel('task', [], { pending: presetConfig('cot-discovery') }).yLabel).toBe('share (0–1)');
  });

  it('the dashboard folds the engineering charts and those off in this config', () => {
    const { main, fold } = dashboardCharts(presetConfig('sort-easy'));
    expect(main).toEqual(['reward', 'entropy', 'advantages', 'groups', 'length']);
    expect(fold).toEqual(['level', 'task', 'alpha', 'clip', 'kl', 'grad-norm', 'loss', 'throughput', 'time']);
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
