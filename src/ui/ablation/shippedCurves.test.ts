// The leaderboard's recorded curves shipped with the page: each file reads, holds the suite
// task's protocol (every method that applies, every seed, the whole budget), stays small, and
// its statistics give the very cells of docs/leaderboard.md (the same runs behind both).

import { describe, expect, it } from 'vitest';
import { readFileSync, statSync } from 'node:fs';
import { getSuite, leaderboardCell, parseRecordedCurves, suiteTaskPlan } from '../../ablation';
import { recordedStats, SHIPPED_CURVES } from './recordedSeries';

const root = new URL('../../../', import.meta.url);
const board = readFileSync(new URL('docs/leaderboard.md', root), 'utf8');

describe.each(SHIPPED_CURVES)('the shipped curves of $task', ({ task, path }) => {
  const url = new URL(`public/${path}`, root);
  const file = parseRecordedCurves(readFileSync(url, 'utf8'), path);
  const suite = getSuite(file.suite);
  const plan = suiteTaskPlan(
    suite,
    suite.tasks.find((t) => t.id === task)!,
  );

  it("hold the task's protocol: its sets, budget and seeds, and every method the leaderboard has", () => {
    expect(statSync(url).size).toBeLessThan(300_000);
    expect(file.task).toMatchObject({ id: task, preset: plan.task.preset, steps: plan.task.steps });
    expect(file.task.sets).toEqual(plan.spec.sets);
    expect(file.methods.map((m) => m.label)).toEqual(plan.cells.map((c) => c.label));
    for (const m of file.methods) {
      expect(
        m.runs.map((r) => r.seed),
        m.label,
      ).toEqual([...suite.seeds]);
      for (const r of m.runs) expect(r.lastStep, `${m.label} seed ${r.seed}`).toBe(plan.task.steps);
    }
    expect(file.notes).toEqual(plan.skipped.map((s) => `${s.label}: not run on this task (${s.why}).`));
  });

  it("give each method's cell of docs/leaderboard.md", () => {
    const stats = recordedStats(file);
    // The results table: a column per task, named by its title; one row per method.
    const rows = board
      .split('\n')
      .filter((l) => l.startsWith('| '))
      .map((l) => l.slice(2, -2).split(' | '));
    const header = rows.find((r) => r[0] === 'method' && r.at(-1) === 'verdict')!;
    const column = header.indexOf(plan.task.title);
    expect(column, `a column "${plan.task.title}" in ${header.join(', ')}`).toBeGreaterThan(0);
    for (const m of file.methods) {
      const cell = leaderboardCell(
        { task: plan.task, stats, seeds: suite.seeds, steps: plan.task.steps, skipped: [], sets: [] },
        m.label,
      );
      const row = rows.find((r) => r[0] === m.label && r.length === header.length);
      expect(row?.[column], m.label).toBe(cell);
    }
  });
});
