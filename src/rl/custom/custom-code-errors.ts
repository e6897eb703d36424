// What went wrong with custom code, and where: every failure (a syntax error, an exception, a
// wrong output, a time limit) becomes one CustomCodeError whose message names the code, the line
// and what to do, and whose `line` lets the page mark that line in its editor.

import { CODE_FUNCTION, CODE_NAME, functionLine, type CodeKind } from '../../config/user-code';
import type { SandboxError } from './sandbox';

export type CodeFailure = 'syntax' | 'load' | 'exception' | 'output' | 'mutation' | 'timeout';

/** Where a failure points in the code (for the editor's mark). */
export interface CodeLocation {
  kind: CodeKind;
  /** 1-based; absent when the engine gave no position. */
  line?: number;
  column?: number;
}

export class CustomCodeError extends Error {
  constructor(
    readonly kind: CodeKind,
    readonly failure: CodeFailure,
    /** What happened, without the code's name and line (the message has both). */
    readonly detail: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${CODE_NAME[kind]}${line !== undefined ? `, line ${line}` : ''}: ${detail}`);
    this.name = 'CustomCodeError';
  }

  get location(): CodeLocation {
    return {
      kind: this.kind,
      ...(this.line !== undefined ? { line: this.line } : {}),
      ...(this.column !== undefined ? { column: this.column } : {}),
    };
  }
}

/** The file name each kind's code has in stack traces. */
export function codeFile(kind: CodeKind): string {
  return kind === 'estimator' ? 'your-estimator.js' : 'your-reward.js';
}

/** Length of the runtime's prefix on the code's first line (./runtime.ts, compile). */
const FIRST_LINE_PREFIX = '(function (exports, require, module) {"use strict";'.length;

/**
 * The first position in `file` a stack trace names, as 1-based line and column of the code;
 * `shift` is what the transpiler put before the first line.
 */
export function stackPosition(stack: string, file: string, shift = 0): { line: number; column?: number } | undefined {
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`${escaped}:(\\d+):(\\d+)`).exec(stack);
  if (!m) return undefined;
  const line = Number(m[1]);
  const column = Number(m[2]);
  return { line, column: line === 1 ? Math.max(1, column - FIRST_LINE_PREFIX - shift) : column };
}

/** An error the code threw (while loading or in a call), located by its stack. */
export function thrownError(
  kind: CodeKind,
  source: string,
  e: SandboxError,
  during: 'load' | 'call',
  shift = 0,
): CustomCodeError {
  const at = stackPosition(e.stack, codeFile(kind), shift);
  const what = e.name && e.message.startsWith(e.name) ? e.message : `${e.name}: ${e.message}`;
  if (during === 'load') {
    if (e.name === 'SyntaxError')
      return new CustomCodeError(kind, 'syntax', `${what} (while loading the code)`, at?.line, at?.column);
    const missing = /^the code must define function/.test(e.message);
    return new CustomCodeError(
      kind,
      'load',
      missing ? e.message : `${what} (while loading the code)`,
      missing ? undefined : (at?.line ?? functionLine(source, kind)),
      at?.column,
    );
  }
  // No position (a thrown string, an error made elsewhere): the function's own line.
  return new CustomCodeError(
    kind,
    'exception',
    `${CODE_FUNCTION[kind]}(batch) threw ${what}`,
    at?.line ?? functionLine(source, kind),
    at?.column,
  );
}
