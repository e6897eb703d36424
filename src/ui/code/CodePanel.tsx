// The code panel: your own advantage estimator or reward shaping, written in the page and run
// beside the built-ins (docs/custom-estimators.md). The editor is its own chunk, loaded when the
// panel first shows. Code that came with a link or a file is shown with a note and never runs
// until Run is pressed here. A failure of the run's code is shown with its line marked.

import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { CODE_KINDS, CODE_KNOB, type CodeKind } from '../../config/user-code';
import { examplesOf } from '../../config/code-examples';
import { useApp } from '../../store/store';
import type { CodeFailure } from '../../store/codeSlice';
import { useController } from '../context';
import { Checkbox } from '../Checkbox';
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

/**
 * The text being edited: a draft while keys come, committed to the config (and the URL)
 * COMMIT_MS after the last one, or at once by `commit` before anything that reads the config.
 */
function useCodeDraft(kind: CodeKind, code: string) {
  const key = CODE_KNOB[kind];
  const setKnob = useApp((s) => s.setKnob);
  const [draft, setDraft] = useState<string | null>(null);
  const timer = useRef<number | undefined>(undefined);

  const commit = (text: string | null = draft) => {
    window.clearTimeout(timer.current);
    if (text === null) return;
    if (!setKnob(key, text)) setDraft(null);
  };
  useEffect(() => () => window.clearTimeout(timer.current), []);
  // Another kind, or another config: the draft of the old one is committed first.
  useEffect(() => setDraft(null), [kind]);

  const edit = (t: string) => {
    setDraft(t);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => commit(t), COMMIT_MS);
  };
  /** The whole text replaced (an example picked): no draft left to commit. */
  const replace = (source: string) => {
    window.clearTimeout(timer.current);
    setDraft(null);
    setKnob(key, source);
  };
  return { text: draft ?? code, commit, edit, replace };
}

export function CodePanel() {
  const kind = useApp((s) => s.codeTab);
  const setCodeTab = useApp((s) => s.setCodeTab);
  const key = CODE_KNOB[kind];
  const code = useApp((s) => s.config[key]);
  const review = useApp((s) => s.codeReview);
  const failure = useApp((s) => (s.codeFailure?.kind === kind ? s.codeFailure : null));
  const knobError = useApp((s) => s.knobErrors[key]);
  const { text, commit, edit, replace } = useCodeDraft(kind, code);
  // The text that failed, so the editor marks its line only while it is still that text.
  const failedSource = useRef<string>(code);
  if (!failure) failedSource.current = code;

  const waiting = review !== null && review.sources.includes(code);
  return (
    <section className="panel code-panel" data-testid="code-panel" data-kind={kind} aria-label="your code">
      <CodeTabs
        kind={kind}
        onPick={(k) => {
          commit();
          setCodeTab(k);
        }}
      />
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
      <ExamplePicker kind={kind} onPick={replace} />
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
          onChange={edit}
        />
      </Suspense>
      {knobError && (
        <div className="knob-error" role="alert">
          {knobError}
        </div>
      )}
      {failure && <FailureNote failure={failure} />}
      <CodeActions kind={kind} waiting={waiting} commit={commit} />
      <p className="small muted">
        It runs in the training worker's sandbox, loaded once per run; every step its output is checked (length, finite,
        inputs unchanged) and a call over the time limit (customTimeLimitMs) is stopped. A failure pauses the run with
        its line; the weights from before that step and the charts stay.
      </p>
    </section>
  );
}

/** The tabs: your advantage estimator, your reward shaping. */
function CodeTabs({ kind, onPick }: { kind: CodeKind; onPick: (k: CodeKind) => void }) {
  return (
    <div className="code-tabs" role="tablist">
      {CODE_KINDS.map((k) => (
        <button key={k} role="tab" aria-selected={k === kind} data-testid={`code-tab-${k}`} onClick={() => onPick(k)}>
          your {TITLE[k]}
        </button>
      ))}
    </div>
  );
}

/** "start from": an example or a built-in of this kind, replacing the text. */
function ExamplePicker({ kind, onPick }: { kind: CodeKind; onPick: (source: string) => void }) {
  return (
    <label className="small">
      start from{' '}
      <select
        data-testid="code-example"
        value=""
        onChange={(e) => {
          const ex = examplesOf(kind).find((x) => x.id === e.target.value);
          if (!ex) return;
          onPick(ex.source);
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
  );
}

/** A failure of the run's code: where it stopped (or that it did not load), its line and message. */
function FailureNote({ failure }: { failure: CodeFailure }) {
  return (
    <div className="message error code-failure" data-testid="code-failure" data-line={failure.line ?? ''} role="alert">
      <b>
        {failure.step !== undefined ? `Stopped at step ${failure.step}` : 'Did not load'}
        {failure.line !== undefined ? `, line ${failure.line}` : ''}:
      </b>{' '}
      {failure.message}
    </div>
  );
}

/** Run, continue after the code's fault, and the switch that turns the code on; each commits the draft first. */
function CodeActions({ kind, waiting, commit }: { kind: CodeKind; waiting: boolean; commit: () => void }) {
  const controller = useController();
  const inUse = useApp((s) => s.config[SWITCH[kind].key] === 'custom');
  const codeFault = useApp((s) => s.status === 'fault' && s.fault?.check === 'custom-code');
  const setKnob = useApp((s) => s.setKnob);
  return (
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
      <Checkbox
        className="small code-use"
        testId="code-use"
        checked={inUse}
        onChange={(use) => {
          commit();
          setKnob(SWITCH[kind].key, use ? 'custom' : SWITCH[kind].off);
        }}
      >
        use it ({SWITCH[kind].key} = custom)
      </Checkbox>
    </div>
  );
}
