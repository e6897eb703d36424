// The leaderboard's recorded curves on the ablation charts: the methods shown by default (GRPO and
// those told apart from it), each a dashed mean curve with its band over seeds, and the toggles.

import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { recordCurves, type AblationCell, type SeedRun } from '../../ablation';
import {
  defaultShown,
  RECORDED_DASH,
  recordedBandSeries,
  recordedOverlay,
  recordedSolvedSeries,
  recordedSummary,
  SHIPPED_CURVES,
  toggleShown,
} from './recordedSeries';
import { OWN_RUN_COLOR, RUN_COLORS } from '../charts/palette';

/** A 100-step run whose evaluation (every 25 steps) is `final` from step `from` on, 0 before. */
function run(seed: number, final: number, from: number): SeedRun {
  const evals = [0, 25, 50, 75, 100].map((step) => ({ step, value: step >= from ? final : 0 }));
  const reward = Array.from({ length: 100 }, (_, i) => ({ step: i + 1, value: final * ((i + 1) / 100) }));
  return { seed, lastStep: 100, series: { 'eval/pass@1_greedy': evals, reward } };
}
const seeds = [0, 1, 2, 3, 4, 5];
const cells: AblationCell[] = [
  { label: 'GRPO', runs: seeds.map((s) => run(s, 0.95 + s * 0.005, 50 + (s % 2) * 25)) },
  { label: 'RLOO', runs: seeds.map((s) => run(s, 0.94 + s * 0.006, 50 + ((s + 1) % 2) * 25)) },
  { label: 'MaPP', runs: seeds.map((s) => run(s, 0.01 * s, 1000)) },
];
const file = recordCurves({
  suite: 'methods',
  task: { id: 'sorting', title: 'sorting', preset: 'sort-easy', sets: ['task.length=5'], steps: 100 },
  seeds,
  solved: { metric: 'eval/pass@1_greedy', target: 0.9 },
  metrics: ['eval/pass@1_greedy', 'reward'],
  cells,
  command: 'npm run rlvr -- sweep --suite methods',
});

describe('recorded leaderboard curves on the ablation charts', () => {
  const overlay = recordedOverlay(file, 'reference/leaderboard-sorting.json');

  it('shows GRPO and the methods the seeds tell apart from it; not the ones they cannot', () => {
    expect(overlay.stats.cells.map((c) => c.label)).toEqual(['GRPO', 'RLOO', 'MaPP']);
    // Every comparison is with GRPO, as on the leaderboard.
    expect(overlay.stats.comparisons.every((c) => c.a === 'GRPO')).toBe(true);
    expect(defaultShown(overlay.stats)).toEqual(['GRPO', 'MaPP']);
    expect(overlay.shown).toEqual(['GRPO', 'MaPP']);
  });

  it('draws each shown method as a dashed mean curve over seeds with its band: GRPO darkest', () => {
    const series = recordedBandSeries(overlay, 'eval/pass@1_greedy');
    expect(series.map((s) => s.id)).toEqual(['recorded:GRPO', 'recorded:MaPP']);
    expect(series.map((s) => s.label)).toEqual(['GRPO, recorded (6 seeds)', 'MaPP, recorded (6 seeds)']);
    expect(series.every((s) => s.dash === RECORDED_DASH)).toBe(true);
    expect(series[0].color).toBe(OWN_RUN_COLOR);
    // MaPP, the file's third method, takes the sixth run colour: a live ablation's first cells keep theirs.
    expect(series[1].color).toBe(RUN_COLORS[5]);
    const grpo = series[0];
    expect(grpo.points.map((p) => p.x)).toEqual([0, 25, 50, 75, 100]);
    // At step 50 three seeds have solved (0.95…0.96) and three have not: mean ≈ 0.48, wide band.
    expect(grpo.points[2].y).toBeCloseTo((0.95 + 0.96 + 0.97) / 6, 6);
    const band = grpo.band!.find((b) => b.x === 50)!;
    expect(band.lo).toBeGreaterThanOrEqual(0);
    expect(band.hi - band.lo).toBeGreaterThan(0.5);
    expect(grpo.points[4].y).toBeCloseTo(0.9625, 6);
    // The reward, averaged down in the file, is drawn the same way.
    expect(recordedBandSeries(overlay, 'reward')[0].points).toHaveLength(100);
    expect(recordedBandSeries(overlay, 'entropy')).toEqual([]);
  });

  it("draws each shown method's share of seeds solved as a dashed staircase to its last step", () => {
    const solved = recordedSolvedSeries(overlay);
    expect(solved.map((s) => s.id)).toEqual(['recorded:GRPO', 'recorded:MaPP']);
    expect(solved[0].kind).toBe('step');
    expect(solved[0].points.at(-1)).toEqual({ x: 100, y: 1 });
    expect(solved[1].points.every((p) => p.y === 0)).toBe(true);
  });

  it('toggles a method on and off in the file order; the baseline stays', () => {
    const more = toggleShown(overlay, 'RLOO');
    expect(more.shown).toEqual(['GRPO', 'RLOO', 'MaPP']);
    expect(toggleShown(more, 'MaPP').shown).toEqual(['GRPO', 'RLOO']);
    expect(toggleShown(overlay, 'GRPO').shown).toEqual(['GRPO', 'MaPP']);
    expect(recordedBandSeries(toggleShown(more, 'MaPP'), 'reward').map((s) => s.id)).toEqual([
      'recorded:GRPO',
      'recorded:RLOO',
    ]);
  });

  it('says what the file holds in one line', () => {
    expect(recordedSummary(file)).toBe('3 methods × 6 seeds × 100 steps of sorting (sort-easy, task.length=5)');
  });

  it('offers every shipped leaderboard curves file, and only those, by its task', () => {
    const shipped = readdirSync('public/reference').filter((n) => /^leaderboard-.*\.json$/.test(n));
    expect(SHIPPED_CURVES.map((c) => c.path.replace(/^reference\//, '')).sort()).toEqual(shipped.sort());
    for (const c of SHIPPED_CURVES) expect(c.path).toBe(`reference/leaderboard-${c.task}.json`);
  });
});
