// docs/lessons.md, generated from the presets (each preset is a lesson) so the page and the docs
// never tell two stories. Regenerate with:  npx tsx src/lessons/lessons-doc.ts > docs/lessons.md
// (a test compares the two).

import { formatValue } from '../config/knobs';
import { settings, text } from '../config/docs';
import { presetConfig, PRESETS, type Preset } from './presets';

const cell = (s: string): string => text(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function jumpAhead(p: Preset): string {
  return p.checkpoints?.length ? p.checkpoints.map((c) => c.label).join('; ') : '–';
}

/** The whole of docs/lessons.md. */
export function lessonsMarkdown(): string {
  const out: string[] = [];
  out.push('# Lessons');
  out.push('');
  out.push(
    '<!-- Generated from src/lessons/table/ by lessonsMarkdown() in src/lessons/lessons-doc.ts. Do not edit by hand: run `npx tsx src/lessons/lessons-doc.ts > docs/lessons.md`. A test fails when this file is out of date. -->',
  );
  out.push('');
  out.push(
    "Every preset is a lesson: open it with `?preset=NAME` (the lecture view's lesson picker), or run it headless with `npm run rlvr -- train --preset NAME`. Each has a one-line point, the steps a lecturer reads aloud (each can point at what it talks about), what measured runs did — so a class can tell whether its run is on track, and how long the point takes to show — a step budget, comparison variants, and, where shipped, trained checkpoints to jump ahead to.",
  );
  out.push('');
  out.push('| lesson | its point | step budget | charts | jump ahead |');
  out.push('|---|---|---|---|---|');
  for (const p of PRESETS) {
    out.push(
      `| [\`${p.name}\`](#${p.name}) | ${cell(p.summary)} | ${presetConfig(p.name).steps} | ${p.charts.join(', ')} | ${cell(jumpAhead(p))} |`,
    );
  }
  for (const p of PRESETS) {
    const task = presetConfig(p.name).task;
    out.push('');
    out.push(`## ${p.name}`);
    out.push('');
    out.push(`**${text(p.title)}.** ${text(p.summary)}`);
    out.push('');
    out.push(text(p.explanation));
    out.push('');
    out.push(`Settings: ${settings(p.set, task)}.`);
    out.push('');
    out.push('What to say:');
    out.push('');
    p.guide.forEach((g, i) => out.push(`${i + 1}. ${text(g.text)}`));
    out.push('');
    out.push(`Expected: ${text(p.expect)}`);
    if (p.needsGpu) {
      out.push('');
      out.push(`**${text(p.needsGpu)}**`);
    }
    if (p.checkpoints?.length) {
      out.push('');
      out.push('Jump ahead: ' + p.checkpoints.map((c) => `*${c.label}* (${text(c.note)})`).join('; ') + '.');
    }
    if (p.variants?.length) {
      out.push('');
      out.push('Variants: ' + p.variants.map((v) => `*${v.label}* (${settings(v.set, task)})`).join('; ') + '.');
    }
    if (p.init) {
      const from = p.checkpoints?.find((c) => c.file === p.init)?.label ?? p.init;
      out.push('');
      out.push(
        `Its variants${p.ablation ? ' and the runs of its ablation' : ''} start from the *${from}* (\`public/${p.init}\`; \`rlvr train --init\` does the same), not from random weights.`,
      );
    }
    const a = p.ablation;
    if (a) {
      const heads = a.variants?.length ? [[p.name, ...a.variants.map((v) => `*${v}*`)].join(' vs ')] : [];
      const cells = [
        ...heads,
        ...Object.entries(a.grid ?? {}).map(([k, vs]) => `\`${k}\` ∈ {${vs.map((v) => formatValue(v)).join(', ')}}`),
      ];
      const solved = a.solved
        ? `; solved = \`${a.solved.metric}\` ≥ ${a.solved.target}${a.solved.level !== undefined ? ` at level ≥ ${a.solved.level}` : ''}`
        : '';
      out.push('');
      out.push(
        `Over seeds (\`rlvr sweep --preset ${p.name}\`, [ablations.md](ablations.md)): ${text(a.question)} Cells: ${cells.join(' × ')}; ${a.seeds} seeds × ${a.steps} steps${solved}. ${text(a.literature)} ${text(a.reading)}`,
      );
    }
  }
  out.push('');
  return out.join('\n');
}

// Run as a script: print the markdown (no effect when imported).
const argv1 = typeof process !== 'undefined' ? process.argv?.[1] : undefined;
if (argv1 && import.meta.url.endsWith(argv1.replace(/\\/g, '/'))) {
  process.stdout.write(lessonsMarkdown());
}
