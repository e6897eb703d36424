// The code panel: your own advantage estimator or reward shaping, written in the page and run
// beside the built-ins (docs/custom-estimators.md). The editor is its own chunk, loaded when the
// panel first shows. Code that came with a link or a file is shown with a note and never runs
// until Run is pressed here. A failure of the run's code is shown with its line marked.

import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { CODE_KINDS, CODE_KNOB, examplesOf, type CodeKind } from '../../config/custom-code';
import { useApp } from '../../store/store';
import { useController } from '../context';
import './code.css';

const CodeEditor = lazy(() => import('./CodeEditor'));

const TITLE: Record<CodeKind, string> = { estimator: 'advantage estimator', reward: 'reward shaping' };
const SWITCH: Record<CodeKind, { key: 'estimator' | 'rewardShaping'; off: string }> = {
  estimator: { key: 'estimator', off: 'grpo' },
  reward: { key: 'rewardShaping', off: 'none' },
};
const WHAT: Record<CodeKind, string> = {
  estimator:
    "advantages(batch) gets one step's rollouts — B, G, N, T, step, rewards, correct, lengths [N], mask and entropy [N·T], signatures, errorSignatures [N], promptKeys [B] — and returns N advantages (one per completion) or N·T (one per token).",
  reward:
    "rewards(batch) gets the verifier's results — B, G, N, T, step, rewards, correct, lengths, signatures, errorSignatures, completions (tokens) [N], prompts, promptKeys [B] — and returns N rewards, which the estimator then sees.",
};
/** Edits reach the config (and the URL) this long after the last key. */
const COMMIT_MS = 300;

export function CodePanel() {
  const controller = useController();
  const kind = useApp((s) => s.codeTab);
  const setCodeTab = useApp((s) => s.setCodeTab);
  const key = CODE_KNOB[kind];
  const code = useApp((s) => s.config[key]);
  const inUse = useApp((s) => s.config[SWITCH[kind].key] === 'custom');
  const review = useApp((s) => s.codeReview);
  const failure = useApp((s) => (s.codeFailure?.kind === kind ? s.codeFailure : null));
  const codeFault = useApp((s) => s.status === 'fault' && s.fault?.check === 'custom-code');
  const knobError = useApp((s) => s.knobErrors[key]);
  const setKnob = useApp((s) => s.setKnob);
  const [draft, setDraft] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  // The text that failed, so the editor marks its line only while it is still that text.
  const failedSource = useRef<string>(code);
  if (!failure) failedSource.current = code;

  const commit = (text: string | null = draft) => {
    window.clearTimeout(timer.current);
    if (text === null) return;
    if (!setKnob(key, text)) setDraft(null);
  };
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // Another kind, or another config: the draft of the old one is committed first.
  useEffect(() => setDraft(null), [kind]);

  const waiting = review !== null && review.sources.includes(code);
  const text = draft ?? code;
  return (
    <section className="panel code-panel" data-testid="code-panel" data-kind={kind} aria-label="your code">
      <div className="code-tabs" role="tablist">
        {CODE_KINDS.map((k) => (
          <button
            key={k}
            role="tab"
            aria-selected={k === kind}
            data-testid={`code-tab-${k}`}
            onClick={() => {
              commit();
              setCodeTab(k);
            }}
          >
            your {TITLE[k]}
          </button>
        ))}
      </div>
      {waiting && (
        <div className="message info code-review" data-testid="code-review" role="note">
          <b>This {review.source === 'file' ? 'file' : 'link'} brought this code. Nothing of it has run.</b> Read it
          first: it will run in a sandboxed worker, with no access to this page, but someone else wrote it. <b>Run</b>{' '}
          below runs it.
        </div>
      )}
      <p className="small code-what">
        {WHAT[kind]} The interface and every built-in as an example: <code>docs/custom-estimators.md</code>.
      </p>
      <label className="small">
        start from{' '}
        <select
          data-testid="code-example"
          value=""
          onChange={(e) => {
            const ex = examplesOf(kind).find((x) => x.id === e.target.value);
            if (!ex) return;
            window.clearTimeout(timer.current);
            setDraft(null);
            setKnob(key, ex.source);
          }}
        >
          <option value="">an example or a built-in… (Ctrl+Z undoes)</option>
          {examplesOf(kind).map((x) => (
            <option key={x.id} value={x.id}>
              {x.title}
            </option>
          ))}
        </select>
      </label>
      <Suspense
        fallback={
          <pre className="code-editor code-loading" data-testid="code-loading">
            {text}
          </pre>
        }
      >
        <CodeEditor
          value={text}
          label={`your ${TITLE[kind]}`}
          failure={failure ? { ...failure, source: failedSource.current } : null}
          onChange={(t) => {
            setDraft(t);
            window.clearTimeout(timer.current);
            timer.current = window.setTimeout(() => commit(t), COMMIT_MS);
          }}
        />
      </Suspense>
      {knobError && (
        <div className="knob-error" role="alert">
          {knobError}
        </div>
      )}
      {failure && (
        <div
          className="message error code-failure"
          data-testid="code-failure"
          data-line={failure.line ?? ''}
          role="alert"
        >
          <b>
            {failure.step !== undefined ? `Stopped at step ${failure.step}` : 'Did not load'}
            {failure.line !== undefined ? `, line ${failure.line}` : ''}:
          </b>{' '}
          {failure.message}
        </div>
      )}
      <div className="row">
        <button
          data-testid="code-run"
          onClick={() => {
            commit();
            controller?.runWithCode(kind);
          }}
        >
          ▶ Run {waiting ? 'this code' : `a new run with it`}
        </button>
        {codeFault && (
          <button
            data-testid="code-continue"
            onClick={() => {
              commit();
              controller?.continueAfterFault();
              controller?.start();
            }}
          >
            ▶ Continue the paused run with it
          </button>
        )}
        <label className="small code-use">
          <input
            type="checkbox"
            data-testid="code-use"
            checked={inUse}
            onChange={(e) => {
              commit();
              setKnob(SWITCH[kind].key, e.target.checked ? 'custom' : SWITCH[kind].off);
            }}
          />{' '}
          use it ({SWITCH[kind].key} = custom)
        </label>
      </div>
      <p className="small muted">
        It runs in the training worker's sandbox, loaded once per run; every step its output is checked (length, finite,
        inputs unchanged) and a call over the time limit (customTimeLimitMs) is stopped. A failure pauses the run with
        its line; the weights from before that step and the charts stay.
      </p>
    </section>
  );
}
