import { describe, expect, it } from 'vitest';
import { clauses, firstClauses } from './expectText';
import { PRESETS } from '../../lessons';

describe('the expected text in clauses', () => {
  it('cuts after . ; , : and joins back to the text', () => {
    const text = 'Measured (headless, 4 seeds): length 3 by step 250–300, length 4 by 350–450; solved. Done';
    const c = clauses(text);
    expect(c).toEqual([
      'Measured (headless,',
      '4 seeds):',
      'length 3 by step 250–300,',
      'length 4 by 350–450;',
      'solved.',
      'Done',
    ]);
    expect(firstClauses(c, c.length)).toBe(text);
    expect(firstClauses(c, 3)).toBe('Measured (headless, 4 seeds): length 3 by step 250–300,');
  });

  it("every lesson's text joins back whole", () => {
    for (const p of PRESETS)
      expect(firstClauses(clauses(p.expect), Infinity)).toBe(p.expect.replace(/\s+/g, ' ').trim());
  });
});
