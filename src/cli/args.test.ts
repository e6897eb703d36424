import { describe, expect, it } from 'vitest';
import { CliError, HelpRequested, intFlag, parseFlags, type FlagSpec } from '../core/flags';
import { parseTokenList } from './model-commands';
import { thrown } from '../core/thrown';

const spec: Record<string, FlagSpec> = {
  seed: { kind: 'value', doc: 'seed' },
  out: { kind: 'value', doc: 'folder' },
  set: { kind: 'multi', doc: 'k=v' },
  json: { kind: 'switch', doc: 'json' },
};

const error = (f: () => unknown): string => thrown(CliError, f).message;

describe('CLI flags', () => {
  it('an empty value is refused, never read as 0 (--seed= used to become seed 0)', () => {
    expect(error(() => parseFlags(['--seed='], spec, 'init'))).toBe('init: --seed needs a value, got an empty one');
    expect(error(() => parseFlags(['--seed', ''], spec, 'init'))).toBe('init: --seed needs a value, got an empty one');
    expect(error(() => parseFlags(['--seed'], spec, 'init'))).toBe('init: --seed needs a value');
    expect(error(() => intFlag({ seed: ' ' }, 'seed', 0, 0, 10))).toBe('--seed must be an integer in [0, 10], got " "');
    expect(error(() => intFlag({ seed: '0x10' }, 'seed', 0, 0, 100))).toMatch(/--seed must be an integer/);
    expect(error(() => intFlag({ seed: '1e3' }, 'seed', 0, 0, 10000))).toMatch(/--seed must be an integer/);
    expect(intFlag({ seed: ' 7 ' }, 'seed', 0, 0, 10)).toBe(7);
  });

  it('a value flag given twice, a switch with a value, and a flag taken as a value are named', () => {
    expect(error(() => parseFlags(['--seed', '1', '--seed', '2'], spec, 'train'))).toBe(
      'train: --seed is given twice ("1" and "2")',
    );
    expect(error(() => parseFlags(['--json=1'], spec, 'train'))).toMatch(/--json is a switch and takes no value/);
    expect(error(() => parseFlags(['--out', '--json'], spec, 'train'))).toBe(
      'train: --out needs a value, got the flag --json',
    );
    expect(parseFlags(['--set', 'a=1', '--set=b=2', '--json'], spec, 'train')).toEqual({
      set: ['a=1', 'b=2'],
      json: true,
    });
  });

  it('--help anywhere asks for the command help, listing every flag', () => {
    for (const argv of [['--help'], ['--seed', '3', '-h']]) {
      let help: unknown;
      try {
        parseFlags(argv, spec, 'init');
      } catch (e) {
        help = e;
      }
      expect(help).toBeInstanceOf(HelpRequested);
      const text = (help as HelpRequested).text;
      expect(text).toMatch(/^usage: rlvr init \[flags\]/);
      for (const k of [...Object.keys(spec), 'help']) expect(text).toContain(`--${k}`);
    }
  });

  it('--tokens: empty items and empty lists are refused by position, not read as token 0', () => {
    expect(error(() => parseTokenList('', 7, 8))).toBe('--tokens: "" (position 0) is not a token id in [0, 6]');
    expect(error(() => parseTokenList('1,,2', 7, 8))).toBe('--tokens: "" (position 1) is not a token id in [0, 6]');
    expect(error(() => parseTokenList('1,2,', 7, 8))).toBe('--tokens: "" (position 2) is not a token id in [0, 6]');
    expect(error(() => parseTokenList('1, -0', 7, 8))).toMatch(/"-0" \(position 1\)/);
    expect(error(() => parseTokenList('1.0', 7, 8))).toMatch(/"1.0" \(position 0\)/);
    expect(Array.from(parseTokenList(' 1, 2 ,6', 7, 8))).toEqual([1, 2, 6]);
  });
});
