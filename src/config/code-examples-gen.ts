// Generates the built-in estimators' custom-code examples from their TypeScript source
// (src/estimators/), so the page's examples are the built-ins' own code and never a copy to keep
// in step. For each row of the estimator table: the functions its estimator needs (found by name
// in src/estimators/, types removed with sucrase), the knobs it reads as OPTIONS at their
// defaults, and advantages(batch) calling it; likewise each weighted example (a built-in with a
// group weight on its output, code-examples-weighted.ts); formatted with prettier. Regenerate with:
//   npx tsx src/config/code-examples-gen.ts   (rewrites code-examples.generated.json; a test compares it)
// Run by that command and by its test only: the page loads the JSON, not this file.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { transform } from 'sucrase';
import { format, resolveConfig } from 'prettier';
import { estimatorRow, estimatorRows, type EstimatorRow } from '../estimators';
import { WEIGHTED_EXAMPLES, type WeightedExample } from './code-examples-weighted';
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

/** The declarations `entries` need, each once, the ones a declaration uses before it. */
function closure(entries: readonly string[], all: Map<string, Declaration>): Declaration[] {
  const seen = new Set<string>();
  const order: Declaration[] = [];
  const visit = (name: string): void => {
    const d = all.get(name);
    if (!d || seen.has(name)) return;
    seen.add(name);
    for (const used of d.uses) if (used !== name) visit(used);
    order.push(d);
  };
  for (const entry of entries) {
    if (!all.has(entry)) throw new Error(`no function ${entry} in src/estimators/`);
    visit(entry);
  }
  return order;
}

/** The knobs line: each knob at its default (or at `set`'s value), and what else it may be. */
function optionsLine(keys: readonly string[], set: Readonly<Record<string, number>> = {}): string[] {
  if (keys.length === 0) return [];
  const entries = keys.map((key) => {
    const knob = findKnob(key);
    if (!knob) throw new Error(`code example: ${key} is no knob`);
    return { key, knob };
  });
  const literal = entries.map(({ key, knob }) => `${key}: ${JSON.stringify(set[key] ?? knob.default)}`).join(', ');
  const notes = entries.map(({ key, knob }) =>
    knob.values ? `${key}: ${knob.values.join(', ')}` : `${key}: ${formatValue(knob.min ?? '')} to ${knob.max}`,
  );
  const changed = Object.entries(set).map(([key, value]) => `${key} = ${value}`);
  const at = changed.length > 0 ? `at their defaults but ${changed.join(', ')}` : 'at their defaults';
  return [`// Its knobs, ${at} (${notes.join('; ')}).`, `const OPTIONS = { ${literal} };`];
}

/** An example's text, before formatting: header, knobs and state, the functions, then advantages(batch). */
function assemble(header: string[], settings: string[], parts: Declaration[], call: string): string {
  const body = [
    header.join('\n'),
    settings.join('\n'),
    ...parts.map((d) => d.text),
    `function advantages(batch) {\n  return ${call};\n}`,
  ].filter((p) => p !== '');
  return body.join('\n\n') + '\n';
}

/** The example of one row, before formatting. */
function exampleSource(row: EstimatorRow, all: Map<string, Declaration>): string {
  const example = row.example || undefined;
  const entry = example?.entry ?? row.advantages.name;
  const parts = closure([entry], all);
  const file = parts[parts.length - 1].file;
  const args = ['batch', ...(row.params.length > 0 ? ['OPTIONS'] : []), ...(example ? ['STATE'] : [])];
  const header = [
    `// ${row.title}: the built-in estimator "${row.name}", written as your code (${row.doc}).`,
    `// From: ${row.paper}.`,
    `// Generated from its source, src/estimators/${file}: it computes exactly what the built-in does.`,
  ];
  const state = example ? [`const STATE = ${example.state}; // ${example.stateDoc}`] : [];
  return assemble(header, [...optionsLine(row.params), ...state], parts, `${entry}(${args.join(', ')})`);
}

/** The example of a built-in with a group weight on its output, before formatting. */
function weightedSource(spec: WeightedExample, all: Map<string, Declaration>): string {
  const row = estimatorRow(spec.estimator);
  if (row.example) throw new Error(`code example ${spec.id}: ${row.name} keeps state; a weighted example cannot`);
  const entry = row.advantages.name;
  const weight = spec.weight.name;
  const files = [entry, weight].map((name) => `src/estimators/${all.get(name)?.file}`);
  const header = [
    `// ${spec.title}: the built-in estimator "${row.name}" with ${spec.knob} = ${spec.value}, written as your code.`,
    `// The weight is ${findKnob(spec.knob)?.source};`,
    `// the knob applies it to any estimator's advantages.`,
    `// Generated from its source, ${files.join(' and ')}:`,
    `// it computes exactly what the built-in does.`,
  ];
  const args = ['batch', ...(row.params.length > 0 ? ['OPTIONS'] : [])];
  const call = `${weight}(${entry}(${args.join(', ')}), batch.correct, batch.B, batch.G, OPTIONS.${spec.knob})`;
  const settings = optionsLine([...row.params, spec.knob], { [spec.knob]: spec.value });
  return assemble(header, settings, closure([entry, weight], all), call);
}

/** Every row's example (rows with `example: false` have none) by estimator name, then the weighted examples by id. */
export async function generateExamples(): Promise<Record<string, string>> {
  const all = declarations();
  const options = { ...(await resolveConfig(GENERATED_PATH.pathname)), parser: 'babel' };
  const out: Record<string, string> = {};
  const sources = [
    ...estimatorRows().flatMap((row) => (row.example === false ? [] : [[row.name, exampleSource(row, all)]])),
    ...WEIGHTED_EXAMPLES.map((spec) => [spec.id, weightedSource(spec, all)]),
  ];
  for (const [id, code] of sources) {
    const js = transform(code, { transforms: ['typescript'], disableESTransforms: true }).code;
    out[id] = await format(js, options);
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
