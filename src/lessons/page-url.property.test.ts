// The URL codec fed garbage: any query string reads into a valid config, with each bad entry
// reported by knob; nothing is thrown.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { searchToConfig } from './page-url';
import { validateConfig } from '../config/config';
import { knobKeyArb } from '../config/testArbitraries';
import { PRESET_NAMES } from './presets';

const keys = knobKeyArb('preset');
const values = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    ...PRESET_NAMES,
    'groupmul',
    'sort',
    'maze',
    'subsetsum',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '0x10',
    'true',
    ' 3 ',
    '',
    '999999999999',
    '-1',
  ),
  fc.integer().map(String),
  fc.double().map(String),
);
const query = fc
  .array(fc.tuple(keys, values), { maxLength: 12 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

function check(search: string): void {
  const state = searchToConfig(search);
  expect(() => validateConfig(state.config)).not.toThrow();
  for (const e of state.errors) {
    expect(typeof e.knob).toBe('string');
    expect(e.knob.length).toBeGreaterThan(0);
    expect(e.message.length).toBeGreaterThan(0);
  }
}

describe('URL codec, fed garbage', () => {
  it('random text never throws and reads into a valid config', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => check(s)),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => check(`?${s}`)),
      { numRuns: 100 },
    );
  });

  it('known and unknown keys with garbage values: each bad entry is named, the rest applies', () => {
    fc.assert(
      fc.property(query, (q) => check(q)),
      { numRuns: 400 },
    );
  });
});
