// How the page draws each chart of CHART_LIST (src/lessons/charts.ts): which component, on which
// axis, and when it matters. Axes have the quantity's natural range where it has one (rates
// [0, 1], entropy [0, ln V], the curriculum's levels), so a flat series looks flat and a rise is
// a real rise.

import { getTask } from '../../tasks/registry';
import { metricName, modelConfigOf, taskParamsOf, type RunConfig } from '../../config';
import { CHART_IDS, CHART_INFO, type ChartId, type ChartInfo } from '../../lessons';
export { levelRange } from '../../config';

/** How a chart's y range is chosen. */
export type YRange =
  /** [0, 1]: rates and shares. */
  | { kind: 'unit' }
  /** [0, ln V] for the run's vocabulary size V. */
  | { kind: 'entropy' }
  /** The curriculum's levels, integer ticks. */
  | { kind: 'level' }
  /** [0, the answer region's length] in tokens. */
  | { kind: 'length' }
  /** From the data, padded: never narrower than minSpan (a near-constant series stays flat). */
  | { kind: 'padded'; floor?: number; ceil?: number; minSpan: number };

/** How the page draws one chart of CHART_LIST (its id, title and metrics are the list's). */
export interface ChartView {
  /** The component: lines (Plot.tsx) or the advantage histogram (HistogramPlot.tsx). */
  plot: 'lines' | 'histogram';
  yLabel: string;
  range: YRange;
  /** Shown in the engineering fold rather than with the learning charts. */
  engineering?: boolean;
  /** Whether the chart means anything for this config (an inactive one goes to the fold). */
  active?(config: RunConfig): boolean;
}

/** A chart whole: its row of CHART_LIST and how the page draws it. */
export type ChartSpec = ChartInfo & ChartView & { id: ChartId };

const unit: YRange = { kind: 'unit' };

/** One entry per chart id: a chart of the list without one here is a type error. */
export const CHART_VIEWS: Record<ChartId, ChartView> = {
  reward: { plot: 'lines', yLabel: 'reward (0–1)', range: unit },
  entropy: { plot: 'lines', yLabel: 'entropy (nats/token)', range: { kind: 'entropy' } },
  advantages: { plot: 'histogram', yLabel: 'tokens', range: unit },
  groups: { plot: 'lines', yLabel: 'share of groups (0–1)', range: unit },
  level: { plot: 'lines', yLabel: 'level', range: { kind: 'level' }, active: (c) => c.curriculum !== 'off' },
  task: {
    plot: 'lines',
    yLabel: 'share (0–1)',
    range: unit,
    // Group metrics exist for some tasks only, and the task may have none to draw at its parameters.
    active: (c) => {
      const task = getTask(c.task);
      return task.groupMetrics !== undefined && (task.display.hasTaskChart?.(taskParamsOf(c)) ?? true);
    },
  },
  verifier: {
    plot: 'lines',
    yLabel: 'share of answers (0–1)',
    range: unit,
    // Only where the verifier passes answers that are not right; elsewhere the two lines are one.
    active: (c) => getTask(c.task).display.proxyVerifier?.(taskParamsOf(c)) ?? false,
  },
  consensus: {
    plot: 'lines',
    yLabel: 'share (0–1)',
    range: unit,
    // The consensus rate exists only under the label-free reward.
    active: (c) => c.rewardSource === 'consensus',
  },
  alpha: {
    plot: 'lines',
    yLabel: 'α',
    range: { kind: 'padded', floor: 0, minSpan: 0.05 },
    active: (c) => c.entropyAlpha > 0 || (c.entropyTarget > 0 && c.entropyAlphaStep > 0),
  },
  length: {
    plot: 'lines',
    yLabel: 'tokens',
    range: { kind: 'length' },
    // Idle where the environment writes the end: every answer has the same length.
    active: (c) => !getTask(c.task).display.fixedLength,
  },
  clip: {
    plot: 'lines',
    yLabel: 'share of tokens (0–1)',
    range: unit,
    // With one epoch and one minibatch the ratio is exactly 1: nothing is ever clipped.
    active: (c) => c.epochs > 1 || c.minibatches > 1,
  },
  kl: {
    plot: 'lines',
    yLabel: 'KL (nats/token)',
    range: { kind: 'padded', floor: 0, minSpan: 0.01 },
    active: (c) => c.klBeta > 0,
  },
  'grad-norm': {
    plot: 'lines',
    yLabel: 'L2 norm',
    range: { kind: 'padded', floor: 0, minSpan: 0.1 },
    engineering: true,
  },
  loss: { plot: 'lines', yLabel: 'loss', range: { kind: 'padded', minSpan: 0.1 }, engineering: true },
  throughput: {
    plot: 'lines',
    yLabel: 'sampled tokens/s',
    range: { kind: 'padded', floor: 0, minSpan: 10 },
    engineering: true,
  },
  time: { plot: 'lines', yLabel: 'ms', range: { kind: 'padded', floor: 0, minSpan: 10 }, engineering: true },
};

/** The chart `id`: its list row and its view. */
export function chartSpec(id: ChartId): ChartSpec {
  return { ...CHART_INFO[id], ...CHART_VIEWS[id], id };
}

/** The legend name of a key in a chart ("sample" rather than "time/sample_ms" in the time split). */
export function seriesName(key: string): string {
  const m = /^time\/(\w+)_ms$/.exec(key);
  return m ? m[1] : metricName(key);
}

/** The charts of the dashboard in order: learning charts, then the fold (engineering, or off in this config). */
export function dashboardCharts(config: RunConfig): { main: ChartId[]; fold: ChartId[] } {
  const main: ChartId[] = [];
  const fold: ChartId[] = [];
  for (const id of CHART_IDS) {
    const spec = CHART_VIEWS[id];
    const on = !spec.engineering && (spec.active?.(config) ?? true);
    (on ? main : fold).push(id);
  }
  return { main, fold };
}

/** ln V: the entropy of a uniform guess over the run's vocabulary (the top of the entropy axis). */
export function maxEntropy(config: RunConfig): number {
  return Math.log(Math.max(2, modelConfigOf(config).vocabSize));
}

/** The answer region's length in tokens, at the curriculum's end (the longest). */
export function answerLength(config: RunConfig): number {
  return getTask(config.task).shape(taskParamsOf(config)).completionLength;
}
