// The metrics a run records, each with ONE display name used everywhere a person reads it:
// chart titles and legends, the latest-numbers strip, the rollout views and the lesson guides.
// The key is the stable machine name: the column of the CSV export and the field of
// metrics.jsonl (TRL's names; src/rl/step-metrics.ts maps them to verl's). Tooltips show both.
// A task's own metrics (task/<key>) are its folder's (Task.metrics).

import { TASK_NAMES, TASKS } from '../tasks/registry';
import type { MetricSpec } from '../tasks/types';

export type { MetricSpec } from '../tasks/types';

/** Every task's own metrics, as a run records them (task/<key>), in registry order. */
function taskMetrics(): Record<string, MetricSpec> {
  const out: Record<string, MetricSpec> = {};
  for (const name of TASK_NAMES)
    for (const [key, spec] of Object.entries(TASKS[name].metrics ?? {})) out[`task/${key}`] = spec;
  return out;
}

export const METRICS: Readonly<Record<string, MetricSpec>> = {
  reward: {
    name: 'reward',
    unit: '0–1',
    doc: "Mean reward of the step's answers, as the verifier gave it (partial credit included).",
  },
  'pass@1': { name: 'pass@1', unit: '0–1', doc: "Share of the step's sampled answers that are fully right." },
  consensus_rate: {
    name: 'consensus rate',
    unit: '0–1',
    doc: "With rewardSource = consensus: share of a group's answers that agree with its majority answer, averaged over the groups (1: every group unanimous, right or wrong).",
  },
  'eval/pass@1_greedy': {
    name: 'held-out pass@1',
    unit: '0–1',
    doc: 'Share of fresh, never-trained prompts answered right by the most likely answer (greedy decoding).',
  },
  'eval/pass@k': {
    name: 'held-out pass@k',
    unit: '0–1',
    doc: 'Chance that at least one of k sampled answers to a fresh prompt is right (unbiased estimator).',
  },
  entropy: {
    name: 'entropy',
    unit: 'nats/token',
    doc: "How spread out the policy's next-token distribution is, averaged over the sampled tokens: ln V for a uniform guess, 0 for a certain one.",
  },
  entropy_alpha: {
    name: 'entropy weight α',
    doc: 'Weight of the entropy bonus in the loss; it moves when the bonus is adaptive.',
  },
  frac_reward_zero_std: {
    name: 'groups with no spread',
    unit: '0–1',
    doc: 'Share of groups whose answers all got the same reward: their advantages are all 0, so they teach nothing.',
  },
  frac_all_correct: { name: 'groups all right', unit: '0–1', doc: 'Share of groups in which every answer is right.' },
  frac_all_wrong: { name: 'groups all wrong', unit: '0–1', doc: 'Share of groups in which every answer is wrong.' },
  kl: {
    name: 'KL to reference',
    unit: 'nats/token',
    doc: 'How far the policy has moved from its frozen reference (k1 or k3 estimate); 0 without a reference.',
  },
  'clip_ratio/low_mean': {
    name: 'clipped below',
    unit: '0–1',
    doc: 'Share of trained tokens whose ratio π/π_old fell under 1 − ε_low with a negative advantage (the clip cut the update).',
  },
  'clip_ratio/high_mean': {
    name: 'clipped above',
    unit: '0–1',
    doc: 'Share of trained tokens whose ratio rose over 1 + ε_high with a positive advantage (the clip cut the update).',
  },
  grad_norm: { name: 'gradient norm', doc: 'Global L2 norm of the gradient before clipping.' },
  loss: {
    name: 'loss',
    doc: 'The surrogate loss the update minimised (policy gradient, KL and entropy terms together).',
  },
  'completions/mean_length': {
    name: 'answer length',
    unit: 'tokens',
    doc: 'Mean number of tokens in an answer (up to and including its end token).',
  },
  level: { name: 'curriculum level', doc: 'The task difficulty the curriculum has reached (e.g. the chain length).' },
  ...taskMetrics(),
  tokens_per_s: { name: 'throughput', unit: 'sampled tokens/s', doc: 'Tokens sampled per second in the sample phase.' },
  'time/step_ms': { name: 'time per step', unit: 'ms', doc: 'Wall time of one whole step.' },
  'gpu/dispatches': {
    name: 'GPU dispatches',
    unit: 'per step',
    doc: 'Kernel launches the step asked of the GPU (sampling, training passes, statistics). At these model sizes a real GPU is bound by launches, not by arithmetic.',
  },
  'gpu/submits': {
    name: 'GPU submits',
    unit: 'per step',
    doc: 'queue.submit calls of the step: each is a hand-over of work to the GPU.',
  },
  'gpu/readbacks': {
    name: 'GPU readbacks',
    unit: 'per step',
    doc: 'Times the step waited for the GPU to copy results back (mapAsync).',
  },
  'gpu/bytes_written': {
    name: 'bytes uploaded',
    unit: 'bytes per step',
    doc: 'Bytes the step wrote from the CPU to the GPU (queue.writeBuffer).',
  },
};

/** The display name of a metric; `pass@k` keys and unknown task metrics get a readable default. */
export function metricName(key: string): string {
  const spec = METRICS[key];
  if (spec) return spec.name;
  if (/^pass@\d+$/.test(key)) return key;
  if (key.startsWith('task/')) return key.slice(5).replace(/_/g, ' ');
  return key;
}

/** The hover text of a metric: its doc and its machine name (the CSV column). */
export function metricTitle(key: string): string {
  const spec = METRICS[key];
  return `${spec ? `${spec.doc} ` : ''}(CSV column: ${key})`;
}

/** A metric's spec; a held-out figure (eval/…) has the spec of the step's metric of that name. */
export function metricSpec(key: string): MetricSpec | undefined {
  return METRICS[key] ?? (key.startsWith('eval/') ? METRICS[key.slice(5)] : undefined);
}

/**
 * Of the task metrics a run reports (task/…), those the task chart draws: its spec says
 * (MetricSpec.charted); one no task documents is drawn.
 */
export function taskChartMetrics(keys: readonly string[]): string[] {
  return [...new Set(keys)].filter((k) => k.startsWith('task/') && (METRICS[k]?.charted ?? true)).sort();
}

/** Whether a chart of these metrics counts answers (MetricSpec.scale), rather than shares. */
export function countsAnswers(keys: readonly string[]): boolean {
  return keys.some((k) => METRICS[k]?.scale === 'count');
}

/** Of the task metrics among `keys`, those the latest numbers show: the charted ones a task documents. */
export function latestTaskMetrics(keys: readonly string[]): string[] {
  return taskChartMetrics(keys).filter((k) => k in METRICS);
}
