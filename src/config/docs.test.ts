// docs/knobs.md is generated from the knob table: it must match what its generator writes now
// (docs/lessons.md: src/lessons/lessons-doc.test.ts).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knobsHelpText, knobsMarkdown } from './docs';
import { STATIC_KNOBS } from './knobs';

describe('docs/knobs.md', () => {
  it('is up to date (regenerate: npx tsx src/config/docs.ts > docs/knobs.md)', () => {
    expect(readFileSync(new URL('../../docs/knobs.md', import.meta.url), 'utf8')).toBe(knobsMarkdown());
  });

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
