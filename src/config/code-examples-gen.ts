// Generates the built-in estimators' custom-code examples from their TypeScript source
// (src/estimators/), so the page's examples are the built-ins' own code and never a copy to keep
// in step. For each row of the estimator table: the functions its estimator needs (found by name
// in src/estimators/, types removed with sucrase), the knobs it reads as OPTIONS at their
// defaults, and advantages(batch) calling it; formatted with prettier. Regenerate with:
//   npx tsx src/config/code-examples-gen.ts   (rewrites code-examples.generated.json; a test compares it)
// Run by that command and by its test only: the page loads the JSON, not this file.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { transform } from 'sucrase';
import { format, resolveConfig } from 'prettier';
import { estimatorRows, type EstimatorRow } from '../estimators';
import { findKnob, formatValue } from './knobs';

const ESTIMATORS_DIR = new URL('../estimators/', import.meta.url);
export const GENERATED_PATH = new URL('./code-examples.generated.json', import.meta.url);

/** Files of src/estimators/ that hold no estimator code. */
const NOT_CODE = new Set(['index.ts', 'table.ts', 'types.ts']);

/** One top-level function or constant of src/estimators/: its file, its text and the names it uses. */
interface Declaration {
  file: string;
  text: string;
  uses: Set<string>;
}

function identifiersIn(node: ts.Node, out: Set<string>): Set<string> {
  if (ts.isIdentifier(node)) out.add(node.text);
  ts.forEachChild(node, (child) => void identifiersIn(child, out));
  return out;
}

/** Every top-level function and constant of src/estimators/ by name, in file order. */
function declarations(): Map<string, Declaration> {
  const out = new Map<string, Declaration>();
  const files = readdirSync(ESTIMATORS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  for (const file of files.filter((f) => !NOT_CODE.has(f)).sort()) {
    const text = readFileSync(new URL(file, ESTIMATORS_DIR), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    for (const st of source.statements) {
      const names = ts.isFunctionDeclaration(st)
        ? [st.name?.text ?? '']
        : ts.isVariableStatement(st)
          ? st.declarationList.declarations.map((d) => d.name.getText(source))
          : [];
      // Its own comment (the one right above it, not a file's header before a blank line) and code, without `export`.
      const leading =
        text
          .slice(st.getFullStart(), st.getStart(source))
          .split(/\n\s*\n/)
          .pop() ?? '';
      const own = (leading.trim() + '\n' + st.getText(source)).trim().replace(/^export /m, '');
      for (const name of names) out.set(name, { file, text: own, uses: identifiersIn(st, new Set()) });
    }
  }
  return out;
}

/** The declarations `entry` needs, each once, the ones it uses before it. */
function closure(entry: string, all: Map<string, Declaration>): Declaration[] {
  const seen = new Set<string>();
  const order: Declaration[] = [];
  const visit = (name: string): void => {
    const d = all.get(name);
    if (!d || seen.has(name)) return;
    seen.add(name);
    for (const used of d.uses) if (used !== name) visit(used);
    order.push(d);
  };
  visit(entry);
  if (order.length === 0) throw new Error(`no function ${entry} in src/estimators/`);
  return order;
}

/** The knobs line: each knob the row reads at its default, and what else it may be. */
function optionsLine(row: EstimatorRow): string[] {
  if (row.params.length === 0) return [];
  const entries = row.params.map((key) => {
    const knob = findKnob(key);
    if (!knob) throw new Error(`estimator ${row.name}: params names ${key}, which is no knob`);
    return { key, knob };
  });
  const literal = entries.map(({ key, knob }) => `${key}: ${JSON.stringify(knob.default)}`).join(', ');
  const notes = entries.map(({ key, knob }) =>
    knob.values ? `${key}: ${knob.values.join(', ')}` : `${key}: ${formatValue(knob.min ?? '')} to ${knob.max}`,
  );
  return [`// Its knobs, at their defaults (${notes.join('; ')}).`, `const OPTIONS = { ${literal} };`];
}

/** The example of one row, before formatting. */
function exampleSource(row: EstimatorRow, all: Map<string, Declaration>): string {
  const example = row.example || undefined;
  const entry = example?.entry ?? row.advantages.name;
  const parts = closure(entry, all);
  const file = parts[parts.length - 1].file;
  const args = ['batch', ...(row.params.length > 0 ? ['OPTIONS'] : []), ...(example ? ['STATE'] : [])];
  const header = [
    `// ${row.title}: the built-in estimator "${row.name}", written as your code (${row.doc}).`,
    `// From: ${row.paper}.`,
    `// Generated from its source, src/estimators/${file}: it computes exactly what the built-in does.`,
  ];
  const state = example ? [`const STATE = ${example.state}; // ${example.stateDoc}`] : [];
  const body = [
    header.join('\n'),
    [...optionsLine(row), ...state].join('\n'),
    ...parts.map((d) => d.text),
    `function advantages(batch) {\n  return ${entry}(${args.join(', ')});\n}`,
  ].filter((p) => p !== '');
  return body.join('\n\n') + '\n';
}

/** Every row's example (rows with `example: false` have none), by estimator name. */
export async function generateExamples(): Promise<Record<string, string>> {
  const all = declarations();
  const options = { ...(await resolveConfig(GENERATED_PATH.pathname)), parser: 'babel' };
  const out: Record<string, string> = {};
  for (const row of estimatorRows()) {
    if (row.example === false) continue;
    const js = transform(exampleSource(row, all), { transforms: ['typescript'], disableESTransforms: true }).code;
    out[row.name] = await format(js, options);
  }
  return out;
}

/** The JSON file's text. */
export async function generatedJson(): Promise<string> {
  const options = { ...(await resolveConfig(GENERATED_PATH.pathname)), parser: 'json' };
  return format(JSON.stringify(await generateExamples(), null, 2), options);
}

if (typeof process !== 'undefined' && process.argv[1]?.endsWith('code-examples-gen.ts')) {
  writeFileSync(GENERATED_PATH, await generatedJson());
}
