// The shared flags: one spec each, a command's note after the shared prose, never the spec itself changed.

import { describe, expect, it } from 'vitest';
import { COMMON_FLAGS, commonFlag } from './common-flags';
import { helpText, parseFlags } from './flags';

describe('commonFlag', () => {
  it("is the shared spec, with the command's note after its prose", () => {
    expect(commonFlag('backend')).toEqual(COMMON_FLAGS.backend);
    expect(commonFlag('backend', 'passed to every run')).toEqual({
      kind: 'value',
      doc: 'gpu (default) or cpu (the slow reference engine); passed to every run',
      values: ['gpu', 'cpu'],
    });
    expect(commonFlag('json', 'one object').doc).toBe('print JSON instead of text; one object');
  });

  it('hands out copies: a command cannot change what another reads', () => {
    const mine = commonFlag('out', 'a folder');
    mine.doc = 'changed';
    expect(COMMON_FLAGS.out.doc).toBe('where to write the output');
    expect(commonFlag('out')).not.toBe(commonFlag('out'));
  });

  it('parses and documents as any other spec', () => {
    const spec = { out: commonFlag('out', 'a folder'), json: commonFlag('json'), set: commonFlag('set') };
    expect(parseFlags(['--out', 'd', '--json', '--set', 'a=1', '--set', 'b=2'], spec, 'x')).toEqual({
      out: 'd',
      json: true,
      set: ['a=1', 'b=2'],
    });
    expect(helpText('x', spec)).toContain('--out <value>\n      where to write the output; a folder');
  });

  it('has prose for every flag, and a closed list only where the values are one', () => {
    for (const [name, spec] of Object.entries(COMMON_FLAGS)) {
      expect(spec.doc.length, name).toBeGreaterThan(10);
      expect(spec.doc.endsWith('.'), name).toBe(false);
    }
    expect(Object.entries(COMMON_FLAGS).filter(([, s]) => 'values' in s)).toEqual([['backend', COMMON_FLAGS.backend]]);
  });
});
