// The checks on a call's output and inputs, and where an error points, on their own.

import { describe, expect, it } from 'vitest';
import { checkOutput, checkUnchanged } from './checks';
import { CustomCodeError, stackPosition, thrownError } from './custom-code-errors';
import { estimatorInput } from './interface';
import type { OutputSummary } from './sandbox';
import { advantagesFromBase } from '../estimators';
import { DEFAULT_ADVANTAGE_OPTIONS } from '../settings';
import { makeBatch } from '../estimators-fixtures';

const source = '// x\nfunction advantages(batch) {\n  return [];\n}';
const allowed = [
  { length: 2, meaning: 'N' },
  { length: 6, meaning: 'N*T' },
];
const output = (values: number[], extra: Partial<OutputSummary> = {}): OutputSummary => ({
  type: 'array',
  length: values.length,
  values: Float64Array.from(values),
  bad: -1,
  badType: '',
  ...extra,
});

function failure(f: () => unknown): CustomCodeError {
  try {
    f();
  } catch (e) {
    if (e instanceof CustomCodeError) return e;
    throw e;
  }
  throw new Error('passed');
}

describe('checkOutput', () => {
  it('returns a copy of a good output of either allowed length', () => {
    const o = output([1, -2]);
    const v = checkOutput('estimator', source, o, allowed);
    expect(Array.from(v)).toEqual([1, -2]);
    expect(v).not.toBe(o.values);
    expect(checkOutput('estimator', source, output([0, 0, 0, 0, 0, 0]), allowed).length).toBe(6);
  });

  it("names each way an output is wrong, at the function's line", () => {
    const cases: [OutputSummary | undefined, RegExp][] = [
      [undefined, /returned nothing/],
      [
        { ...output([]), type: 'undefined', length: -1, values: null },
        /returned undefined; it must return an array of 2 \(N\) or 6 \(N\*T\) numbers/,
      ],
      [output([1, 2, 3]), /returned 3 values; expected 2 \(N\) or 6 \(N\*T\)/],
      [output([1, NaN], { bad: 1, badType: 'string' }), /a string at index 1/],
      [output([1, NaN], { bad: 1, badType: 'undefined' }), /undefined \(a hole\?\) at index 1/],
      [output([1, NaN]), /NaN at index 1; every value must be finite/],
      [output([-Infinity, 1]), /-Infinity at index 0/],
    ];
    for (const [o, message] of cases) {
      const e = failure(() => checkOutput('estimator', source, o, allowed));
      expect(e, String(message)).toMatchObject({ failure: 'output', line: 2 });
      expect(e.message).toMatch(message);
    }
  });
});

describe('checkUnchanged', () => {
  const batch = makeBatch({ B: 1, G: 2, T: 1, rewards: [0, 1] });
  const input = estimatorInput(batch, 1);
  const after = () => Object.fromEntries(input.typedKeys.map((k) => [k, input.typed[k].slice()]));

  it('passes when every array is as given, and names the first change', () => {
    expect(() => checkUnchanged('estimator', source, input, after())).not.toThrow();
    const changed = after();
    changed.mask[1] = 0;
    expect(failure(() => checkUnchanged('estimator', source, input, changed)).message).toContain(
      'changed its input batch.mask[1] from 1 to 0',
    );
    const zero = after();
    (zero.rewards as Float64Array)[0] = -0;
    expect(failure(() => checkUnchanged('estimator', source, input, zero)).message).toContain('batch.rewards[0]');
    expect(failure(() => checkUnchanged('estimator', source, input, {})).message).toContain('another length');
  });
});

describe('where an error points', () => {
  it("reads the code's line and column from a stack, less the runtime's prefix on line 1", () => {
    expect(
      stackPosition(
        'TypeError: x\n    at advantages (your-estimator.js:3:14)\n    at call (sandbox-runtime.js:90:1)',
        'your-estimator.js',
      ),
    ).toEqual({ line: 3, column: 14 });
    const prefix = '(function (exports, require, module) {"use strict";'.length;
    expect(stackPosition(`at your-estimator.js:1:${prefix + 13 + 5}`, 'your-estimator.js', 13)).toEqual({
      line: 1,
      column: 5,
    });
    expect(stackPosition('no position', 'your-estimator.js')).toBeUndefined();
  });

  it("falls back to the function's line when the stack has none (a thrown string)", () => {
    expect(thrownError('estimator', source, { name: 'Error', message: 'threw oops', stack: '' }, 'call')).toMatchObject(
      { line: 2, failure: 'exception' },
    );
  });
});

describe('advantagesFromBase', () => {
  const batch = makeBatch({ B: 1, G: 2, T: 3, rewards: [0, 1], mask: [1, 1, 0, 1, 0, 0] });

  it("a per-completion base goes through the pipeline like a built-in's", () => {
    const r = advantagesFromBase(batch, DEFAULT_ADVANTAGE_OPTIONS, Float64Array.from([-1, 2]));
    expect(Array.from(r.adv)).toEqual([-1, -1, 0, 2, 0, 0]);
    expect(Array.from(r.seqAdv)).toEqual([-1, 2]);
  });

  it('a per-token base is used as is on trained tokens; seqAdv is its mean over policy tokens', () => {
    const r = advantagesFromBase(batch, DEFAULT_ADVANTAGE_OPTIONS, Float64Array.from([1, 3, 9, 5, 9, 9]));
    expect(Array.from(r.adv)).toEqual([1, 3, 0, 5, 0, 0]);
    expect(Array.from(r.seqAdv)).toEqual([2, 5]);
    expect(() => advantagesFromBase(batch, DEFAULT_ADVANTAGE_OPTIONS, new Float64Array(4))).toThrow(
      /expected N = 2 or N\*T = 6/,
    );
  });
});
