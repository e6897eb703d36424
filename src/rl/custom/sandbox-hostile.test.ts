// Hostile code against Node's sandbox (issue cases S1–S4): code that reaches for the host from a
// finalizer, a finalizer that never returns, a promise rejected with no handler, and a global the
// host could not remove. Each ends in a correct result or a named CustomCodeError (which the
// trainer turns into a pause at the last good step), never a host effect, a hang or a crash.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomCode } from './custom-code';
import { CustomCodeError } from './custom-code-errors';
import { estimatorInput, estimatorLengths } from './interface';
import { nodeSandbox } from './sandbox-node';
import { makeBatch } from '../estimators-fixtures';
import { SMALL_TRAIN, trainInto } from '../../cli/testTrain';
import { loadResume } from '../../cli/checkpoint-files';

const batch = makeBatch({ B: 2, G: 3, T: 2, rewards: [1, 0, 0.5, 0, 0, 1] });
const input = estimatorInput(batch, 1);
const lengths = estimatorLengths(batch);
const rewards = Array.from(batch.rewards);

/** Garbage and registrations enough that finalizers run between calls. */
const PRESSURE = 'for (let i = 0; i < 3000; i++) reg.register({ junk: new Array(200).fill(i) }, i);';

/** Calls the code `n` times (a pause between calls lets finalizers run); the results, or the first CustomCodeError. */
async function calls(code: CustomCode, n: number): Promise<{ outputs: number[][]; error: CustomCodeError | null }> {
  const outputs: number[][] = [];
  for (let k = 0; k < n; k++) {
    try {
      outputs.push(Array.from(await code.call(input, lengths)));
    } catch (e) {
      if (e instanceof CustomCodeError) return { outputs, error: e };
      throw e;
    }
    // Work between calls, as a trainer's step is: garbage here too, so that collections (and the
    // finalizers they schedule) also come between calls, outside any call's time limit.
    let junk: number[][] = [];
    for (let i = 0; i < 200; i++) junk.push(new Array(5000).fill(i));
    junk = [];
    await new Promise((r) => setTimeout(r, 5 + junk.length));
  }
  return { outputs, error: null };
}

/** Loads `source` as an estimator with the time limit `limitMs`, makes `n` calls (calls) and disposes of it. */
async function runCode(source: string, n: number, limitMs = 2000): ReturnType<typeof calls> {
  const code = await CustomCode.load('estimator', source, nodeSandbox, limitMs);
  try {
    return await calls(code, n);
  } finally {
    code.dispose();
  }
}

describe("hostile code in Node's sandbox", () => {
  it("S1: a finalizer that turns the host's input into a setter call and reaches for its Function writes no file", async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'rlvr-s1-')), 'escaped.txt');
    // Through the object handed in: its constructor's constructor is the host's Function, the
    // host's process can open files (this created the file with the vm sandbox).
    const grab = `try { const b = v.constructor.constructor('return process')().binding('fs'); b.close(b.open(${JSON.stringify(target)}, 577, 420)); } catch (e) {}`;
    const source = `const reg = new FinalizationRegistry(() => {
  try { Object.defineProperty(globalThis, '__rlvrIn', { configurable: true, get() { return undefined; }, set(v) { ${grab} } }); } catch (e) {}
});
function advantages(batch) {
  ${PRESSURE}
  return Array.from(batch.rewards);
}`;
    const r = await runCode(source, 25);
    await new Promise((res) => setTimeout(res, 100));
    expect(existsSync(target)).toBe(false);
    expect(r.error).toBeNull();
    expect(r.outputs.every((o) => o.join() === rewards.join())).toBe(true);
  }, 30_000);

  it('S2: a finalizer that never returns stops the code at its time limit; the host does not hang', async () => {
    const source = `const reg = new FinalizationRegistry(() => { for (;;) {} });
function advantages(batch) {
  ${PRESSURE}
  return Array.from(batch.rewards);
}`;
    const t0 = Date.now();
    const r = await runCode(source, 25, 300);
    expect(r.error, 'the finalizer never ran: no hang to catch').not.toBeNull();
    expect(r.error!.failure).toBe('timeout');
    expect(r.error!.message).toContain('did not return within 300 ms');
    expect(Date.now() - t0).toBeLessThan(15_000);
  }, 30_000);

  it('S3: a promise rejected with no handler is a named failure of the next call, not a crash', async () => {
    const r = await runCode(
      'function advantages(batch) {\n  if (batch.step >= 0) Promise.reject(new Error("boom"));\n  return Array.from(batch.rewards);\n}',
      3,
    );
    expect(r.outputs).toEqual([rewards]);
    expect(r.error?.message).toMatch(/a promise rejected with no handler: boom/);
  });

  it("S4: a non-configurable global of the host's name changes nothing", async () => {
    const r = await runCode(
      'Object.defineProperty(globalThis, "__rlvrIn", { value: 1, writable: false, configurable: false });\nfunction advantages(batch) {\n  return Array.from(batch.rewards);\n}',
      2,
    );
    expect(r.error).toBeNull();
    expect(r.outputs).toEqual([rewards, rewards]);
  });

  it('S3 in rlvr train: the run pauses at the step (exit 3) with a checkpoint that resumes, instead of dying', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-s3-'));
    const file = join(dir, 'est.js');
    writeFileSync(
      file,
      'function advantages(batch) {\n  if (batch.step === 2) Promise.reject(new Error("boom"));\n  return batch.rewards;\n}\n',
    );
    const out = join(dir, 'run');
    const {
      rc,
      lines,
      errors: errs,
    } = await trainInto([...SMALL_TRAIN, '--steps', '4', '--estimator-file', file], undefined, out);
    expect(rc, errs.join('\n')).toBe(3);
    const fault = JSON.parse(lines.at(-1)!).fault;
    expect(fault).toMatchObject({ step: 3, check: 'custom-code' });
    expect(fault.message).toContain('a promise rejected with no handler: boom');
    expect(loadResume(fault.checkpoint).run.trainedSteps).toBe(2);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
  }, 60_000);
});
