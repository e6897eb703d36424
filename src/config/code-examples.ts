// The custom code's examples (docs/custom-estimators.md): every built-in estimator as your code,
// generated from its TypeScript source into code-examples.generated.json (code-examples-gen.ts;
// a test regenerates it and compares) like GRPO with GCS's weight, and the examples written by
// hand: the template, the lesson's one-line change of GRPO and the reward shapings. The trainer
// compiles them in a sandbox (src/rl/custom), the page shows them in its code panel, and
// src/rl/custom/examples.test.ts checks that each reproduces its built-in bit for bit.

import { estimatorRows, type Estimator } from '../estimators';
import GENERATED from './code-examples.generated.json' with { type: 'json' };
import { WEIGHTED_EXAMPLES } from './code-examples-weighted';
import { ESTIMATOR_TEMPLATE, REWARD_TEMPLATE, type CodeKind } from './user-code';

export interface CodeExample {
  readonly id: string;
  readonly kind: CodeKind;
  readonly title: string;
  /** The built-in estimator it reproduces (examples.test.ts holds it to that, bit for bit). */
  readonly builtin?: Estimator;
  readonly source: string;
}

const GENERATED_SOURCES: Readonly<Record<string, string>> = GENERATED;

/** The built-ins' examples, in the estimator table's order (a row without a generated source has none). */
function builtinExamples(): CodeExample[] {
  return estimatorRows().flatMap((r) => {
    const source = GENERATED_SOURCES[r.name];
    return r.example === false || source === undefined
      ? []
      : [{ id: r.name, kind: 'estimator' as const, title: r.title, builtin: r.name as Estimator, source }];
  });
}

/** The built-ins with a group weight on their output (code-examples-weighted.ts), generated like the built-ins'. */
function weightedExamples(): CodeExample[] {
  return WEIGHTED_EXAMPLES.map((w) => {
    const source = GENERATED_SOURCES[w.id];
    if (source === undefined) throw new Error(`code-examples: no generated source for ${w.id}`);
    return { id: w.id, kind: 'estimator', title: w.title, source };
  });
}

/** `source` with `from` replaced by `to`; an error when `from` is not in it (the generated code moved on). */
function replaceOnce(source: string, from: string | RegExp, to: string): string {
  const out = source.replace(from, to);
  if (out === source) throw new Error(`code-examples: ${String(from)} is not in the generated GRPO example`);
  return out;
}

/** The lesson's one-line change of GRPO: no division by the group's spread. */
export const GRPO_NO_STD_SOURCE = replaceOnce(
  replaceOnce(
    GENERATED_SOURCES.grpo ?? '',
    /^(\/\/[^\n]*\n)+/,
    "// GRPO without the division by the group's spread: the one line marked below changed.\n// (It computes what grpoScale = none, Dr. GRPO's advantage, computes.)\n",
  ),
  "    const denom = scale === 'none' ? 1 : spread + GRPO_EPS;",
  "    const denom = 1; // was: scale === 'none' ? 1 : spread + GRPO_EPS",
);

export const CODE_EXAMPLES: readonly CodeExample[] = [
  { id: 'template', kind: 'estimator', title: 'Template (GRPO, written out)', source: ESTIMATOR_TEMPLATE },
  ...builtinExamples(),
  {
    id: 'grpo-no-std',
    kind: 'estimator',
    title: 'GRPO without the std division (the lesson)',
    source: GRPO_NO_STD_SOURCE,
  },
  ...weightedExamples(),
  { id: 'reward-template', kind: 'reward', title: 'Template (a small length cost)', source: REWARD_TEMPLATE },
  {
    id: 'reward-verifier',
    kind: 'reward',
    title: "The verifier's reward, unchanged",
    source: `// The verifier's reward, unchanged: a run with this shaping is the run without one.

function rewards(batch) {
  return Float64Array.from(batch.rewards);
}
`,
  },
  {
    id: 'reward-binary',
    kind: 'reward',
    title: 'All or nothing: 1 when correct, else 0',
    source: `// All or nothing: 1 for a correct completion, 0 otherwise, whatever partial credit the
// verifier gave.

function rewards(batch) {
  return Float64Array.from(batch.correct, (c) => (c ? 1 : 0));
}
`,
  },
];

/** The examples of one kind, in menu order. */
export function examplesOf(kind: CodeKind): CodeExample[] {
  return CODE_EXAMPLES.filter((e) => e.kind === kind);
}

/** Sources shipped with the page (templates, examples, presets' code): they run without asking. */
export function isShippedCode(source: string): boolean {
  return CODE_EXAMPLES.some((e) => e.source === source);
}
