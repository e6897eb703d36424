// An ablation's statistics from its runs, exactly as `rlvr sweep` / `rlvr report` compute them
// from run folders: the runs grouped by the spec's cells, each converted with seedRunFromRecord.

import type { AblationState } from '../../store/ablationSlice';
import type { RunRecord } from '../../store/kept-runs';
import { seedRunFromRecord } from '../../ablation/seed-runs';
import { summarizeAblation, type AblationStats } from '../../ablation';

/** null until some run has a step. */
export function ablationStats(a: AblationState, runs: readonly RunRecord[]): AblationStats | null {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const cells = a.cells.map((c) => ({
    label: c.label,
    set: c.set,
    ...(c.variant ? { variant: c.variant } : {}),
    runs: a.jobs
      .filter((j) => j.cell === c.label)
      .map((j) => byId.get(j.runId))
      .filter((r): r is RunRecord => r !== undefined && r.points.length > 0)
      .map((r) => seedRunFromRecord({ id: r.id, config: r.config, points: r.points, evals: r.evals })),
  }));
  if (cells.every((c) => c.runs.length === 0)) return null;
  return summarizeAblation(cells, { metrics: a.spec.metrics, solved: a.spec.solved });
}
