// The charts the page can draw: one row each, in the dashboard's order. The lessons name their
// charts and point their guide steps at them by these ids, the CLI condenses recorded runs to the
// metrics they draw, docs/charts.md's table is generated from them (charts-doc.ts), and the page
// keys its drawing of each (src/ui/charts/catalog.ts) by the same ids. Adding a chart is one row
// here and one entry there: docs/add-a-chart.md.

export interface ChartInfo {
  readonly id: string;
  /** The chart's caption on the page. */
  readonly title: string;
  /**
   * The run metrics it draws as lines (metrics.jsonl keys). The task chart draws the task's own
   * metrics (task/…), whichever the task reports, the advantages chart a histogram: neither has fixed keys.
   */
  readonly metrics: readonly string[];
  /** What it shows, one line (docs/charts.md). */
  readonly meaning: string;
}

export const CHART_LIST = [
  {
    id: 'reward',
    title: 'Reward',
    metrics: ['reward', 'pass@1'],
    meaning: "Mean reward of the step's sampled answers and the share fully right: what the run is judged by.",
  },
  {
    id: 'entropy',
    title: 'Entropy',
    metrics: ['entropy'],
    meaning: "How spread the policy's next token is, from ln V (a uniform guess) to 0 (certain): exploration left.",
  },
  {
    id: 'advantages',
    title: 'Advantages this step',
    metrics: [],
    meaning: "Histogram of the step's token advantages: what the update pushes up (> 0) and down (< 0).",
  },
  {
    id: 'groups',
    title: 'Groups that teach nothing',
    metrics: ['frac_reward_zero_std', 'frac_all_wrong', 'frac_all_correct'],
    meaning: 'Share of groups whose answers all got the same reward (all wrong, all right): their advantages are 0.',
  },
  {
    id: 'level',
    title: 'Curriculum level',
    metrics: ['level'],
    meaning: 'The task difficulty the curriculum has reached (with a curriculum on).',
  },
  {
    id: 'task',
    title: 'Task metrics',
    metrics: [],
    meaning:
      "The task's own metrics (e.g. how evenly a maze's shortest walks spread over its shortest paths), where the task reports some.",
  },
  {
    id: 'verifier',
    title: 'Verifier against the truth',
    // The first is what an overlay of several runs draws.
    metrics: ['task/true_pass', 'pass@1'],
    meaning: "The verifier's pass rate against the true (exact) pass rate, where the verifier accepts wrong answers.",
  },
  {
    id: 'consensus',
    title: 'Right, or only agreed?',
    metrics: ['pass@1', 'consensus_rate'],
    meaning:
      'Pass@1 by the verifier against the share of a group agreeing with its majority answer (the label-free consensus reward).',
  },
  {
    id: 'alpha',
    title: 'Entropy weight α',
    metrics: ['entropy_alpha'],
    meaning: 'Weight of the entropy bonus in the loss; it moves when the bonus adapts to a target entropy.',
  },
  {
    id: 'length',
    title: 'Answer length',
    metrics: ['completions/mean_length'],
    meaning: 'Mean tokens in an answer (idle where the environment ends every answer at the same length).',
  },
  {
    id: 'clip',
    title: 'Clipped tokens',
    metrics: ['clip_ratio/high_mean', 'clip_ratio/low_mean'],
    meaning: 'Share of trained tokens whose ratio the clip cut, above and below (only with several passes a step).',
  },
  {
    id: 'kl',
    title: 'KL to the reference',
    metrics: ['kl'],
    meaning: 'How far the policy has moved from its frozen reference (with a KL penalty on).',
  },
  {
    id: 'grad-norm',
    title: 'Gradient norm (before clipping)',
    metrics: ['grad_norm'],
    meaning: 'Global L2 norm of the gradient before clipping: 0 when no group teaches anything, spikes before trouble.',
  },
  {
    id: 'loss',
    title: 'Loss',
    metrics: ['loss'],
    meaning: 'The surrogate loss the update minimised; in RL its level says little about progress.',
  },
  {
    id: 'throughput',
    title: 'Throughput',
    metrics: ['tokens_per_s'],
    meaning: 'Tokens sampled per second in the sample phase.',
  },
  {
    id: 'time',
    title: 'Time per step',
    metrics: ['time/sample_ms', 'time/verify_ms', 'time/advantages_ms', 'time/update_ms'],
    meaning: "Wall time of each of the step's phases: sample, verify, advantages, update.",
  },
] as const satisfies readonly ChartInfo[];

export type ChartId = (typeof CHART_LIST)[number]['id'];

/** The chart ids in the dashboard's order. */
export const CHART_IDS: readonly ChartId[] = CHART_LIST.map((c) => c.id);

/** Each chart's row, by id. */
export const CHART_INFO: Readonly<Record<ChartId, ChartInfo>> = Object.fromEntries(
  CHART_LIST.map((c): [ChartId, ChartInfo] => [c.id, c]),
) as Record<ChartId, ChartInfo>;

/** Charts for a config without a preset. */
export const DEFAULT_CHARTS: readonly ChartId[] = ['reward', 'entropy', 'groups', 'advantages'];
