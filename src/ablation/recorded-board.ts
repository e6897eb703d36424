// A suite task read back from its recorded curves (./recorded-curves.ts) onto the leaderboard, so
// that one board can hold tasks run by different commands, sessions or machines: `rlvr sweep
// --suite methods --tasks mazes --curves-out public/reference` puts the mazes it runs beside the
// sorting whose curves are already there. The curves keep every held-out evaluation (and its
// level) as the run wrote it, so steps to solve and the final value of the main metric, the two
// things the board compares, are the runs' own; the reward, averaged down, is not compared. Pure.

import type { LeaderboardTask } from './leaderboard';
import type { SuiteTaskPlan } from './methods-suite';
import { recordedCells, type RecordedCurvesFile } from './recorded-curves';
import { summarizeAblation } from './summary';

const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

const sameSet = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) =>
  sameList(Object.keys(a).sort(), Object.keys(b).sort()) && Object.keys(a).every((k) => String(a[k]) === String(b[k]));

/**
 * Why the file cannot stand on this board for `plan` (the task as this command would run it), or
 * null when it holds exactly those runs: the same suite, recipe, budget, seeds, solved rule and
 * methods, each with every seed.
 */
export function recordedMismatch(file: RecordedCurvesFile, suite: string, plan: SuiteTaskPlan): string | null {
  const t = plan.task;
  const sets = plan.spec.sets.filter((s) => !s.startsWith('customEstimator='));
  const seeds = plan.spec.seeds;
  if (file.suite !== suite) return `it is of suite ${file.suite}, not ${suite}`;
  if (file.task.id !== t.id || file.task.preset !== t.preset)
    return `it records task ${file.task.id} (${file.task.preset}), not ${t.id} (${t.preset})`;
  if (!sameList(file.task.sets, sets))
    return `its runs set ${file.task.sets.join(' ') || 'nothing'}, this protocol ${sets.join(' ') || 'nothing'}`;
  if (file.task.steps !== plan.spec.steps) return `its runs trained ${file.task.steps} steps, not ${plan.spec.steps}`;
  if (!sameList(file.seeds, seeds)) return `its seeds are ${file.seeds.join(', ')}, not ${seeds.join(', ')}`;
  const rule = plan.spec.solved;
  const same = file.solved === null || rule === null ? file.solved === rule : sameSet({ ...file.solved }, { ...rule });
  if (!same) return 'its "solved" rule is not the task\'s';
  if (file.metrics[0] !== t.metrics[0]) return `its main metric is ${file.metrics[0]}, not ${t.metrics[0]}`;
  const labels = plan.cells.map((c) => c.label);
  const recorded = file.methods.map((m) => m.label);
  if (!sameList(recorded, labels)) return `it records ${recorded.join(', ')}; this board has ${labels.join(', ')}`;
  for (const [i, m] of file.methods.entries()) {
    if (!sameSet(m.set, plan.cells[i].set)) return `its ${m.label} sets other knobs than the suite's ${m.label}`;
    const runSeeds = m.runs.map((r) => r.seed);
    if (!sameList(runSeeds, seeds)) return `its ${m.label} has seeds ${runSeeds.join(', ') || 'none'}`;
  }
  return null;
}

/** The board's view of a task from its recorded curves (check recordedMismatch first). */
export function recordedBoardTask(file: RecordedCurvesFile, plan: SuiteTaskPlan): LeaderboardTask {
  const stats = summarizeAblation(recordedCells(file), {
    metrics: [plan.task.metrics[0]],
    solved: plan.spec.solved,
    compare: 'baseline',
  });
  return {
    task: plan.task,
    stats,
    seeds: plan.spec.seeds,
    steps: plan.spec.steps,
    skipped: plan.skipped,
    sets: plan.spec.sets,
  };
}
