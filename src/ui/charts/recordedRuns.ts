// A lesson's recorded runs (public/reference/<preset>.json) on the charts, faint under the live
// run: the file's shape, each run's lines on a chart, and after a jump to a trained model those
// lines cut at its step, with the run that made the model marked as its own.

import type { RunConfig } from '../../config';
import type { ChartId } from '../../lessons';
import { downsample, POINT_BUDGET, type XY } from '../../core/downsample';
import type { PlotSeries } from './series';
import { levelRange, seriesName } from './catalog';
import { DASHES, OWN_RUN_COLOR, REFERENCE_COLOR } from './palette';

/** A recorded run of a lesson, drawn faintly under the live one. */
export interface ReferenceRun {
  seed: number;
  /** [step, reward] pairs. */
  reward: [number, number][];
  /** [step, level] where its curriculum went up (absent in files without a curriculum). */
  advances?: [number, number][];
  /** [step, value] curves of the metrics the lesson's other charts draw, by metrics.jsonl key (absent in older files). */
  series?: Record<string, [number, number][]>;
}

export interface ReferenceSet {
  preset: string;
  /** How it was made: the command and the adapter. */
  source: string;
  runs: ReferenceRun[];
}

/** How every recorded run is drawn: faint, thin, never in the tooltip. */
const RECORDED_STYLE = { color: REFERENCE_COLOR, opacity: 0.3, width: 1.5, hideInTooltip: true } as const;

/**
 * One recorded run's lines on chart `id`: its reward curve; its curriculum as a staircase from
 * the first level (a file without advances: a flat line); on the other charts each of `keys` the
 * file holds, dashed as the live line of the same metric.
 */
function recordedLines(
  id: ChartId,
  ref: ReferenceRun,
  keys: readonly string[],
  config: RunConfig | undefined,
): PlotSeries[] {
  const label = `reference run (seed ${ref.seed})`;
  if (id === 'reward') {
    return [
      {
        id: `reference:${ref.seed}`,
        label,
        ...RECORDED_STYLE,
        points: downsample(
          ref.reward.map(([x, y]) => ({ x, y })),
          POINT_BUDGET,
        ),
      },
    ];
  }
  if (id === 'level') {
    if (!config) return [];
    const end = ref.reward.length ? ref.reward[ref.reward.length - 1][0] : 0;
    const points: XY[] = [{ x: 0, y: levelRange(config)[0] }, ...(ref.advances ?? []).map(([x, y]) => ({ x, y }))];
    points.push({ x: Math.max(end, points[points.length - 1].x), y: points[points.length - 1].y });
    return [{ id: `reference:${ref.seed}`, label, ...RECORDED_STYLE, kind: 'step', points }];
  }
  return keys.flatMap((key, k) => {
    const curve = ref.series?.[key];
    if (!curve?.length) return [];
    return [
      {
        id: `reference:${ref.seed}:${key}`,
        label: `${label} ${seriesName(key)}`,
        ...RECORDED_STYLE,
        dash: DASHES[k % DASHES.length],
        points: downsample(
          curve.map(([x, y]) => ({ x, y })),
          POINT_BUDGET,
        ),
      },
    ];
  });
}

/** Id prefixes of a line cut at a jump: the loaded model's own run, and the others' history. */
const OWN_RUN = 'own:';
const HISTORY = 'history:';

function drawOrder(line: PlotSeries): number {
  return line.id.startsWith(OWN_RUN) ? 2 : line.id.startsWith(HISTORY) ? 1 : 0;
}

/**
 * A recorded line cut at the loaded model's step: up to it drawn as history (the run of the
 * model's seed marked as its own), after it faint. A line from step 0 (a base model) stays faint.
 */
function splitAtJump(line: PlotSeries, jump: { step: number; seed: number }, seed: number): PlotSeries[] {
  if (jump.step <= 0) return [line];
  const before = line.points.filter((p) => p.x <= jump.step);
  const after = line.points.filter((p) => p.x >= jump.step);
  // The faint part starts where the history ends, so the two join.
  if (before.length && after[0]?.x !== before[before.length - 1].x) after.unshift(before[before.length - 1]);
  const out: PlotSeries[] = [];
  if (after.length > 1) out.push({ ...line, points: after, opacity: 0.22 });
  if (before.length) {
    const own = seed === jump.seed;
    out.push(
      own
        ? {
            ...line,
            id: `${OWN_RUN}${line.id}`,
            label: line.label.replace('reference run', "this model's run"),
            color: OWN_RUN_COLOR,
            opacity: 0.85,
            width: 2.5,
          }
        : { ...line, id: `${HISTORY}${line.id}`, opacity: 0.5 },
    );
    out[out.length - 1].points = before;
  }
  return out;
}

/** What the recorded runs add to a chart: their lines in drawing order, their legend, a note. */
export interface RecordedOnChart {
  lines: PlotSeries[];
  legend: { label: string; color: string; faint?: boolean; title: string }[];
  /** A loaded model whose recorded run this chart cannot draw, or recorded runs without its metric. */
  note?: string;
}

/**
 * The lesson's recorded runs on chart `id`: after a jump to a trained model the live run has one
 * point, and these say how the runs that made it got there.
 */
export function recordedRunsOnChart(
  id: ChartId,
  reference: ReferenceSet,
  keys: readonly string[],
  config: RunConfig | undefined,
  jump: { step: number; seed: number } | undefined,
): RecordedOnChart {
  const drawn = reference.runs.flatMap((ref) => {
    const lines = recordedLines(id, ref, keys, config);
    return jump ? lines.flatMap((line) => splitAtJump(line, jump, ref.seed)) : lines;
  });
  // The faint rest first, the history over it, the model's own run on top.
  drawn.sort((a, b) => drawOrder(a) - drawOrder(b));
  const legend: RecordedOnChart['legend'] = [];
  let note: string | undefined;
  const n = reference.runs.length;
  if (drawn.length) {
    // Short labels: on a projector a small chart's legend has room for two lines.
    const label = jump && jump.step > 0 ? `recorded runs to step ${jump.step}` : `recorded runs (${n})`;
    legend.push({
      label,
      color: REFERENCE_COLOR,
      faint: true,
      title: `${n} recorded run${n === 1 ? '' : 's'} of this lesson: ${reference.source}`,
    });
  }
  if (jump && jump.step > 0 && drawn.some((l) => l.id.startsWith(OWN_RUN))) {
    legend.push({
      label: "this model's run",
      color: OWN_RUN_COLOR,
      title: `seed ${jump.seed}: the recorded run that made the loaded model, drawn to step ${jump.step}`,
    });
  } else if (jump && jump.step > 0) {
    note = drawn.length
      ? `no recorded run of this model (seed ${jump.seed}) here`
      : 'no recorded run of this model here';
  } else if (!drawn.length && n > 0) {
    // Runs recorded before the chart's metric existed (the maze's shortest-path share, charted since the split runs).
    note = 'the recorded runs did not log this metric';
  }
  return { lines: drawn, legend, ...(note ? { note } : {}) };
}
