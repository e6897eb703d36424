// Every run kept in this browser: its label (what changed from the run before), overlay on the
// charts, export (CSV, JSON, checkpoint) and import (JSON run, .safetensors checkpoint).

import { useRef } from 'react';
import { useApp } from '../store/store';
import type { RunRecord } from '../store/kept-runs';
import { useController } from './context';
import { runColor } from './charts/chart-model';
import { formatNumber } from './format';
import { Checkbox } from './Checkbox';

export function RunsPanel() {
  const runs = useApp((s) => s.runs);
  const controller = useController();
  const fileInput = useRef<HTMLInputElement>(null);
  const hasModel = useApp((s) => s.trainerConfig !== null && s.status !== 'lost');
  return (
    <section className="panel runs" aria-label="runs">
      <h2>Runs</h2>
      {runs.length === 0 && (
        <p className="muted small">
          Each reset or config change starts a run; runs are kept here (and across reloads).
        </p>
      )}
      <ol className="run-list">
        {[...runs].reverse().map((r) => (
          <RunItem key={r.id} run={r} />
        ))}
      </ol>
      <div className="row">
        <button
          className="small-button"
          data-testid="export-checkpoint"
          disabled={!controller || !hasModel}
          onClick={() => controller?.exportCheckpoint()}
          title="The current weights as .safetensors (Hugging Face GPT-2 names, run config in the metadata)"
        >
          Save checkpoint
        </button>
        <button
          className="small-button"
          data-testid="import"
          disabled={!controller}
          onClick={() => fileInput.current?.click()}
          title="A run (.json) or a checkpoint (.safetensors)"
        >
          Import…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,.safetensors,application/json"
          hidden
          data-testid="import-file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file || !controller) return;
            controller.importFile(file.name, new Uint8Array(await file.arrayBuffer()));
          }}
        />
      </div>
    </section>
  );
}

function RunItem({ run }: { run: RunRecord }) {
  const controller = useController();
  const active = useApp((s) => s.activeRunId === run.id);
  const training = useApp((s) => s.activeRunId === run.id && s.status === 'running');
  const overlaid = useApp((s) => s.overlay.includes(run.id));
  const toggleOverlay = useApp((s) => s.toggleOverlay);
  const removeRun = useApp((s) => s.removeRun);
  const last = run.points[run.points.length - 1];
  return (
    <li
      className={`run-item${active ? ' active' : ''}`}
      data-testid="run-item"
      data-run-name={run.name}
      data-steps={run.points.length}
      data-training={String(training)}
    >
      <div className="run-head">
        <span className="swatch" style={{ background: runColor(run) }} />
        <b>{run.name}</b>{' '}
        <span className="run-label" data-testid="run-label" title={run.label}>
          {run.label}
        </span>
      </div>
      <div className="run-meta small muted">
        {run.config.task}
        {run.preset ? ` · ${run.preset}` : ''} · seed {run.config.seed} · {run.points.length} steps
        {last ? ` · reward ${formatNumber(last.scalars.reward)}` : ''}
        {training ? ' · training' : ''}
        {run.importedFrom ? ` · from ${run.importedFrom}` : ''}
      </div>
      <div className="run-actions">
        {active ? (
          <span className="small muted">on the charts</span>
        ) : (
          <Checkbox className="small" testId="run-overlay" checked={overlaid} onChange={() => toggleOverlay(run.id)}>
            overlay
          </Checkbox>
        )}
        <button className="small-button" data-testid="export-csv" onClick={() => controller?.exportRun(run.id, 'csv')}>
          CSV
        </button>
        <button
          className="small-button"
          data-testid="export-json"
          onClick={() => controller?.exportRun(run.id, 'json')}
        >
          JSON
        </button>
        {!active && (
          <button
            className="small-button"
            data-testid="run-remove"
            onClick={() => removeRun(run.id)}
            title="Forget this run"
          >
            ✕
          </button>
        )}
      </div>
    </li>
  );
}
