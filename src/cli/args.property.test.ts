// The CLI's parsers fed garbage: flags, integers, token lists and --set values either parse into
// what the spec allows or fail with an error naming the flag; nothing else is thrown.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CliError, HelpRequested, intFlag, parseFlags } from '../core/flags';
import { parseTokenList } from './model-commands';
import { TRAIN_FLAGS } from './train-commands';
import { configFromCli } from '../lessons/preset-flags';
import { ConfigError } from '../config/config';
import { knobKeyArb } from '../config/testArbitraries';

const names = Object.keys(TRAIN_FLAGS);
const arg = fc.oneof(
  fc.constantFrom(...names.map((n) => `--${n}`), '--help', '-h', '--', '---', '--=', '--set=', '--seed=', '-x'),
  fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 8 })).map(([n, v]) => `--${n}=${v}`),
  fc.string({ maxLength: 10 }),
);

const only = <T>(f: () => T, ...allowed: (new (...a: never[]) => Error)[]): T | null => {
  try {
    return f();
  } catch (e) {
    if (!allowed.some((c) => e instanceof c))
      throw new Error(`unexpected ${(e as Error)?.name}: ${(e as Error)?.message}`, { cause: e });
    expect((e as Error).message.length).toBeGreaterThan(0);
    return null;
  }
};

describe('CLI parsers, fed garbage', () => {
  it('parseFlags: known flags with non-empty values, or a CliError (or the help)', () => {
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 8 }), (argv) => {
        const f = only(() => parseFlags(argv, TRAIN_FLAGS, 'train'), CliError, HelpRequested);
        if (!f) return;
        for (const [k, v] of Object.entries(f)) {
          expect(names).toContain(k);
          const spec = TRAIN_FLAGS[k];
          if (spec.kind === 'switch') expect(v).toBe(true);
          else if (spec.kind === 'multi')
            expect((v as string[]).every((x) => typeof x === 'string' && x.trim() !== '')).toBe(true);
          else expect(typeof v === 'string' && v.trim() !== '').toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('intFlag: an integer in the range, or a CliError naming the flag', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer().map(String),
      fc.double().map(String),
      fc.constantFrom('1e3', '0x1f', ' 7', '+3', '-0', '9007199254740993'),
    );
    fc.assert(
      fc.property(text, (t) => {
        const v = only(() => intFlag({ n: t }, 'n', 0, -50, 1000), CliError);
        if (v === null) return;
        expect(Number.isSafeInteger(v) && v >= -50 && v <= 1000).toBe(true);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (t) => {
        try {
          intFlag({ n: t }, 'n', 0, 0, 9);
        } catch (e) {
          expect((e as Error).message).toMatch(/^--n must be an integer in \[0, 9\]/);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('--tokens: ids in [0, V) and 1..T of them, or a CliError naming the position', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc
            .array(fc.oneof(fc.nat(20).map(String), fc.constantFrom('', ' ', '-1', '1.5', 'x')), { maxLength: 10 })
            .map((a) => a.join(',')),
        ),
        (t) => {
          const ids = only(() => parseTokenList(t, 7, 8), CliError);
          if (!ids) return;
          expect(ids.length >= 1 && ids.length <= 8 && ids.every((v) => v >= 0 && v < 7)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('--set: a valid config, or a ConfigError naming the knob', () => {
    const set = fc
      .tuple(
        knobKeyArb(),
        fc.oneof(
          fc.string({ maxLength: 8 }),
          fc.integer().map(String),
          fc.constantFrom('sort', 'maze', 'true', '1e-3'),
        ),
      )
      .map(([k, v]) => `${k}=${v}`);
    fc.assert(
      fc.property(fc.array(fc.oneof(set, fc.string({ maxLength: 8 })), { maxLength: 5 }), (sets) => {
        only(() => configFromCli({ preset: 'sort-easy', sets }), ConfigError);
      }),
      { numRuns: 400 },
    );
    expect(() => configFromCli({ sets: ['__proto__=1'] })).toThrowError(/unknown knob "__proto__"/);
  });
});
