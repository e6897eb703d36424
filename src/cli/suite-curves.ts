// `rlvr sweep --suite … --curves-out DIR`: each task's recorded curves (src/ablation/recorded-curves.ts)
// as DIR/leaderboard-<task>.json, from the same runs the summaries read, for the page's ablation
// view to load and draw over its charts (the shipped ones are public/reference/leaderboard-sorting.json).

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { recordCurves, type AblationCell, type Suite, type SuiteTaskPlan } from '../ablation';
import { writeFileAtomic } from './run-files';

/** The recorded-curves file of a task, by its id: leaderboard-<task>.json. */
export const curvesFileName = (taskId: string): string => `leaderboard-${taskId}.json`;

/** What a reader of the curves must know: the suite's methods these runs left out, a shortened budget. */
function curvesNotes(suite: Suite, plan: SuiteTaskPlan, steps: number | undefined): string[] {
  const notes: string[] = [];
  const left = suite.methods.filter(
    (m) => !plan.cells.some((c) => c.label === m.label) && !plan.skipped.some((s) => s.label === m.label),
  );
  if (left.length)
    notes.push(
      `Only ${plan.cells.map((c) => c.label).join(', ')} (--methods): the suite's ${left.map((m) => m.label).join(', ')} are not recorded here.`,
    );
  for (const s of plan.skipped) notes.push(`${s.label}: not run on this task (${s.why}).`);
  if (steps !== undefined) notes.push(`Every run trained ${steps} steps (--steps), not the task's ${plan.task.steps}.`);
  return notes;
}

/** Writes each task's curves under `dir`; returns the files written. */
export function writeSuiteCurves(
  dir: string,
  suite: Suite,
  tasks: readonly { plan: SuiteTaskPlan; cells: readonly AblationCell[] }[],
  command: string,
  steps: number | undefined,
): string[] {
  mkdirSync(dir, { recursive: true });
  return tasks.map(({ plan, cells }) => {
    const file = recordCurves({
      suite: suite.name,
      task: {
        id: plan.task.id,
        title: plan.task.title,
        preset: plan.task.preset,
        sets: plan.spec.sets.filter((s) => !s.startsWith('customEstimator=')),
        steps: plan.spec.steps,
      },
      seeds: plan.spec.seeds,
      solved: plan.spec.solved,
      metrics: plan.task.metrics,
      // The suite's cells in its order (GRPO first), whatever order the folders were read in.
      cells: plan.cells.flatMap((c) => cells.filter((x) => x.label === c.label)),
      command,
      notes: curvesNotes(suite, plan, steps),
    });
    const path = join(dir, curvesFileName(plan.task.id));
    writeFileAtomic(path, JSON.stringify(file) + '\n');
    return path;
  });
}
