// What the charts draw of a lesson's recorded runs: faint under a single run, never in a
// comparison, cut at a loaded model's step with its own run marked, staircases on the level
// chart, and the curves of the other charts' metrics.

import { describe, expect, it } from 'vitest';
import { presetConfig } from '../../lessons';
import { pts, recordedRuns, run } from './testRuns';
import { levelRange } from './catalog';
import { chartModel } from './chart-model';

/** Recorded runs of cot-discovery: seed 0's reward from 0.2 at step 1 to 0.9 at step 900, and `more` of that run. */
const cotReference = (more: object) =>
  recordedRuns(
    'cot-discovery',
    [
      [1, 0.2],
      [900, 0.9],
    ],
    more,
  );

describe('chart model', () => {
  it('reference runs are drawn faint under a single run, not in comparisons', () => {
    const reference = recordedRuns('sort-easy', [
      [1, 0.2],
      [2, 0.4],
    ]);
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
    // Runs recorded before a chart's metric existed draw nothing there, and one line says so.
    const task = chartModel('task', [], { reference, pending: config, fromZero: true, jump: { step: 0, seed: 1 } });
    expect(task.recorded).toBe(0);
    expect(task.note).toBe('the recorded runs did not log this metric');
  });

  it('the level chart draws the recorded runs as staircases from the first level, so a jump-ahead is not a lone dot', () => {
    const config = presetConfig('cot-discovery');
    const reference = cotReference({
      advances: [
        [40, 2],
        [300, 3],
      ] as [number, number][],
    });
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
    const reference = cotReference({
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
    });
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
});
