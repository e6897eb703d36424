// The ablation's results as they come in and once it is over: the runs' progress, the mean curve
// of each cell with its 95% band, "solved by step t", a table with intervals, the verdict, and
// the export as JSON or as an SVG figure for a report.

import { useMemo, useRef } from 'react';
import { metricName } from '../../config';
import { formatSteps, formatValue, type AblationStats } from '../../ablation';
import { ablationRuns, type AblationState } from '../../store/ablationSlice';
import { useApp } from '../../store/store';
import { useThrottledSelector } from '../throttle';
import { downloadFile } from '../download';
import type { PlotSeries } from '../charts/series';
import { RUN_COLORS } from '../charts/palette';
import { ablationToJson } from './ablationFile';
import { ablationStats } from './ablation-stats';
import { BandFigure, SolvedFigure } from './BandFigure';
import { recordedBandSeries, recordedSolvedSeries, type RecordedOverlay } from './recordedSeries';

const selectAblationRuns = (() => {
  let memo: { runs: unknown; ablation: unknown; out: ReturnType<typeof ablationRuns> } | null = null;
  return (s: Parameters<typeof ablationRuns>[0]) => {
    if (memo && memo.runs === s.runs && memo.ablation === s.ablation) return memo.out;
    memo = { runs: s.runs, ablation: s.ablation, out: ablationRuns(s) };
    return memo.out;
  };
})();

export function AblationView({ a, recorded = null }: { a: AblationState; recorded?: RecordedOverlay | null }) {
  // While runs stream in, the statistics follow at the charts' pace; once the ablation is over,
  // its final runs at once (what is shown is then exactly what Export writes).
  const streaming = useThrottledSelector(selectAblationRuns, 2);
  const final = useApp(selectAblationRuns);
  const runs = a.finishedAt !== null ? final : streaming;
  const stats = useMemo(() => ablationStats(a, runs), [a, runs]);
  const figure = useRef<HTMLDivElement>(null);
  const done = a.jobs.filter((j) => j.status === 'done').length;
  const seconds = ((a.finishedAt ?? Date.now()) - a.startedAt) / 1000;
  return (
    <div className="ablation-view" data-testid="ablation-view" data-finished={String(a.finishedAt !== null)}>
      <p className="small muted">
        {a.importedFrom ? `Imported from ${a.importedFrom}. ` : ''}
        {done} of {a.jobs.length} runs done{a.importedFrom ? '' : `, ${a.concurrency} at once`}
        {a.finishedAt !== null && a.startedAt > 0 ? ` in ${seconds.toFixed(0)} s` : ''}.
      </p>
      {stats && (
        <p className="ablation-answer" data-testid="ablation-answer">
          {stats.answer}
        </p>
      )}
      <Progress a={a} />
      {stats && (
        <>
          <div className="ablation-figure" ref={figure} data-testid="ablation-figure">
            <BandChart stats={stats} metric={stats.metrics[0]} steps={a.spec.steps} recorded={recorded} />
            {stats.solved && <SolvedChart stats={stats} steps={a.spec.steps} recorded={recorded} />}
          </div>
          <CellTable stats={stats} />
          <ul className="verdict" data-testid="ablation-verdict">
            {stats.verdict.map((v, i) => (
              <li key={i}>{v}</li>
            ))}
          </ul>
          <div className="row">
            <button
              className="small-button"
              data-testid="ablation-export-json"
              onClick={() =>
                downloadFile(`rlvr-ablation-${a.spec.preset}.json`, ablationToJson(a, runs, stats), 'application/json')
              }
            >
              Export JSON
            </button>
            <button
              className="small-button"
              data-testid="ablation-export-svg"
              onClick={() =>
                figure.current &&
                downloadFile(
                  `rlvr-ablation-${a.spec.preset}.svg`,
                  figureSvg(figure.current, `${a.spec.preset}: ${stats.answer}`),
                  'image/svg+xml',
                )
              }
            >
              Export figure (SVG)
            </button>
          </div>
        </>
      )}
    </div>
  );
}

function Progress({ a }: { a: AblationState }) {
  return (
    <table className="ablation-progress small" data-testid="ablation-progress">
      <tbody>
        {a.cells.map((c, i) => (
          <tr key={c.label}>
            <th style={{ color: RUN_COLORS[i % RUN_COLORS.length] }}>{c.label}</th>
            {a.jobs
              .filter((j) => j.cell === c.label)
              .map((j) => (
                <td
                  key={j.runId}
                  data-testid="ablation-job"
                  data-status={j.status}
                  title={j.message ?? `seed ${j.seed}`}
                >
                  {j.status === 'done' ? '✓' : j.status === 'failed' ? '✗' : ''} s{j.seed}{' '}
                  {j.status === 'queued' ? '·' : `${j.step}/${a.spec.steps}`}
                </td>
              ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function BandChart({
  stats,
  metric,
  steps,
  recorded,
}: {
  stats: AblationStats;
  metric: string;
  steps: number;
  recorded: RecordedOverlay | null;
}) {
  // A cell with no run yet is not drawn (its legend says so), rather than drawn as a flat 0.
  const series: PlotSeries[] = stats.cells.flatMap((c, i) => {
    const curve = c.curves[metric] ?? [];
    if (c.runs.length === 0 || curve.length === 0) return [];
    return {
      id: c.label,
      label: `${c.label} (${c.runs.length} seeds)`,
      color: RUN_COLORS[i % RUN_COLORS.length],
      points: curve.map((p) => ({ x: p.step, y: p.mean })),
      band: curve.filter((p) => p.lo !== null && p.hi !== null).map((p) => ({ x: p.step, lo: p.lo!, hi: p.hi! })),
    };
  });
  // The leaderboard's recorded runs, dashed, over the live cells when they recorded this metric.
  const over = recorded ? recordedBandSeries(recorded, metric) : [];
  return (
    <BandFigure
      metric={metric}
      steps={over.length ? Math.max(steps, recorded!.file.task.steps) : steps}
      series={[...series, ...over]}
      caption={`${metricName(metric)}: mean over seeds, 95% band${over.length ? '; dashed: recorded runs of the leaderboard, not live' : ''}`}
      testId="ablation-curves"
      plotTestId="plot-ablation"
      waiting={stats.cells.filter((c) => c.runs.length === 0).map((c) => c.label)}
    />
  );
}

/** Dash patterns and widths that keep overlapping staircases apart: the first cell widest and solid. */
const SOLVED_DASHES = ['', '7 4', '2 3', '10 3 2 3'];

function SolvedChart({
  stats,
  steps,
  recorded,
}: {
  stats: AblationStats;
  steps: number;
  recorded: RecordedOverlay | null;
}) {
  // Each cell's staircase ends where its runs have got to (not at the budget), and not at all before it has a run.
  const series: PlotSeries[] = stats.cells.flatMap((c, i) => {
    if (!c.solve || c.runs.length === 0) return [];
    const reached = Math.max(...c.runs.map((r) => r.lastStep));
    const points = c.solve.curve.filter((p) => p.step <= reached).map((p) => ({ x: p.step, y: p.solved }));
    return {
      id: c.label,
      label: c.label,
      color: RUN_COLORS[i % RUN_COLORS.length],
      kind: 'step' as const,
      dash: SOLVED_DASHES[i % SOLVED_DASHES.length],
      width: Math.max(1.5, 4 - i),
      points: [...points, { x: reached, y: points.at(-1)?.y ?? 0 }],
    };
  });
  // The recorded runs' staircases where "solved" means the same thing.
  const rule = recorded?.stats.solved;
  const same = rule && rule.metric === stats.solved!.metric && rule.target === stats.solved!.target;
  const over = same ? recordedSolvedSeries(recorded!) : [];
  return (
    <SolvedFigure
      solved={stats.solved!}
      steps={over.length ? Math.max(steps, recorded!.file.task.steps) : steps}
      series={[...series, ...over]}
      testId="ablation-solved"
      plotTestId="plot-ablation-solved"
      waiting={stats.cells.filter((c) => c.runs.length === 0).map((c) => c.label)}
    />
  );
}

export function CellTable({ stats }: { stats: AblationStats }) {
  const metrics = stats.metrics.slice(0, 3);
  const interval = (lo: number | null, hi: number | null) =>
    lo === null || hi === null ? '' : ` [${formatValue(lo)}, ${formatValue(hi)}]`;
  return (
    <table className="ablation-table small" data-testid="ablation-table">
      <thead>
        <tr>
          <th>cell</th>
          {metrics.map((m) => (
            <th key={m}>final {metricName(m)}</th>
          ))}
          {stats.solved && <th>solved</th>}
        </tr>
      </thead>
      <tbody>
        {stats.cells.map((c) => (
          <tr key={c.label} data-testid="ablation-row">
            <th>{c.label}</th>
            {metrics.map((m) => {
              const f = c.finals[m];
              return <td key={m}>{f && f.n > 0 ? `${formatValue(f.mean)}${interval(f.lo, f.hi)}` : '–'}</td>;
            })}
            {stats.solved && (
              <td>
                {c.solve
                  ? `${c.solve.solved}/${c.solve.n}${c.solve.median !== null ? `, median ${formatSteps(c.solve.median)} steps${c.solve.medianInterval ? ` [${formatSteps(c.solve.medianInterval.lo)}, ${c.solve.medianInterval.hi === null ? '>' : formatSteps(c.solve.medianInterval.hi)}]` : ''}` : ''}`
                  : '–'}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The figure's charts as one standalone SVG document (stacked, titled), for a report. */
function figureSvg(root: HTMLElement, title: string): string {
  const svgs = [...root.querySelectorAll('svg')].filter((svg) => !svg.closest('.chart-legend')); // not the legends' line keys
  let y = 28;
  const parts: string[] = [];
  let width = 0;
  for (const svg of svgs) {
    const w = Number(svg.getAttribute('width'));
    const h = Number(svg.getAttribute('height'));
    const caption = svg.closest('figure')?.querySelector('figcaption')?.textContent ?? '';
    parts.push(`<text x="0" y="${y}" font-size="13" font-family="sans-serif">${escapeXml(caption)}</text>`);
    parts.push(`<g transform="translate(0,${y + 6})">${svg.outerHTML}</g>`);
    y += h + 30;
    width = Math.max(width, w);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" font-family="sans-serif"><text x="0" y="16" font-size="14" font-weight="bold">${escapeXml(title)}</text>${parts.join('')}</svg>`;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}
