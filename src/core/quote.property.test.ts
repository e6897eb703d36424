// shellQuote on generated strings (fast-check): every word stays on one line, and bash reading
// the words back gets each string exactly (job arrays run --emit-jobs lines with bash).

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { shellQuote } from './quote';

describe('shellQuote, generated', () => {
  it('one line, and bash gives back every string exactly', () => {
    // Any text but NUL (no argv can hold one), weighted towards what breaks quoting.
    const tricky = fc.constantFrom(
      '\n',
      '\r',
      '\t',
      "'",
      '"',
      '\\',
      '$',
      '`',
      '!',
      ' ',
      '\x1b',
      '\x7f',
      'é',
      '\u2028',
      '*',
      '#',
      '~',
      '=',
    );
    const text = fc
      .array(fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), tricky), { maxLength: 12 })
      .map((a) => a.join('').replace(/\0/g, ''));
    const words = fc.sample(text, { numRuns: 300, seed: 49 });
    words.push('', '\n', "'", "a'b\nc\\", '-n', '--', 'x\n\n');
    const line = words.map(shellQuote).join(' ');
    expect(line).not.toMatch(/[\r\n]/);
    const back = execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' })
      .split('\0')
      .slice(0, -1);
    expect(back).toEqual(words);
  });
});
