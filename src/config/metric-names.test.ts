import { describe, expect, it } from 'vitest';
import { countsAnswers, latestTaskMetrics, metricSpec, taskChartMetrics } from './metric-names';
import { defaultMetricRange } from '../ablation/curves';

describe("a task metric's spec decides where it is drawn", () => {
  it('the chart draws the charted ones (and any no task documents), not the alternatives kept for the CSV', () => {
    const groupmul = ['reward', 'task/cot_alignment_prefix', 'task/cot_alignment_suffix'];
    expect(taskChartMetrics(groupmul)).toEqual(['task/cot_alignment_prefix']);
    const maze = [
      'task/wall_or_edge',
      'task/distinct_correct_paths',
      'task/shortest_simpson',
      'task/shortest_fraction',
    ];
    expect(taskChartMetrics(maze)).toEqual(['task/shortest_fraction']);
    expect(taskChartMetrics(['task/undocumented', 'task/undocumented'])).toEqual(['task/undocumented']);
  });

  it('the latest numbers show the charted metrics a task documents', () => {
    expect(
      latestTaskMetrics([
        'task/shortest_simpson',
        'task/distinct_correct_paths',
        'task/shortest_fraction',
        'task/undocumented',
      ]),
    ).toEqual(['task/shortest_fraction']);
  });

  it('a count of answers gets its own axis; shares and held-out shares are cut to [0, 1]', () => {
    expect(countsAnswers(['task/distinct_correct_paths'])).toBe(true);
    expect(countsAnswers(['task/cot_alignment_prefix'])).toBe(false);
    expect(metricSpec('eval/task/cot_alignment_prefix')).toBe(metricSpec('task/cot_alignment_prefix'));
    expect(defaultMetricRange('eval/task/cot_alignment_prefix')).toEqual({ min: 0, max: 1 });
    expect(defaultMetricRange('eval/task/shortest_fraction')).toEqual({ min: 0, max: 1 });
    expect(defaultMetricRange('task/distinct_correct_paths')).toBeNull();
  });
});
