// The recorded curves of a leaderboard task (src/ablation/recorded-curves.ts) as the ablation
// view draws them: the statistics over seeds of each method, as `rlvr sweep --suite` computes them
// (every method against GRPO), and each shown method's mean curve with its 95% band, dashed so
// that a recorded run is never taken for a live one. Pure: file in, chart series out.

import {
  BASELINE_LABEL,
  recordedCells,
  summarizeAblation,
  type AblationStats,
  type RecordedCurvesFile,
} from '../../ablation';
import { OWN_RUN_COLOR, RUN_COLORS } from '../charts/palette';
import type { PlotSeries } from '../charts/series';

/** The dash of every recorded series: live ones are solid. */
export const RECORDED_DASH = '6 3';

/** A loaded curves file, its statistics, and the methods drawn. */
export interface RecordedOverlay {
  file: RecordedCurvesFile;
  /** Where it came from: the shipped file's path or the user's file name. */
  source: string;
  stats: AblationStats;
  /** Labels of the methods drawn, in the file's order. */
  shown: string[];
}

/** The leaderboard's recorded curves shipped with the page (public/reference/). */
export const SHIPPED_CURVES: readonly { task: string; path: string }[] = [
  { task: 'sorting', path: 'reference/leaderboard-sorting.json' },
  { task: 's3-chains', path: 'reference/leaderboard-s3-chains.json' },
];

/** The statistics of the file's runs: every method against GRPO (the leaderboard's comparisons). */
export function recordedStats(file: RecordedCurvesFile): AblationStats {
  const cells = recordedCells(file);
  const hasBaseline = cells[0]?.label === BASELINE_LABEL;
  return summarizeAblation(cells, {
    metrics: file.metrics,
    solved: file.solved,
    ...(hasBaseline ? { compare: 'baseline' as const } : {}),
  });
}

/** GRPO and the methods told apart from it (at the file's level, after Holm); GRPO and the next one when none is. */
export function defaultShown(stats: AblationStats): string[] {
  const labels = stats.cells.map((c) => c.label);
  const base = labels[0];
  const different = new Set(
    stats.comparisons
      .filter((c) => c.pAdjusted !== null && c.pAdjusted < stats.alpha && (c.a === base || c.b === base))
      .map((c) => (c.a === base ? c.b : c.a)),
  );
  const shown = labels.filter((l) => l === base || different.has(l));
  return shown.length > 1 ? shown : labels.slice(0, 2);
}

export function recordedOverlay(file: RecordedCurvesFile, source: string): RecordedOverlay {
  const stats = recordedStats(file);
  return { file, source, stats, shown: defaultShown(stats) };
}

/**
 * A method's colour: GRPO the darkest, the others the run colours in the file's order from the
 * fifth on, so that the first methods do not take the colours of a live ablation's first cells.
 */
export function recordedColor(stats: AblationStats, label: string): string {
  const i = stats.cells.findIndex((c) => c.label === label);
  return i <= 0 ? OWN_RUN_COLOR : RUN_COLORS[(i + 3) % RUN_COLORS.length];
}

/** The mean curve of `metric` of each shown method with its 95% band over seeds, dashed and labelled "recorded". */
export function recordedBandSeries(overlay: RecordedOverlay, metric: string): PlotSeries[] {
  const { stats, shown } = overlay;
  return stats.cells.flatMap((c) => {
    const curve = c.curves[metric] ?? [];
    if (!shown.includes(c.label) || c.runs.length === 0 || curve.length === 0) return [];
    return {
      id: `recorded:${c.label}`,
      label: `${c.label}, recorded (${c.runs.length} seeds)`,
      color: recordedColor(stats, c.label),
      dash: RECORDED_DASH,
      width: c.label === stats.cells[0].label ? 2.5 : 1.75,
      points: curve.map((p) => ({ x: p.step, y: p.mean })),
      band: curve.filter((p) => p.lo !== null && p.hi !== null).map((p) => ({ x: p.step, lo: p.lo!, hi: p.hi! })),
    };
  });
}

/** "Solved by step t" of each shown method: the share of its seeds solved, as a dashed staircase to its last step. */
export function recordedSolvedSeries(overlay: RecordedOverlay): PlotSeries[] {
  const { stats, shown } = overlay;
  return stats.cells.flatMap((c) => {
    if (!c.solve || !shown.includes(c.label) || c.runs.length === 0) return [];
    const last = Math.max(...c.runs.map((r) => r.lastStep));
    const points = c.solve.curve.map((p) => ({ x: p.step, y: p.solved }));
    return {
      id: `recorded:${c.label}`,
      label: `${c.label}, recorded`,
      color: recordedColor(stats, c.label),
      kind: 'step' as const,
      dash: RECORDED_DASH,
      width: c.label === stats.cells[0].label ? 2.5 : 1.75,
      points: [...points, { x: last, y: points.at(-1)?.y ?? 0 }],
    };
  });
}

/** One line on what the file holds: "12 methods × 6 seeds × 500 steps of sorting (sort-easy, task.length=5, …)". */
export function recordedSummary(file: RecordedCurvesFile): string {
  const seeds = new Set(file.methods.flatMap((m) => m.runs.map((r) => r.seed))).size;
  const sets = file.task.sets.length ? `, ${file.task.sets.join(', ')}` : '';
  return `${file.methods.length} method${file.methods.length === 1 ? '' : 's'} × ${seeds} seeds × ${file.task.steps} steps of ${file.task.title} (${file.task.preset}${sets})`;
}

/** The overlay with `label` drawn or not (the first method, the baseline, always is). */
export function toggleShown(overlay: RecordedOverlay, label: string): RecordedOverlay {
  if (label === overlay.stats.cells[0]?.label) return overlay;
  const on = overlay.shown.includes(label) ? overlay.shown.filter((l) => l !== label) : [...overlay.shown, label];
  return { ...overlay, shown: overlay.stats.cells.map((c) => c.label).filter((l) => on.includes(l)) };
}
