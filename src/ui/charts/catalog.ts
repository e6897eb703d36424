// Every chart the page can draw: which metrics, on which axis, and when it matters. Axes have
// the quantity's natural range where it has one (rates [0, 1], entropy [0, ln V], the
// curriculum's levels), so a flat series looks flat and a rise is a real rise.

import { getTask } from '../../tasks/registry';
import { metricName, modelConfigOf, taskParamsOf, type RunConfig } from '../../config';
import { CHART_IDS, CHART_METRICS, type ChartId } from '../../lessons';
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

export interface ChartSpec {
  id: ChartId;
  title: string;
  yLabel: string;
  /** Metrics drawn for one run; with several runs only the first (colour = run). */
  keys: readonly string[];
  range: YRange;
  /** Shown in the engineering fold rather than with the learning charts. */
  engineering?: boolean;
  /** Whether the chart means anything for this config (an inactive one goes to the fold). */
  active?(config: RunConfig): boolean;
}

const unit: YRange = { kind: 'unit' };

export const CHARTS: Record<ChartId, ChartSpec> = {
  reward: { id: 'reward', title: 'Reward', yLabel: 'reward (0–1)', keys: CHART_METRICS.reward, range: unit },
  entropy: {
    id: 'entropy',
    title: 'Entropy',
    yLabel: 'entropy (nats/token)',
    keys: CHART_METRICS.entropy,
    range: { kind: 'entropy' },
  },
  advantages: {
    id: 'advantages',
    title: 'Advantages this step',
    yLabel: 'tokens',
    keys: CHART_METRICS.advantages,
    range: unit,
  },
  groups: {
    id: 'groups',
    title: 'Groups that teach nothing',
    yLabel: 'share of groups (0–1)',
    keys: CHART_METRICS.groups,
    range: unit,
  },
  level: {
    id: 'level',
    title: 'Curriculum level',
    yLabel: 'level',
    keys: CHART_METRICS.level,
    range: { kind: 'level' },
    active: (c) => c.curriculum !== 'off',
  },
  task: {
    id: 'task',
    title: 'Task metrics',
    yLabel: 'share (0–1)',
    keys: CHART_METRICS.task,
    range: unit,
    // Group metrics exist for some tasks only, and the task may have none to draw at its parameters.
    active: (c) => {
      const task = getTask(c.task);
      return task.groupMetrics !== undefined && (task.display.hasTaskChart?.(taskParamsOf(c)) ?? true);
    },
  },
  consensus: {
    id: 'consensus',
    title: 'Right, or only agreed?',
    yLabel: 'share (0–1)',
    keys: CHART_METRICS.consensus,
    range: unit,
    // The consensus rate exists only under the label-free reward.
    active: (c) => c.rewardSource === 'consensus',
  },
  alpha: {
    id: 'alpha',
    title: 'Entropy weight α',
    yLabel: 'α',
    keys: CHART_METRICS.alpha,
    range: { kind: 'padded', floor: 0, minSpan: 0.05 },
    active: (c) => c.entropyAlpha > 0 || (c.entropyTarget > 0 && c.entropyAlphaStep > 0),
  },
  length: {
    id: 'length',
    title: 'Answer length',
    yLabel: 'tokens',
    keys: CHART_METRICS.length,
    range: { kind: 'length' },
    // Idle where the environment writes the end: every answer has the same length.
    active: (c) => !getTask(c.task).display.fixedLength,
  },
  clip: {
    id: 'clip',
    title: 'Clipped tokens',
    yLabel: 'share of tokens (0–1)',
    keys: CHART_METRICS.clip,
    range: unit,
    // With one epoch and one minibatch the ratio is exactly 1: nothing is ever clipped.
    active: (c) => c.epochs > 1 || c.minibatches > 1,
  },
  kl: {
    id: 'kl',
    title: 'KL to the reference',
    yLabel: 'KL (nats/token)',
    keys: CHART_METRICS.kl,
    range: { kind: 'padded', floor: 0, minSpan: 0.01 },
    active: (c) => c.klBeta > 0,
  },
  'grad-norm': {
    id: 'grad-norm',
    title: 'Gradient norm (before clipping)',
    yLabel: 'L2 norm',
    keys: CHART_METRICS['grad-norm'],
    range: { kind: 'padded', floor: 0, minSpan: 0.1 },
    engineering: true,
  },
  loss: {
    id: 'loss',
    title: 'Loss',
    yLabel: 'loss',
    keys: CHART_METRICS.loss,
    range: { kind: 'padded', minSpan: 0.1 },
    engineering: true,
  },
  throughput: {
    id: 'throughput',
    title: 'Throughput',
    yLabel: 'sampled tokens/s',
    keys: CHART_METRICS.throughput,
    range: { kind: 'padded', floor: 0, minSpan: 10 },
    engineering: true,
  },
  time: {
    id: 'time',
    title: 'Time per step',
    yLabel: 'ms',
    keys: CHART_METRICS.time,
    range: { kind: 'padded', floor: 0, minSpan: 10 },
    engineering: true,
  },
};

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
    const spec = CHARTS[id];
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
