// docs/knobs.md, generated from the knob table and its rules so the docs never drift.
// Regenerate with:  npx tsx src/config/docs.ts > docs/knobs.md   (a test compares the two)

import { TASK_NAMES, TASKS } from '../tasks/registry';
import { defaultConfig } from './config';
import {
  allowedText,
  findKnob,
  formatValue,
  knobsBySection,
  knobsFor,
  SECTIONS,
  taskKnobs,
  whenText,
  type KnobSpec,
  type KnobValue,
} from './knobs';
import { KNOB_RULES } from './knob-rules';

/** The rules between knobs that validateConfig enforces, as docs/knobs.md states them (src/config/knob-rules.ts). */
export const CROSS_RULES: readonly string[] = KNOB_RULES.map((r) => r.rule);

/** Text safe in Markdown prose: a `<` before a letter (as in "Z<n>", "task.<param>") would read as HTML. */
/** Code spans (between backticks) are left as they are. */
export const text = (s: string): string =>
  s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<(?=[A-Za-z/!?])/g, '&lt;')))
    .join('`');
/** Text safe in a table cell. */
const cell = (s: string): string => text(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** `key=value` entries of a diff, in table order. */
export function settings(set: Readonly<Record<string, KnobValue>>, task: string): string {
  const order = knobsFor(task).map((k) => k.key);
  const rank = (k: string): number => (order.includes(k) ? order.indexOf(k) : order.length);
  return (
    Object.entries(set)
      .sort(([a], [b]) => rank(a) - rank(b))
      // Code is too long for a line: its knob is named (docs/custom-estimators.md shows the examples).
      .map(([k, v]) => (findKnob(k, task)?.kind === 'code' ? `\`${k}\` (code)` : `\`${k}=${formatValue(v)}\``))
      .join(', ')
  );
}

function showDefault(k: KnobSpec): string {
  if (k.kind === 'code')
    return `the ${k.key === 'customEstimator' ? 'estimator' : 'reward'} template (docs/custom-estimators.md)`;
  return '`' + formatValue(k.default) + '`';
}

function row(k: KnobSpec): string {
  const meaning = k.when ? `${k.doc} *Used when ${whenText(k.when)}.*` : k.doc;
  return `| \`${k.key}\` | ${cell(k.label)} | ${showDefault(k)} | ${cell(allowedText(k))} | ${cell(meaning)} | ${cell(k.source ?? '')} |`;
}

const HEADER = ['| key | label | default | allowed | meaning | source |', '|---|---|---|---|---|---|'];

/** The whole of docs/knobs.md. */
export function knobsMarkdown(): string {
  const out: string[] = [];
  out.push('# Knobs');
  out.push('');
  out.push(
    '<!-- Generated from src/config/knobs.ts and src/config/knob-rules.ts by knobsMarkdown() in src/config/docs.ts. Do not edit by hand: run `npx tsx src/config/docs.ts > docs/knobs.md`. A test fails when this file is out of date. -->',
  );
  out.push('');
  out.push(
    'Every setting of a run is a knob with a flat, stable key. The same keys are used everywhere: the URL (`?preset=cot-discovery&lr=0.001`), the CLI (`--preset cot-discovery --set lr=0.001 --set task.length=4`), JSON config files (an object of key → value), presets and checkpoint metadata. A config is validated as a whole: values are checked against the ranges below (strings are accepted for numbers and booleans), unknown keys are an error naming the closest known key, and the rules between knobs listed at the end must hold. Ranges are inclusive.',
  );
  out.push('');
  out.push(
    'Layers, later wins: defaults < preset < config file < `--set` (CLI); defaults < preset < URL values (browser). A URL holds only the values that differ from its preset (or the defaults); a bad value in a URL is reported and replaced by the base value, never fatal.',
  );
  const defaults = defaultConfig();
  for (const section of SECTIONS) {
    out.push('');
    out.push(`## ${section.title}`);
    out.push('');
    out.push(text(section.doc));
    out.push('');
    out.push(...HEADER);
    for (const k of knobsFor(defaults.task)) {
      if (k.section === section.id && !k.key.startsWith('task.')) out.push(row(k));
    }
    if (section.id === 'task') {
      for (const name of TASK_NAMES) {
        out.push('');
        out.push(`### \`task=${name}\``);
        out.push('');
        out.push(text(TASKS[name].summary));
        out.push('');
        out.push(...HEADER);
        for (const k of taskKnobs(name)) out.push(row(k));
      }
    }
  }
  out.push('');
  out.push('## Rules between knobs');
  out.push('');
  for (const r of CROSS_RULES) out.push(`- ${r}`);
  out.push('');
  out.push('## Presets');
  out.push('');
  out.push(
    'Each preset is a small diff on the defaults (`?preset=NAME`, `--preset NAME`), and a lesson: [lessons.md](lessons.md) lists them with their settings, guides, measured expectations, variants and ablations.',
  );
  out.push('');
  return out.join('\n');
}

/** Plain-text list of the knobs of a task's config, for `rlvr train --help`. */
export function knobsHelpText(task: string = defaultConfig().task): string {
  const lines: string[] = [`knobs (--set key=value; task ${task}):`];
  for (const { section, knobs } of knobsBySection(task)) {
    lines.push(`  ${section.title}`);
    for (const k of knobs) {
      lines.push(`    ${k.key} = ${formatValue(k.default)}  (${allowedText(k)})  ${k.label}`);
    }
  }
  return lines.join('\n');
}

// Run as a script: print the markdown (no effect when imported, in Node or in a browser).
const argv1 = typeof process !== 'undefined' ? process.argv?.[1] : undefined;
if (argv1 && import.meta.url.endsWith(argv1.replace(/\\/g, '/'))) {
  process.stdout.write(knobsMarkdown());
}
