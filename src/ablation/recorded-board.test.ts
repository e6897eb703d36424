// A suite task read back from its recorded curves: the board says of it what the runs' own cells
// say; a file of another protocol is named as such; the shipped files are the protocol's and the
// shipped leaderboard's cells are theirs.

import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getSuite, suiteTaskPlan } from './methods-suite';
import { leaderboardCell, leaderboardVerdict } from './leaderboard';
import { parseRecordedCurves, recordCurves, type RecordedCurvesFile } from './recorded-curves';
import { recordedBoardTask, recordedMismatch } from './recorded-board';
import { summarizeAblation } from './summary';
import type { AblationCell, SeedRun } from './curves';

const suite = getSuite('methods');
const task = (id: string) => suite.tasks.find((t) => t.id === id)!;

/** A run of the S3 task: level 4 from step `reach` on, held-out pass@1 `final` from then. */
function run(seed: number, reach: number, final: number): SeedRun {
  const evals = Array.from({ length: 21 }, (_, i) => i * 25).map((step) => ({
    step,
    value: step >= reach ? final : 0.5,
    level: step >= reach ? 4 : 2,
  }));
  const level = evals.map((p) => ({ step: p.step, value: p.level }));
  const reward = Array.from({ length: 500 }, (_, i) => ({ step: i + 1, value: (i % 7) / 7 }));
  return { seed, lastStep: 500, series: { level, 'eval/pass@1_greedy': evals, reward } };
}

/** The S3 task as the suite runs it, every method with six made-up seeds: EAPO never reaches level 4. */
function s3File(): { file: RecordedCurvesFile; cells: AblationCell[]; plan: ReturnType<typeof suiteTaskPlan> } {
  const plan = suiteTaskPlan(suite, task('s3-chains'));
  const cells: AblationCell[] = plan.cells.map((c, k) => ({
    label: c.label,
    set: c.set,
    runs: plan.spec.seeds.map((s) => run(s, c.label === 'EAPO' ? 1000 : 100 + 25 * ((s + k) % 4), 0.9 + 0.01 * s)),
  }));
  const file = recordCurves({
    suite: 'methods',
    task: { id: 's3-chains', title: plan.task.title, preset: plan.task.preset, sets: [...plan.spec.sets], steps: 500 },
    seeds: plan.spec.seeds,
    solved: plan.spec.solved,
    metrics: plan.task.metrics,
    cells,
    command: 'npm run rlvr -- sweep --suite methods --tasks s3-chains',
  });
  return { file: parseRecordedCurves(JSON.stringify(file)), cells, plan };
}

describe('a suite task read back from its recorded curves', () => {
  it('gives the board the same cells and verdicts as the runs themselves', () => {
    const { file, cells, plan } = s3File();
    expect(recordedMismatch(file, 'methods', plan)).toBeNull();
    const fromFile = recordedBoardTask(file, plan);
    const options = { metrics: plan.task.metrics, solved: plan.spec.solved, compare: 'baseline' as const };
    const fromRuns = { ...fromFile, stats: summarizeAblation(cells, options) };
    for (const c of plan.cells) {
      expect(leaderboardCell(fromFile, c.label)).toBe(leaderboardCell(fromRuns, c.label));
      expect(leaderboardVerdict({ tasks: [fromFile] }, c.label)).toBe(
        leaderboardVerdict({ tasks: [fromRuns] }, c.label),
      );
    }
    // The made-up EAPO never reaches level 4 within its budget: slower and lower than GRPO, in both.
    expect(leaderboardCell(fromFile, 'EAPO')).toMatch(
      /^0\/6 solved; curriculum level 2\.00 — \*\*slower\*\* \(p = .*\*\*lower\*\*/,
    );
    expect(fromFile.stats.verdict).toEqual(fromRuns.stats.verdict);
  });

  it('names how a file of another protocol differs', () => {
    const { file, plan } = s3File();
    const changed = (patch: (f: RecordedCurvesFile) => void) => {
      const f = JSON.parse(JSON.stringify(file)) as RecordedCurvesFile;
      patch(f);
      return recordedMismatch(f, 'methods', plan);
    };
    expect(changed((f) => (f.task.steps = 3))).toBe('its runs trained 3 steps, not 500');
    expect(changed((f) => (f.seeds = [0, 1]))).toBe('its seeds are 0, 1, not 0, 1, 2, 3, 4, 5');
    expect(changed((f) => f.task.sets.push('lr=0.01'))).toMatch(/^its runs set .* lr=0\.01, this protocol /);
    expect(changed((f) => (f.solved = { metric: 'eval/pass@1_greedy', target: 0.8, level: 4 }))).toBe(
      'its "solved" rule is not the task\'s',
    );
    expect(changed((f) => f.methods.pop())).toMatch(/^it records GRPO, .*; this board has GRPO, .*AKL$/);
    expect(changed((f) => (f.methods[1].set = { grpoScale: 'std' }))).toBe(
      "its Dr. GRPO sets other knobs than the suite's Dr. GRPO",
    );
    expect(changed((f) => f.methods[2].runs.pop())).toBe(`its ${file.methods[2].label} has seeds 0, 1, 2, 3, 4`);
    expect(recordedMismatch(file, 'methods', suiteTaskPlan(suite, task('s3-chains'), { steps: 3 }))).toBe(
      'its runs trained 500 steps, not 3',
    );
    expect(recordedMismatch(file, 'methods', suiteTaskPlan(suite, task('sorting')))).toMatch(
      /^it records task s3-chains/,
    );
  });

  it("holds every shipped curves file to the suite's protocol, and docs/leaderboard.md to its cells", () => {
    const shipped = readdirSync('public/reference').filter((n) => /^leaderboard-.*\.json$/.test(n));
    expect(shipped.length).toBeGreaterThan(0);
    const board = readFileSync('docs/leaderboard.md', 'utf8');
    for (const name of shipped) {
      const file = parseRecordedCurves(readFileSync(join('public/reference', name), 'utf8'), name);
      const plan = suiteTaskPlan(suite, task(file.task.id));
      expect(recordedMismatch(file, 'methods', plan), name).toBeNull();
      const t = recordedBoardTask(file, plan);
      // The board's results table has this task's column: each method's cell is the file's.
      for (const c of plan.cells) expect(board, `${name}: ${c.label}`).toContain(` ${leaderboardCell(t, c.label)} |`);
    }
  });
});
