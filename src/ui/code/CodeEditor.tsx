// The code editor (CodeMirror 6), loaded in its own chunk when the code panel first opens:
// JavaScript/TypeScript highlighting, line numbers, undo, and diagnostics on their line — syntax
// errors as you type (the parser's error nodes, nothing is run), and the line where a run's
// code failed, while the text is still the text that failed.

import { useEffect, useRef } from 'react';
import { EditorState, StateEffect } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  bracketMatching,
  defaultHighlightStyle,
  ensureSyntaxTree,
  indentOnInput,
  LanguageSupport,
  syntaxHighlighting,
} from '@codemirror/language';
// The TypeScript dialect of the JavaScript grammar (it reads plain JavaScript too), without the
// package's completions: a lean chunk.
import { typescriptLanguage } from '@codemirror/lang-javascript';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';

/** Dispatched when the run's failure changes: the linter runs again to mark (or unmark) its line. */
const failureChanged = StateEffect.define<null>();

export interface EditorFailure {
  line?: number;
  column?: number;
  message: string;
  /** The text that failed: the mark is shown while the text is still this. */
  source: string;
}

export interface CodeEditorProps {
  value: string;
  onChange(text: string): void;
  failure: EditorFailure | null;
  /** For screen readers: what is being edited. */
  label: string;
}

/** Syntax errors as the parser sees them: the first few error nodes (no code is run). */
function syntaxDiagnostics(state: EditorState): Diagnostic[] {
  const tree = ensureSyntaxTree(state, state.doc.length, 200);
  const out: Diagnostic[] = [];
  tree?.iterate({
    enter(node) {
      if (out.length < 5 && node.type.isError) {
        const from = Math.min(node.from, state.doc.length);
        out.push({
          from,
          to: Math.min(state.doc.length, Math.max(node.to, from + 1)),
          severity: 'error',
          message: 'Syntax error here',
        });
      }
    },
  });
  return out;
}

function failureDiagnostic(state: EditorState, f: EditorFailure | null): Diagnostic[] {
  if (!f || f.line === undefined || state.doc.toString() !== f.source) return [];
  const line = state.doc.line(Math.min(Math.max(1, f.line), state.doc.lines));
  const from = f.column !== undefined ? Math.min(line.to, line.from + Math.max(0, f.column - 1)) : line.from;
  return [{ from, to: Math.max(from, line.to), severity: 'error', message: f.message }];
}

export default function CodeEditor({ value, onChange, failure, label }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, failure });
  latest.current = { onChange, failure };

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          new LanguageSupport(typescriptLanguage),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          lintGutter(),
          linter((v) => [...failureDiagnostic(v.state, latest.current.failure), ...syntaxDiagnostics(v.state)], {
            delay: 300,
            needsRefresh: (u) => u.transactions.some((tr) => tr.effects.some((e) => e.is(failureChanged))),
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'code-editor-content' }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Made once; later values arrive through the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A value from outside (an example picked, another config): replace the text, undoably.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value)
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  const failureKey = failure ? `${failure.line}:${failure.column}:${failure.message}` : '';
  useEffect(() => {
    view.current?.dispatch({ effects: failureChanged.of(null) });
  }, [failureKey]);

  return <div className="code-editor" ref={host} data-testid="code-editor" />;
}
