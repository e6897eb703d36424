// The latest step's headline numbers (exact values in data-value, for tests and copy-paste).

import { useApp } from '../store/store';
import { formatNumber } from './format';

const SHOWN: { key: string; label: string }[] = [
  { key: 'reward', label: 'reward' },
  { key: 'pass@1', label: 'pass@1' },
  { key: 'entropy', label: 'entropy' },
  { key: 'loss', label: 'loss' },
  { key: 'grad_norm', label: 'grad norm' },
  { key: 'kl', label: 'KL' },
  { key: 'frac_reward_zero_std', label: 'zero-spread groups' },
  { key: 'completions/mean_length', label: 'length' },
  { key: 'tokens_per_s', label: 'tokens/s' },
  { key: 'time/step_ms', label: 'ms/step' },
  // Task metrics: shown only for the tasks that report them.
  { key: 'task/cot_alignment_prefix', label: 'CoT alignment' },
  { key: 'task/distinct_correct_paths', label: 'distinct correct paths' },
];

export function LatestMetrics() {
  const last = useApp((s) => {
    const run = s.runs.find((r) => r.id === s.activeRunId);
    return run?.points[run.points.length - 1];
  });
  const lastEval = useApp((s) => {
    const run = s.runs.find((r) => r.id === s.activeRunId);
    return run?.evals[run.evals.length - 1];
  });
  if (!last) return null;
  return (
    <dl className="latest" data-testid="latest" data-step={last.step}>
      {SHOWN.filter(({ key }) => !key.startsWith('task/') || last.scalars[key] !== undefined).map(({ key, label }) => (
        <div key={key}>
          <dt>{label}</dt>
          <dd data-testid={`latest-${key.replace(/[^a-z0-9@]+/gi, '-')}`} data-value={String(last.scalars[key])}>{formatNumber(last.scalars[key])}</dd>
        </div>
      ))}
      <div><dt>level</dt><dd data-testid="latest-level">{last.level}</dd></div>
      {lastEval && (
        <div title={`held-out eval at step ${lastEval.step} on ${lastEval.prompts} prompts`}>
          <dt>eval pass@1 / pass@{lastEval.k}</dt>
          <dd data-testid="latest-eval">{formatNumber(lastEval['eval/pass@1_greedy'])} / {formatNumber(lastEval['eval/pass@k'])}</dd>
        </div>
      )}
    </dl>
  );
}
