// docs/custom-estimators.md shows the examples the page ships, exactly.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withExamples } from './custom-docs';

describe('docs/custom-estimators.md', () => {
  it('has the current examples (regenerate: npx tsx src/config/custom-docs.ts)', () => {
    const doc = readFileSync(new URL('../../docs/custom-estimators.md', import.meta.url), 'utf8');
    expect(doc).toBe(withExamples(doc));
  });
});
