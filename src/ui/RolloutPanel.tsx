// The latest rollouts: the inspector (every group's completions, tokens coloured), the task's
// own view (mazes, group chains) and, for groupmul's interleaved layout, the learned table.

import { GroupMulView, LearnedTableView, MazeView, RolloutInspector } from './views';
import { useApp, type AppState } from '../store/store';
import { useController } from './context';
import { useThrottledSelector } from './throttle';

/** While training streams steps, the rollouts are redrawn at most this often (they are big). */
const ROLLOUT_REFRESH_MS = 1000;
const selectRollout = (s: AppState) => s.rollout;

export function RolloutPanel() {
  const rollout = useThrottledSelector(selectRollout, 0, ROLLOUT_REFRESH_MS);
  return (
    <section className="panel rollouts" data-testid="rollout-panel" aria-label="rollouts">
      <h2>Rollouts{rollout ? ` of step ${rollout.step}${rollout.phase ? ` (after ${rollout.phase})` : ''}` : ''}</h2>
      {!rollout && <p className="muted">Take a step (or a phase) to see the prompts, the G completions of each, their rewards and advantages.</p>}
      {rollout && (
        <>
          <LearnedTablePanel />
          <MazeView rollout={rollout} />
          <GroupMulView rollout={rollout} />
          <RolloutInspector rollout={rollout} />
        </>
      )}
    </section>
  );
}

function LearnedTablePanel() {
  const controller = useController();
  const task = useApp((s) => s.trainerConfig?.task);
  const layout = useApp((s) => s.trainerConfig?.['task.layout']);
  const learned = useApp((s) => s.learnedTable);
  if (task !== 'groupmul' || layout !== 'interleaved') return null;
  return (
    <div className="learned">
      <h3>
        What the policy learned{learned ? ` (step ${learned.step})` : ''}{' '}
        <button className="small-button" data-testid="learned-refresh" onClick={() => controller?.requestLearnedTable()}>refresh</button>
      </h3>
      {learned?.table ? <LearnedTableView table={learned.table} /> : <p className="muted small">Refreshed at every pause.</p>}
    </div>
  );
}
