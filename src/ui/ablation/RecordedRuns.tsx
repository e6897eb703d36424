// The leaderboard's recorded runs in the ablation view: load the shipped curves of a suite task
// (public/reference/leaderboard-sorting.json, written by `rlvr sweep --suite methods --curves-out`)
// or a file of that format, then see every method's mean curve and band over seeds, dashed and
// marked as recorded, with GRPO against the methods picked; the same curves are drawn over the
// live ablation's charts (AblationView.tsx). The model is recordedSeries.ts.

import { useState } from 'react';
import { metricName } from '../../config';
import { parseRecordedCurves } from '../../ablation';
import { useApp } from '../../store/store';
import { fetchSiteFile } from '../siteFile';
import { BandFigure, SolvedFigure } from './BandFigure';
import { CellTable } from './AblationView';
import { JsonFileButton } from './JsonFileButton';
import { Checkbox } from '../Checkbox';
import {
  recordedBandSeries,
  recordedColor,
  recordedOverlay,
  recordedSolvedSeries,
  recordedSummary,
  SHIPPED_CURVES,
  toggleShown,
  type RecordedOverlay,
} from './recordedSeries';

/** "Load the leaderboard's recorded runs: sorting", and "Load a curves file…". */
export function RecordedRunsLoader({ onLoad }: { onLoad: (o: RecordedOverlay) => void }) {
  const notify = useApp((s) => s.notify);
  const [loading, setLoading] = useState<string | null>(null);
  const load = async (name: string, read: () => Promise<string>) => {
    setLoading(name);
    try {
      onLoad(recordedOverlay(parseRecordedCurves(await read(), name), name));
    } catch (e) {
      notify('error', `Could not load ${name}: ${(e as Error).message}`);
    } finally {
      setLoading(null);
    }
  };
  return (
    <div className="row small recorded-loader" data-testid="recorded-loader">
      <span className="muted">Recorded runs (not live):</span>
      {SHIPPED_CURVES.map((c) => (
        <button
          key={c.path}
          className="small-button"
          data-testid={`recorded-load-${c.task}`}
          disabled={loading !== null}
          onClick={() => load(c.path, async () => new TextDecoder().decode(await fetchSiteFile(c.path)))}
        >
          Load the leaderboard&apos;s recorded runs: {c.task}
        </button>
      ))}
      <JsonFileButton
        testId="recorded-load-file"
        inputTestId="recorded-file"
        disabled={loading !== null}
        title="A file written by rlvr sweep --suite methods --curves-out DIR"
        onFile={(file) => load(file.name, () => file.text())}
      >
        Load a curves file…
      </JsonFileButton>
    </div>
  );
}

/** The recorded runs on their own: what they are, the methods to draw, their charts and their table. */
export function RecordedRunsView({
  overlay,
  onChange,
  onClose,
}: {
  overlay: RecordedOverlay;
  onChange: (o: RecordedOverlay) => void;
  onClose: () => void;
}) {
  const { file, stats } = overlay;
  const steps = file.task.steps;
  const charted = [file.metrics[0], 'reward'].filter((m, i, all) => file.metrics.includes(m) && all.indexOf(m) === i);
  return (
    <section className="recorded-runs" data-testid="recorded-runs" aria-label="recorded runs">
      <h3>
        Recorded runs, not live: the leaderboard&apos;s {file.task.title}{' '}
        <button className="small-button" data-testid="recorded-close" onClick={onClose}>
          close
        </button>
      </h3>
      <p className="small muted" data-testid="recorded-summary">
        {recordedSummary(file)}, from {overlay.source}. Recorded curves are dashed; when an ablation runs or is
        imported, its charts above draw them too.
      </p>
      {file.notes.map((n, i) => (
        <p key={i} className="small" data-testid="recorded-note">
          <strong>Note.</strong> {n}
        </p>
      ))}
      <div className="row small recorded-methods" data-testid="recorded-methods">
        {stats.cells.map((c, i) => (
          <Checkbox
            key={c.label}
            style={{ color: recordedColor(stats, c.label) }}
            checked={overlay.shown.includes(c.label)}
            disabled={i === 0}
            onChange={() => onChange(toggleShown(overlay, c.label))}
          >
            {c.label}
          </Checkbox>
        ))}
      </div>
      <div className="ablation-figure">
        {charted.map((m) => (
          <BandFigure
            key={m}
            metric={m}
            steps={steps}
            series={recordedBandSeries(overlay, m)}
            caption={`${metricName(m)}: mean over seeds, 95% band (recorded)`}
            testId="recorded-curves"
            plotTestId={`plot-recorded-${m === file.metrics[0] ? 'main' : m}`}
          />
        ))}
        {stats.solved && (
          <SolvedFigure
            solved={stats.solved}
            steps={steps}
            series={recordedSolvedSeries(overlay)}
            testId="recorded-solved"
            plotTestId="plot-recorded-solved"
          />
        )}
      </div>
      <CellTable stats={stats} />
      {file.command && (
        <p className="small muted">
          Recorded with <code>{file.command}</code>
        </p>
      )}
    </section>
  );
}
