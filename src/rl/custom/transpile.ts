// TypeScript or JavaScript → the JavaScript the sandbox evaluates, with sucrase (type
// annotations removed, `export` turned into assignments), every line kept on its line so a
// position in the output is the same position in what the person wrote. A syntax error becomes
// a CustomCodeError with its line and column. sucrase is loaded on first use only, so a run
// without custom code never downloads it.

import type { CodeKind } from '../../config/user-code';
import { CustomCodeError } from './custom-code-errors';

type Transform = (
  code: string,
  options: { transforms: ('typescript' | 'imports')[]; disableESTransforms: boolean; production: boolean },
) => { code: string };

let transform: Promise<Transform> | null = null;

async function sucrase(): Promise<Transform> {
  transform ??= import('sucrase').then((m) => m.transform as unknown as Transform);
  return transform;
}

/** The error sucrase throws: "Unexpected token (3:5)" with `loc` (1-based line, 1-based column). */
interface ParseError {
  message: string;
  loc?: { line: number; column: number };
}

export interface Transpiled {
  js: string;
  /** Characters sucrase put before the code's first line ("use strict"; and export helpers). */
  firstLineShift: number;
}

export async function transpile(kind: CodeKind, source: string): Promise<Transpiled> {
  const run = await sucrase();
  try {
    const js = run(source, { transforms: ['typescript', 'imports'], disableESTransforms: true, production: true }).code;
    const first = source.split('\n', 1)[0];
    const out = js.split('\n', 1)[0];
    return { js, firstLineShift: out.endsWith(first) ? out.length - first.length : 0 };
  } catch (e) {
    const err = e as ParseError;
    const detail = String(err.message ?? e).replace(/\s*\(\d+:\d+\)\s*$/, '');
    throw new CustomCodeError(kind, 'syntax', `SyntaxError: ${detail}`, err.loc?.line, err.loc?.column);
  }
}
