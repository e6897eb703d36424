// docs/knobs.md and docs/lessons.md are generated from the knob and preset tables: each must match
// what its generator writes now.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knobsHelpText, knobsMarkdown } from './docs';
import { lessonsMarkdown } from './lessons-doc';
import { STATIC_KNOBS } from './knobs';
import { PRESET_NAMES } from './presets';

// Each generated page, the generator that writes it, and the function the generator prints.
const GENERATED: [page: string, generator: string, markdown: () => string][] = [
  ['knobs.md', 'src/config/docs.ts', knobsMarkdown],
  ['lessons.md', 'src/config/lessons-doc.ts', lessonsMarkdown],
];

describe.each(GENERATED)('docs/%s', (page, generator, markdown) => {
  it(`is up to date (regenerate: npx tsx ${generator} > docs/${page})`, () => {
    const committed = readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8');
    expect(committed).toBe(markdown());
  });
});

describe('docs/knobs.md', () => {
  it('documents every knob', () => {
    const md = knobsMarkdown();
    for (const k of STATIC_KNOBS) expect(md).toContain(`| \`${k.key}\` |`);
    for (const t of ['task.group', 'task.size', 'task.alphabet', 'task.count']) expect(md).toContain(`| \`${t}\` |`);
    expect(md).toContain('[lessons.md](lessons.md)');
  });

  it('has a plain-text help listing for the CLI', () => {
    const help = knobsHelpText('sort');
    expect(help).toContain('task.alphabet = 8  ([2, 26])');
    expect(help).toContain('groupSize = 8  ([1, 64])  group G');
    expect(help).not.toContain('task.group ');
  });
});

describe('docs/lessons.md', () => {
  it('has every lesson in its table, with its step budget, and a section of its own', () => {
    const md = lessonsMarkdown();
    for (const p of PRESET_NAMES) {
      expect(md).toContain(`| [\`${p}\`](#${p}) |`);
      expect(md).toContain(`\n## ${p}\n`);
    }
    expect(md).toMatch(
      /\| \[`cot-discovery`\]\(#cot-discovery\) \|.*\| 1000 \| .* \| at length 3; solved \(length 6\) \|/,
    );
  });
});
