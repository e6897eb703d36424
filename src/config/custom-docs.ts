// The examples section of docs/custom-estimators.md, generated from src/config/code-examples.ts so
// the page and the docs show the same code. Regenerate with:
//   npx tsx src/config/custom-docs.ts   (rewrites the section; a test compares it)

import { CODE_FUNCTION } from './user-code';
import { CODE_EXAMPLES } from './code-examples';

export const EXAMPLES_BEGIN =
  '<!-- examples: generated from src/config/code-examples.ts by src/config/custom-docs.ts; do not edit by hand -->';
export const EXAMPLES_END = '<!-- end of examples -->';

/** The generated section, markers included. */
export function examplesMarkdown(): string {
  const out = [EXAMPLES_BEGIN, ''];
  for (const e of CODE_EXAMPLES) {
    const what = e.builtin ? ` — reproduces the built-in \`${e.builtin}\` bit for bit` : '';
    out.push(
      `### ${e.title} (\`${e.id}\`, ${CODE_FUNCTION[e.kind]}(batch))${what}`,
      '',
      '```js',
      e.source.trimEnd(),
      '```',
      '',
    );
  }
  out.push(EXAMPLES_END);
  return out.join('\n');
}

/** The doc with its examples section replaced by the generated one. */
export function withExamples(doc: string): string {
  const a = doc.indexOf(EXAMPLES_BEGIN);
  const b = doc.indexOf(EXAMPLES_END);
  if (a < 0 || b < a) throw new Error('docs/custom-estimators.md has no examples markers');
  return doc.slice(0, a) + examplesMarkdown() + doc.slice(b + EXAMPLES_END.length);
}

if (typeof process !== 'undefined' && process.argv[1]?.endsWith('custom-docs.ts')) {
  const { readFileSync, writeFileSync } = await import('node:fs');
  const path = new URL('../../docs/custom-estimators.md', import.meta.url);
  writeFileSync(path, withExamples(readFileSync(path, 'utf8')));
}
