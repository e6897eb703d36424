// Custom code end to end in Node's sandbox: it loads once, its output is checked on every call,
// and every kind of broken code (a syntax error, an exception, a wrong length, NaN, a changed
// input, an endless loop) fails with a CustomCodeError naming the line.

import { describe, expect, it } from 'vitest';
import { CustomCode } from './custom-code';
import { CustomCodeError } from './custom-code-errors';
import { estimatorInput, estimatorLengths, rewardInput } from './interface';
import { nodeSandbox } from './sandbox-node';
import { makeBatch } from '../estimators-fixtures';
import { grpoAdvantages } from '../../estimators/grpo';

const batch = makeBatch({ B: 2, G: 3, T: 2, rewards: [1, 0, 0.5, 0, 0, 1] });
const input = estimatorInput(batch, 1);
const lengths = estimatorLengths(batch);

async function load(source: string, limitMs = 500): Promise<CustomCode> {
  return CustomCode.load('estimator', source, nodeSandbox, limitMs);
}

/** The CustomCodeError a promise rejects with. */
async function failure(p: Promise<unknown>): Promise<CustomCodeError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CustomCodeError) return e;
    throw e;
  }
  throw new Error('expected a CustomCodeError, but it succeeded');
}

describe('custom code in the Node sandbox', () => {
  it('loads once and returns the checked output as a Float64Array', async () => {
    const code = await load(
      'let calls = 0;\nfunction advantages(batch) {\n  calls++;\n  return Array.from(batch.rewards, (r) => r * calls);\n}',
    );
    expect(Array.from(await code.call(input, lengths))).toEqual([1, 0, 0.5, 0, 0, 1]);
    // State outside the function lives as long as the code: compiled once, not per step.
    expect(Array.from(await code.call(input, lengths))).toEqual([2, 0, 1, 0, 0, 2]);
    code.dispose();
  });

  it('accepts TypeScript and export, and per-token output of length N*T', async () => {
    const code = await load(
      'export function advantages(batch: { N: number; T: number }): number[] {\n  return new Array<number>(batch.N * batch.T).fill(0.5);\n}',
    );
    expect(Array.from(await code.call(input, lengths))).toEqual(new Array(12).fill(0.5));
  });

  it('reproduces a built-in exactly (GRPO written out)', async () => {
    const { ESTIMATOR_TEMPLATE } = await import('../../config/user-code');
    const code = await load(ESTIMATOR_TEMPLATE);
    expect(await code.call(input, lengths)).toEqual(grpoAdvantages(batch.rewards, 2, 3, 'group'));
  });

  it('names the line and column of a syntax error', async () => {
    const e = await failure(load('function advantages(batch) {\n  const x = ;\n  return [];\n}'));
    expect(e.failure).toBe('syntax');
    expect(e.line).toBe(2);
    expect(e.message).toMatch(/^your estimator, line 2: SyntaxError/);
  });

  it('says what to define when the function is missing', async () => {
    const e = await failure(load('function advantage(batch) { return []; }'));
    expect(e.message).toContain('must define function advantages(batch)');
  });

  it('names the line of an exception, at load and in a call', async () => {
    const atLoad = await failure(
      load('const table = {};\nconst x = table.missing.value;\nfunction advantages(b) { return b.rewards; }'),
    );
    expect(atLoad.line).toBe(2);
    expect(atLoad.message).toContain('TypeError');
    const code = await load('function advantages(batch) {\n  const out = [];\n  return out.concat(undefinedName);\n}');
    const inCall = await failure(code.call(input, lengths));
    expect(inCall).toMatchObject({ failure: 'exception', line: 3 });
    expect(inCall.message).toMatch(/ReferenceError: undefinedName is not defined/);
  });

  it("refuses a wrong length, a non-number, NaN and Infinity, naming the function's line", async () => {
    const cases: [string, RegExp][] = [
      ['return [1, 2];', /returned 2 values; expected 6 \(N, one per completion\) or 12 \(N\*T, one per token\)/],
      ['return undefined;', /returned undefined; it must return an array/],
      ['return Promise.resolve([]);', /a Promise/],
      ['const a = Array.from(batch.rewards); a[4] = "x"; return a;', /a string at index 4/],
      ['const a = Array.from(batch.rewards); a[2] = NaN; return a;', /NaN at index 2; every value must be finite/],
      ['return Array.from(batch.rewards, (r) => r / 0);', /Infinity at index 0/],
    ];
    for (const [body, message] of cases) {
      const code = await load(`// a comment\nfunction advantages(batch) {\n  ${body}\n}`);
      const e = await failure(code.call(input, lengths));
      expect(e.failure, body).toBe('output');
      expect(e.line, body).toBe(2);
      expect(e.message, body).toMatch(message);
    }
  });

  it('refuses code that changes its input, and the batch object is frozen', async () => {
    const typed = await load('function advantages(batch) {\n  batch.rewards[1] = 7;\n  return batch.rewards;\n}');
    const e = await failure(typed.call(input, lengths));
    expect(e.failure).toBe('mutation');
    expect(e.message).toContain('batch.rewards[1] from 0 to 7');
    expect(batch.rewards[1]).toBe(0); // the trainer's array was never given out
    const frozen = await load('function advantages(batch) {\n  batch.G = 2;\n  return batch.rewards;\n}');
    expect(await failure(frozen.call(input, lengths))).toMatchObject({ failure: 'exception', line: 2 });
    const list = await load('function advantages(batch) {\n  batch.promptKeys.push("x");\n  return batch.rewards;\n}');
    expect(await failure(list.call(input, lengths))).toMatchObject({ failure: 'exception', line: 2 });
  });

  it('stops an endless loop at the time limit, in a call and at load', async () => {
    const code = await load('function advantages(batch) {\n  for (;;) {}\n}', 200);
    const t0 = Date.now();
    const e = await failure(code.call(input, lengths));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(e).toMatchObject({ failure: 'timeout', line: 1 });
    expect(e.message).toContain('did not return within 200 ms');
    // A loop hidden in a promise job is inside the limit too.
    const later = await load(
      'function advantages(batch) {\n  Promise.resolve().then(() => { for (;;) {} });\n  return batch.rewards;\n}',
      200,
    );
    expect((await failure(later.call(input, lengths))).failure).toBe('timeout');
    const top = await failure(
      CustomCode.load(
        'estimator',
        'let n = 0;\nwhile (true) n++;\nfunction advantages(b) { return b.rewards; }',
        nodeSandbox,
        200,
        300,
      ),
    );
    expect(top).toMatchObject({ failure: 'timeout' });
    expect(top.message).toContain('loading the code did not finish within 300 ms');
  });

  it('has no require, process or timers in the sandbox', async () => {
    const code = await load(
      'function advantages(batch) {\n  const absent = (t) => (t === "undefined" ? 0 : 1);\n  return [absent(typeof process), absent(typeof globalThis.require), absent(typeof setTimeout), absent(typeof globalThis.module), 0, 0];\n}',
    );
    expect(Array.from(await code.call(input, lengths))).toEqual([0, 0, 0, 0, 0, 0]);
    const req = await failure(load('const fs = require("fs");\nfunction advantages(b) { return b.rewards; }'));
    expect(req).toMatchObject({ failure: 'load', line: 1 });
    expect(req.message).toContain('import and require are not available');
  });

  it("runs a reward shaping on the verifier's results, with the completions as tokens", async () => {
    const code = await CustomCode.load(
      'reward',
      'function rewards(batch) {\n  return batch.completions.map((c, i) => batch.rewards[i] + c.length / 10);\n}',
      nodeSandbox,
      500,
    );
    const shaped = rewardInput({
      B: 1,
      G: 2,
      T: 3,
      step: 1,
      rewards: Float64Array.from([1, 0]),
      correct: Uint8Array.from([1, 0]),
      lengths: Int32Array.from([2, 3]),
      signatures: ['a', 'b'],
      errorSignatures: ['correct', 'wrong'],
      completions: [
        ['a', '<eos>'],
        ['b', 'a', '<eos>'],
      ],
      prompts: ['ab'],
      promptKeys: ['ab'],
    });
    expect(Array.from(await code.call(shaped, [{ length: 2, meaning: 'N' }]))).toEqual([1.2, 0.3]);
  });
});
