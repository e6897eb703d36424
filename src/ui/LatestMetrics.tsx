// The latest step's headline numbers (exact values in data-value, for tests and copy-paste).

import { useApp } from '../store/store';
import { formatNumber } from './format';
import { latestTaskMetrics, metricName, metricTitle } from '../config';
import { heldOutExplanation } from './charts/chart-model';

/** A measured value, or a dash for one that was not (null after a round trip through JSON). */
const measured = (v: number | null | undefined) => (typeof v === 'number' ? formatNumber(v) : '–');

const SHOWN: { key: string; label: string }[] = [
  'reward',
  'pass@1',
  'entropy',
  'loss',
  'grad_norm',
  'kl',
  'frac_reward_zero_std',
  'completions/mean_length',
  'tokens_per_s',
  'time/step_ms',
].map((key) => ({ key, label: metricName(key) }));

/** The fixed numbers, then the task's own that its specs say are charted (shown for the tasks that report them). */
const shownOf = (scalars: Record<string, number>): { key: string; label: string }[] => [
  ...SHOWN,
  ...latestTaskMetrics(Object.keys(scalars)).map((key) => ({ key, label: metricName(key) })),
];

/**
 * Steps/s of the engine (1000 / the step's wall ms, pauses between steps left out) and, on the
 * GPU, the kernel dispatches and queue submits the step asked for.
 */
function SpeedReadout({ scalars }: { scalars: Record<string, number> }) {
  const ms = scalars['time/step_ms'];
  const dispatches = scalars['gpu/dispatches'];
  const submits = scalars['gpu/submits'];
  if (typeof ms !== 'number' || !(ms > 0)) return null;
  const stepsPerS = 1000 / ms;
  return (
    <div
      title={`Steps per second of the engine alone (the speed setting's pauses left out).${typeof dispatches === 'number' ? ` ${metricTitle('gpu/dispatches')}` : ''}`}
    >
      <dt>speed</dt>
      <dd
        data-testid="latest-speed"
        data-steps-per-s={String(stepsPerS)}
        data-dispatches={typeof dispatches === 'number' ? String(dispatches) : ''}
      >
        {formatNumber(stepsPerS)} steps/s
        {typeof dispatches === 'number' ? ` · ${dispatches} dispatches, ${submits} submits per step` : ''}
      </dd>
    </div>
  );
}

export function LatestMetrics() {
  const last = useApp((s) => {
    const run = s.runs.find((r) => r.id === s.activeRunId);
    return run?.points[run.points.length - 1];
  });
  const lastEval = useApp((s) => {
    const run = s.runs.find((r) => r.id === s.activeRunId);
    return run?.evals[run.evals.length - 1];
  });
  const evalEvery = useApp((s) => s.runs.find((r) => r.id === s.activeRunId)?.config.evalEvery ?? 0);
  if (!last) return null;
  return (
    <dl className="latest" data-testid="latest" data-step={last.step}>
      {shownOf(last.scalars).map(({ key, label }) => (
        <div key={key} title={metricTitle(key)}>
          <dt>{label}</dt>
          <dd data-testid={`latest-${key.replace(/[^a-z0-9@]+/gi, '-')}`} data-value={String(last.scalars[key])}>
            {formatNumber(last.scalars[key])}
          </dd>
        </div>
      ))}
      <SpeedReadout scalars={last.scalars} />
      <div>
        <dt>{metricName('level')}</dt>
        <dd data-testid="latest-level">{last.level}</dd>
      </div>
      {lastEval ? (
        <div
          title={`held-out eval at step ${lastEval.step} on ${lastEval.prompts} prompts. ${heldOutExplanation(evalEvery)}`}
        >
          <dt>
            {metricName('eval/pass@1_greedy')} / pass@{lastEval.k} (step {lastEval.step})
          </dt>
          <dd data-testid="latest-eval">
            {measured(lastEval['eval/pass@1_greedy'])} / {measured(lastEval['eval/pass@k'])}
          </dd>
        </div>
      ) : evalEvery > 0 ? (
        <div title={heldOutExplanation(evalEvery)}>
          <dt>{metricName('eval/pass@1_greedy')}</dt>
          <dd data-testid="latest-eval">not measured yet</dd>
        </div>
      ) : null}
    </dl>
  );
}
