// Messages for the person: bad URL values, a training fault, a lost device, worker errors,
// config edits waiting for a reset, and notices (imports, exports).

import { useEffect, useState, type ReactNode } from 'react';
import { diffLabel } from '../config';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store/store';
import { useController } from './context';

export function Messages() {
  return (
    <div className="messages">
      <UrlErrors />
      <FaultMessage />
      <DeviceLost />
      <WorkerError />
      <PendingConfig />
      <KeptRun />
      <Notice />
    </div>
  );
}

/** One message's box: `title` leads in bold, then the text and its buttons. */
function Banner({
  kind,
  testId,
  title,
  check,
  alert = false,
  children,
}: {
  kind: 'error' | 'info';
  testId: string;
  title?: string;
  /** The fault's check (data-check, for the page's tests). */
  check?: string;
  /** Announced at once by a screen reader (role alert). */
  alert?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={`message ${kind}`} data-testid={testId} data-check={check} role={alert ? 'alert' : undefined}>
      {title !== undefined && (
        <>
          <b>{title}</b>{' '}
        </>
      )}
      {children}
    </div>
  );
}

/** The small button that closes a message for good. */
function DismissButton({ onClick, testId }: { onClick: () => void; testId?: string }) {
  return (
    <button className="small-button" data-testid={testId} onClick={onClick}>
      dismiss
    </button>
  );
}

function UrlErrors() {
  const errors = useApp((s) => s.urlErrors);
  const setUrlErrors = useApp((s) => s.setUrlErrors);
  if (errors.length === 0) return null;
  return (
    <Banner kind="error" alert testId="url-errors" title="Some values in the URL were not used">
      (the preset or default value is used instead):
      <ul>
        {errors.map((e, i) => (
          <li key={i}>
            <code>{e.knob}</code>: {e.message}
          </li>
        ))}
      </ul>
      <DismissButton onClick={() => setUrlErrors([])} />
    </Banner>
  );
}

function FaultMessage() {
  const { fault, status, view, setDrawer } = useApp(
    useShallow((s) => ({ fault: s.fault, status: s.status, view: s.view, setDrawer: s.setDrawer })),
  );
  const changed = useApp((s) => (s.trainerConfig ? diffLabel(s.trainerConfig, s.config, { max: 4 }) : ''));
  if (!fault || status !== 'fault') return null;
  if (fault.check === 'custom-code') return <CodeFault step={fault.step} message={fault.message} />;
  const blowUp = fault.check !== undefined && fault.check !== 'non-finite';
  return (
    <Banner
      kind="error"
      alert
      testId="fault"
      check={fault.check ?? ''}
      title={`Training paused at step ${fault.step}: ${blowUp ? 'the update blew up.' : 'a non-finite value.'}`}
    >
      {fault.message}
      {fault.tensors.length > 0 && <div className="small">Tensors: {fault.tensors.join(', ')}</div>}
      <div className="small">
        The weights from before that step are kept.{' '}
        {blowUp ? 'A lower learning rate (lr) usually helps: ' : 'Change a setting if you like '}(
        {view === 'lecture' ? (
          <button className="link-button" onClick={() => setDrawer('settings')}>
            settings
          </button>
        ) : (
          'settings on the left'
        )}
        ), then continue from there{changed ? ` with ${changed}` : ''}, or start over.
      </div>
      <FaultWayOn continueText="Continue with the current settings" />
    </Banner>
  );
}

/** A fault's two ways on: continue from the weights kept from before the step (`continueText`: with what), or reset. */
function FaultWayOn({ continueText, children }: { continueText: string; children?: ReactNode }) {
  const controller = useController();
  return (
    <div className="row">
      {children}
      <button data-testid="fault-continue" onClick={() => controller?.continueAfterFault()}>
        {continueText}
      </button>
      <button className="small-button" onClick={() => controller?.reset()}>
        Reset (fresh weights)
      </button>
    </div>
  );
}

/** The run's own code failed at a step: nothing was trained on it; fix the code and continue. */
function CodeFault({ step, message }: { step: number; message: string }) {
  const view = useApp((s) => s.view);
  const setDrawer = useApp((s) => s.setDrawer);
  return (
    <Banner
      kind="error"
      alert
      testId="fault"
      check="custom-code"
      title={`Training paused at step ${step}: your code failed.`}
    >
      {message}
      <FaultWayOn continueText="Continue with the code as it is now">
        {view === 'lecture' && (
          <button data-testid="fault-open-code" onClick={() => setDrawer('code')}>
            Show the code
          </button>
        )}
      </FaultWayOn>
    </Banner>
  );
}

function DeviceLost() {
  const { status, error, checkpointStep } = useApp(
    useShallow((s) => ({ status: s.status, error: s.error, checkpointStep: s.checkpointStep })),
  );
  const controller = useController();
  if (status !== 'lost') return null;
  return (
    <Banner kind="error" alert testId="device-lost" title="The GPU device was lost.">
      {error?.message} This happens when the GPU driver resets, the system sleeps, or another program takes the GPU. The
      page kept{' '}
      {checkpointStep !== null
        ? `a checkpoint from step ${checkpointStep}`
        : 'no checkpoint yet (the run restarts from its initial weights)'}
      .
      <div>
        <button data-testid="resume" onClick={() => controller?.resume()}>
          Resume from last saved state
        </button>
      </div>
    </Banner>
  );
}

function WorkerError() {
  const { status, error, dismiss } = useApp(
    useShallow((s) => ({ status: s.status, error: s.error, dismiss: s.dismissError })),
  );
  if (status !== 'error' || !error) return null;
  const title =
    error.kind === 'config'
      ? 'This config cannot run'
      : error.kind === 'no-webgpu'
        ? 'WebGPU is not available in the worker'
        : 'Something went wrong';
  return (
    <Banner kind="error" alert testId="error" title={`${title}:`}>
      {error.message}
      <div>
        <DismissButton onClick={dismiss} />
      </div>
    </Banner>
  );
}

function KeptRun() {
  const kept = useApp((s) => s.keptRun);
  const run = useApp((s) => (s.keptRun ? s.runs.find((r) => r.id === s.keptRun!.runId) : undefined));
  const setKeptRun = useApp((s) => s.setKeptRun);
  const controller = useController();
  if (!kept || !run) return null;
  // The run's charts may go past the kept checkpoint (it is saved every few steps): say both.
  const reached = run.points.length > 0 ? run.points[run.points.length - 1].step : kept.step;
  const saved =
    reached > kept.step
      ? `its weights were last saved at step ${kept.step}, so it goes on from there (steps ${kept.step + 1}–${reached} run again).`
      : 'its weights from then were kept.';
  return (
    <Banner kind="info" testId="kept-run">
      Run {run.name} ({run.label}) was at step {reached} when the page was left; {saved}{' '}
      <button className="small-button" data-testid="continue-kept" onClick={() => controller?.continueKeptRun()}>
        Continue that run
      </button>{' '}
      <DismissButton onClick={() => setKeptRun(null)} />
    </Banner>
  );
}

function PendingConfig() {
  const config = useApp((s) => s.config);
  const trainerConfig = useApp((s) => s.trainerConfig);
  const step = useApp((s) => s.step);
  const controller = useController();
  // Dismissed for this difference only: another change shows the banner again.
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!trainerConfig || step === 0 || trainerConfig === config) return null;
  const diff = diffLabel(trainerConfig, config, { max: 4 });
  if (!diff || diff === dismissed) return null;
  return (
    <Banner kind="info" testId="pending-config">
      Config changed ({diff}). The current run keeps its config;{' '}
      <button className="small-button" onClick={() => controller?.reset()}>
        Reset
      </button>{' '}
      starts a new run with the new one.{' '}
      <DismissButton testId="dismiss-pending-config" onClick={() => setDismissed(diff)} />
    </Banner>
  );
}

/** An info notice goes by itself after this long; an error stays until dismissed. */
const INFO_NOTICE_MS = 8000;

function Notice() {
  const notice = useApp((s) => s.notice);
  const clear = useApp((s) => s.clearNotice);
  useEffect(() => {
    if (notice?.kind !== 'info') return;
    const timer = window.setTimeout(clear, INFO_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [notice, clear]);
  if (!notice) return null;
  return (
    // An error (a file refused, an export that failed) is announced at once; an info notice waits its turn.
    <Banner kind={notice.kind} testId="notice" alert={notice.kind === 'error'}>
      {notice.text}{' '}
      <button className="small-button" onClick={clear}>
        ok
      </button>
    </Banner>
  );
}
