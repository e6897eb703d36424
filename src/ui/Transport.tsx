// Start, pause, one step, one phase, reset (same seed / new seed), speed; the step counter and
// the phase pipeline of the step in progress.

import type { Phase } from '../rl/trainer';
import { useApp } from '../store/store';
import { useController } from './context';

const PHASES: Phase[] = ['sample', 'verify', 'advantages', 'update'];

/** Speeds offered: delay between steps (ms). */
const SPEEDS: { label: string; delayMs: number }[] = [
  { label: 'fastest', delayMs: 0 },
  { label: '+0.1 s/step', delayMs: 100 },
  { label: '+0.5 s/step, phases', delayMs: 500 },
  { label: '+2 s/step, phases', delayMs: 2000 },
];

export function Transport() {
  const controller = useController();
  const status = useApp((s) => s.status);
  const delayMs = useApp((s) => s.delayMs);
  const running = status === 'running';
  const blocked = !controller || status === 'lost' || status === 'fault';
  return (
    <div className="transport" role="toolbar" aria-label="training controls">
      <button data-testid="start" disabled={blocked || running} onClick={() => controller?.start()} title="Train continuously">▶ Start</button>
      <button data-testid="pause" disabled={!controller || !running} onClick={() => controller?.pause()} title="Pause after the step in progress">❚❚ Pause</button>
      <button data-testid="step" disabled={blocked || running} onClick={() => controller?.step()} title="Exactly one whole step">Step</button>
      <button data-testid="phase-step" disabled={blocked || running} onClick={() => controller?.phase()} title="One phase of the step: sample → verify → advantages → update">Phase ›</button>
      <button data-testid="reset" disabled={!controller} onClick={() => controller?.reset()} title="A new run from the same initial weights (same seed), with the current config">↺ Reset</button>
      <button data-testid="reset-seed" disabled={!controller} onClick={() => controller?.resetWithNewSeed()} title="A new run with a new random seed">↺ New seed</button>
      <label className="speed" title="Pause between steps; at 0.5 s and slower each phase of a step is shown as it happens">
        speed{' '}
        <select data-testid="speed" value={delayMs} onChange={(e) => controller?.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => <option key={s.delayMs} value={s.delayMs}>{s.label}</option>)}
        </select>
      </label>
      <StepCounter />
      <PhasePipeline />
    </div>
  );
}

function StepCounter() {
  const step = useApp((s) => s.step);
  const steps = useApp((s) => s.trainerConfig?.steps ?? 0);
  const status = useApp((s) => s.status);
  return (
    <span className="step-counter">
      step <b data-testid="step-count">{step}</b>{steps > 0 ? <span className="muted"> / {steps}</span> : null}
      <span className={`status status-${status}`} data-testid="status">{status}</span>
    </span>
  );
}

function PhasePipeline() {
  const phase = useApp((s) => s.phase);
  const current = phase?.phase ?? null;
  return (
    <span className="phases" aria-label="phase of the step in progress">
      {PHASES.map((p, i) => (
        <span key={p} className={`phase-chip${p === current ? ' current' : ''}${current && PHASES.indexOf(current) > i ? ' done' : ''}`}>
          {p}
        </span>
      ))}
      <span className="phase-now">
        phase <b data-testid="phase" data-step={phase?.step ?? ''}>{current ?? '–'}</b>
      </span>
    </span>
  );
}
