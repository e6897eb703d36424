// CLI: --set parsing (the layering of preset < file < --set is src/lessons/preset-flags.test.ts).

import { describe, expect, it } from 'vitest';
import { parseSetFlags } from './knob-flags';
import { ConfigError } from './config';

describe('parseSetFlags', () => {
  it('splits at the first "=", the last repeated key wins', () => {
    expect(parseSetFlags(['lr=0.01', 'task.length=4', 'seed=1', 'seed=2', 'odd=a=b'])).toEqual({
      lr: '0.01',
      'task.length': '4',
      seed: '2',
      odd: 'a=b',
    });
  });

  it('rejects a flag without key=value', () => {
    expect(() => parseSetFlags(['lr'])).toThrow('--set expects key=value (e.g. --set lr=0.003), got "lr"');
    expect(() => parseSetFlags(['=3'])).toThrow(ConfigError);
  });
});
