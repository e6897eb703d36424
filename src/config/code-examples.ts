// The custom code's examples (docs/custom-estimators.md): every built-in estimator as your code,
// generated from its TypeScript source into code-examples.generated.json (code-examples-gen.ts;
// a test regenerates it and compares), and the examples written by hand: the template, the
// lesson's one-line change of GRPO, GRPO with GCS's weight and the reward shapings. The trainer
// compiles them in a sandbox (src/rl/custom), the page shows them in its code panel, and
// src/rl/custom/examples.test.ts checks that each reproduces its built-in bit for bit.

import { estimatorRows, type Estimator } from '../estimators';
import GENERATED from './code-examples.generated.json' with { type: 'json' };
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
  {
    id: 'gcs',
    kind: 'estimator',
    title: "GRPO with GCS's Gaussian group weight",
    source: `// GRPO with GCS's weight (Gaussian Curriculum Sampling, the EXPO paper, docs/methods.md; a
// reading): each group's advantages times exp(-(p - 0.5)^2 / (2 SIGMA^2)), p its share of
// correct completions, renormalised to mean 1 over the groups with any advantage. It computes
// what estimator = grpo with gcsSigma = SIGMA does; the knob applies the weight to any estimator.
const SIGMA = 0.25;
const EPS = 1e-4;

function grpo(rewards, B, G) {
  const out = new Float64Array(B * G);
  for (let b = 0; b < B; b++) {
    const start = b * G;
    let equal = true;
    for (let g = 1; g < G; g++) if (rewards[start + g] !== rewards[start]) equal = false;
    if (equal) continue;
    let sum = 0;
    for (let g = 0; g < G; g++) sum += rewards[start + g];
    const mean = sum / G;
    let ss = 0;
    for (let g = 0; g < G; g++) ss += (rewards[start + g] - mean) * (rewards[start + g] - mean);
    const std = Math.sqrt(ss / (G - 1));
    for (let g = 0; g < G; g++) out[start + g] = (rewards[start + g] - mean) / (std + EPS);
  }
  return out;
}

function advantages(batch) {
  const { B, G, rewards, correct } = batch;
  const out = grpo(rewards, B, G);
  const w = new Float64Array(B);
  let sum = 0;
  let live = 0;
  for (let b = 0; b < B; b++) {
    let c = 0;
    let any = false;
    for (let g = 0; g < G; g++) {
      if (correct[b * G + g]) c++;
      if (out[b * G + g] !== 0) any = true;
    }
    const p = c / G;
    w[b] = Math.exp(-((p - 0.5) ** 2) / (2 * SIGMA * SIGMA));
    if (any) {
      sum += w[b];
      live++;
    }
  }
  if (live === 0 || !(sum > 0)) return out;
  const mean = sum / live;
  for (let b = 0; b < B; b++) for (let g = 0; g < G; g++) out[b * G + g] *= w[b] / mean;
  return out;
}
`,
  },
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
