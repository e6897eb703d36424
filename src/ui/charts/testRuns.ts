// What the chart tests share: a run record of given points, points of a made-up metric, and a
// lesson's recorded runs.

import { type RunConfig } from '../../config';
import { presetConfig } from '../../lessons';
import { makeRun, type MetricPoint, type RunRecord } from '../../store/kept-runs';

/** A run named `name` with `points` (a sort-easy run unless `config` says otherwise). */
export function run(
  name: string,
  points: MetricPoint[],
  config: RunConfig = presetConfig('sort-easy'),
  label = 'sort-easy',
): RunRecord {
  return { ...makeRun([], config, 'sort-easy', { id: name, now: 0 }), name, label, points };
}

/** Steps 1…n with the scalars f(i) (i from 0) at level level(). */
export const pts = (n: number, f: (i: number) => Record<string, number>, level = () => 3): MetricPoint[] =>
  Array.from({ length: n }, (_, i) => ({ step: i + 1, level: level(), scalars: f(i) }));

/** A lesson's recorded runs (its reference): one run, seed 0, with `reward` as [step, value] pairs and `more` of its fields. */
export const recordedRuns = (preset: string, reward: [number, number][], more: object = {}) => ({
  preset,
  source: 'test',
  runs: [{ seed: 0, reward, ...more }],
});
