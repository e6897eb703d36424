// docs/lessons.md is generated from the lessons: it must match what its generator writes now.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lessonsMarkdown } from './lessons-doc';
import { PRESET_NAMES } from './presets';

describe('docs/lessons.md', () => {
  it('is up to date (regenerate: npx tsx src/lessons/lessons-doc.ts > docs/lessons.md)', () => {
    expect(readFileSync(new URL('../../docs/lessons.md', import.meta.url), 'utf8')).toBe(lessonsMarkdown());
  });

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
