// Messages for the person: bad URL values, a training fault, a lost device, worker errors,
// config edits waiting for a reset, and notices (imports, exports).

import { useEffect } from 'react';
import { diffLabel } from '../config';
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
      <Notice />
    </div>
  );
}

function UrlErrors() {
  const errors = useApp((s) => s.urlErrors);
  const setUrlErrors = useApp((s) => s.setUrlErrors);
  if (errors.length === 0) return null;
  return (
    <div className="message error" data-testid="url-errors" role="alert">
      <b>Some values in the URL were not used</b> (the preset or default value is used instead):
      <ul>
        {errors.map((e, i) => <li key={i}><code>{e.knob}</code>: {e.message}</li>)}
      </ul>
      <button className="small-button" onClick={() => setUrlErrors([])}>dismiss</button>
    </div>
  );
}

function FaultMessage() {
  const fault = useApp((s) => s.fault);
  const status = useApp((s) => s.status);
  const controller = useController();
  if (!fault || status !== 'fault') return null;
  return (
    <div className="message error" data-testid="fault" role="alert">
      <b>Training paused: a non-finite value at step {fault.step}.</b> {fault.message}
      {fault.tensors.length > 0 && <div className="small">Tensors: {fault.tensors.join(', ')}</div>}
      <div>
        <button className="small-button" onClick={() => controller?.reset()}>Reset with the current config</button>
      </div>
    </div>
  );
}

function DeviceLost() {
  const status = useApp((s) => s.status);
  const error = useApp((s) => s.error);
  const checkpointStep = useApp((s) => s.checkpointStep);
  const controller = useController();
  if (status !== 'lost') return null;
  return (
    <div className="message error" data-testid="device-lost" role="alert">
      <b>The GPU device was lost.</b> {error?.message} This happens when the GPU driver resets, the
      system sleeps, or another program takes the GPU. The page kept{' '}
      {checkpointStep !== null ? `a checkpoint from step ${checkpointStep}` : 'no checkpoint yet (the run restarts from its initial weights)'}.
      <div>
        <button data-testid="resume" onClick={() => controller?.resume()}>Resume from last saved state</button>
      </div>
    </div>
  );
}

function WorkerError() {
  const status = useApp((s) => s.status);
  const error = useApp((s) => s.error);
  const dismiss = useApp((s) => s.dismissError);
  if (status !== 'error' || !error) return null;
  const title = error.kind === 'config' ? 'This config cannot run' : error.kind === 'no-webgpu' ? 'WebGPU is not available in the worker' : 'Something went wrong';
  return (
    <div className="message error" data-testid="error" role="alert">
      <b>{title}:</b> {error.message}
      <div><button className="small-button" onClick={dismiss}>dismiss</button></div>
    </div>
  );
}

function PendingConfig() {
  const config = useApp((s) => s.config);
  const trainerConfig = useApp((s) => s.trainerConfig);
  const step = useApp((s) => s.step);
  const controller = useController();
  if (!trainerConfig || step === 0 || trainerConfig === config) return null;
  const diff = diffLabel(trainerConfig, config, { max: 4 });
  if (!diff) return null;
  return (
    <div className="message info" data-testid="pending-config">
      Config changed ({diff}). The current run keeps its config; <button className="small-button" onClick={() => controller?.reset()}>Reset</button> starts a new run with the new one.
    </div>
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
    <div className={`message ${notice.kind}`} data-testid="notice">
      {notice.text} <button className="small-button" onClick={clear}>ok</button>
    </div>
  );
}
