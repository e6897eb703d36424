// Hostile estimator sources, generated, against Node's sandbox: finalizers, proxies, getters,
// timers, promises, non-configurable globals, huge allocations, deep recursion and attempts to
// climb out through constructors and stack traces. Every case must end in a correct output or a
// named CustomCodeError (what the trainer turns into a pause) within its time budget, and leave
// no trace in the host: no file written, no global set, no crash. Each ingredient runs alone,
// then seeded random mixes of two or three of them.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomCode } from './custom-code';
import { CustomCodeError } from './custom-code-errors';
import { estimatorInput, estimatorLengths } from './interface';
import { nodeSandbox } from './sandbox-node';
import { makeBatch } from '../estimators-fixtures';

const batch = makeBatch({ B: 2, G: 3, T: 2, rewards: [1, 0, 0.5, 0, 0, 1] });
const input = estimatorInput(batch, 1);
const lengths = estimatorLengths(batch);
const SENTINEL = join(mkdtempSync(join(tmpdir(), 'rlvr-fuzz-')), 'host-effect.txt');

/** Tries every way out it knows from object `o` to the file system and the host's globals. */
const ESCAPE = `function escape(o) {
  let F;
  try { F = o.constructor.constructor; } catch (e) { return; }
  try { const g = F('return this')(); g.__rlvrPwned = 1; } catch (e) {}
  try { const p = F('return typeof process === "undefined" ? null : process')(); if (p) { const b = p.binding('fs'); b.close(b.open(${JSON.stringify(SENTINEL)}, 577, 420)); } } catch (e) {}
  try { const r = F('return typeof require === "undefined" ? null : require')(); if (r) r('fs').writeFileSync(${JSON.stringify(SENTINEL)}, 'x'); } catch (e) {}
  try { F('return import("node:fs")')().then((fs) => fs.writeFileSync(${JSON.stringify(SENTINEL)}, 'x'), () => {}); } catch (e) {}
}`;

interface Ingredient {
  name: string;
  /** At the top level of the code. */
  top?: string;
  /** At the start of advantages(batch). */
  body?: string;
  /** What advantages returns instead of a copy of the rewards. */
  ret?: string;
}

const INGREDIENTS: Ingredient[] = [
  {
    name: 'finalizer that climbs out',
    top: 'const reg = new FinalizationRegistry((held) => { escape(held); escape(reg); try { Object.defineProperty(globalThis, "__rlvrIn", { configurable: true, set(v) { escape(v); } }); } catch (e) {} });',
    body: 'for (let i = 0; i < 2000; i++) reg.register({ junk: new Array(100).fill(i) }, batch);',
  },
  {
    name: 'finalizer that never returns',
    top: 'const hang = new FinalizationRegistry(() => { for (;;) {} });',
    body: 'for (let i = 0; i < 2000; i++) hang.register({ junk: new Array(100).fill(i) }, i);',
  },
  {
    name: 'proxy as the output',
    ret: 'new Proxy(Array.from(batch.rewards), { get(t, k) { escape(t); if (k === "length") throw new Error("no length"); return t[k]; } })',
  },
  {
    name: 'proxy whose length never returns',
    ret: 'new Proxy(Array.from(batch.rewards), { get(t, k) { if (k === "length") for (;;) {} return t[k]; } })',
  },
  {
    name: 'getters on the output',
    ret: '(() => { const a = Array.from(batch.rewards); Object.defineProperty(a, 0, { get() { escape(a); return 1; } }); return a; })()',
  },
  {
    name: 'getter on the thrown error',
    body: 'const err = {}; Object.defineProperty(err, "message", { get() { escape(err); for (;;) {} } }); if (batch.step >= 0) throw err;',
  },
  { name: 'timers', body: 'setTimeout(() => escape(batch), 0); setInterval(() => {}, 1);' },
  { name: 'a rejected promise', body: 'Promise.reject(new Error("left behind"));' },
  { name: 'an endless promise chain', body: '(function again() { Promise.resolve().then(again); })();' },
  {
    name: 'non-configurable globals',
    top: 'for (const k of ["__rlvrIn", "__rlvrOut", "Float64Array", "Array"]) { try { Object.defineProperty(globalThis, k, { value: 1, writable: false, configurable: false }); } catch (e) {} }',
  },
  {
    name: 'patched prototypes',
    top: 'Array.prototype.push = function () { escape(this); }; Object.defineProperty(Object.prototype, "ok", { get() { escape(this); return true; }, set() {} }); Float64Array.prototype.fill = null;',
  },
  {
    name: 'a huge allocation',
    body: 'const hoard = []; for (let i = 0; i < 1e5; i++) hoard.push(new Float64Array(1 << 20));',
  },
  {
    name: 'a typed-array hoard at load',
    top: 'const hoard = []; for (let i = 0; i < 1e5; i++) hoard.push(new Float64Array(1 << 20));',
  },
  { name: 'deep recursion', body: 'const down = (n) => down(n + 1) + 1; down(0);' },
  {
    name: 'stack-trace hooks',
    top: 'Error.prepareStackTrace = (e, frames) => { for (const f of frames) { try { const fn = f.getFunction(); if (fn) escape(fn); const t = f.getThis(); if (t) escape(t); } catch (x) {} } return "";};',
    body: 'try { null.x; } catch (e) { e.stack; }',
  },
  {
    name: 'constructors of what it is given',
    body: 'escape(batch); escape(batch.rewards); escape(batch.promptKeys); escape(globalThis);',
  },
];

function source(parts: Ingredient[]): string {
  const ret = parts.find((p) => p.ret)?.ret ?? 'Array.from(batch.rewards)';
  return `${ESCAPE}\n${parts.map((p) => p.top ?? '').join('\n')}\nfunction advantages(batch) {\n${parts.map((p) => p.body ?? '').join('\n')}\n  return ${ret};\n}\n`;
}

/** A small seeded generator (mulberry32), so a failing mix can be run again. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mixes(count: number, seed: number): Ingredient[][] {
  const next = rng(seed);
  const out: Ingredient[][] = [];
  for (let i = 0; i < count; i++) {
    const n = 2 + Math.floor(next() * 2);
    const picked = new Set<Ingredient>();
    while (picked.size < n) picked.add(INGREDIENTS[Math.floor(next() * INGREDIENTS.length)]);
    out.push([...picked]);
  }
  return out;
}

/** Loads and calls the code 3 times: each outcome is a correct output or a named CustomCodeError; anything else is thrown. */
async function run(parts: Ingredient[]): Promise<string[]> {
  const outcomes: string[] = [];
  let code: CustomCode;
  try {
    code = await CustomCode.load('estimator', source(parts), nodeSandbox, 300, 3000);
  } catch (e) {
    if (e instanceof CustomCodeError) return [`load: ${e.failure}`];
    throw e;
  }
  try {
    for (let k = 0; k < 3; k++) {
      try {
        const out = await code.call(input, lengths);
        expect(Array.from(out)).toEqual(Array.from(batch.rewards));
        outcomes.push('ok');
      } catch (e) {
        if (!(e instanceof CustomCodeError)) throw e;
        expect(e.message).toMatch(/^your estimator/);
        outcomes.push(e.failure);
        break;
      }
    }
  } finally {
    code.dispose();
  }
  return outcomes;
}

describe("generated hostile estimators in Node's sandbox", () => {
  const cases = [...INGREDIENTS.map((i) => [i]), ...mixes(6, 51)];
  it(`${cases.length} cases end in a correct output or a named failure, with no effect on the host`, async () => {
    const seen: string[] = [];
    for (const parts of cases) {
      const t0 = Date.now();
      const what = parts.map((p) => p.name).join(' + ');
      const outcomes = await run(parts).catch((e: Error) => {
        throw new Error(`${what}: ${e.message}`);
      });
      expect(Date.now() - t0, what).toBeLessThan(8000);
      expect(existsSync(SENTINEL), what).toBe(false);
      expect((globalThis as Record<string, unknown>).__rlvrPwned, what).toBeUndefined();
      seen.push(`${what}: ${outcomes.join(', ')}`);
    }
    // Let late finalizers and promises of the killed processes have their chance.
    await new Promise((r) => setTimeout(r, 200));
    expect(existsSync(SENTINEL)).toBe(false);
    expect(({} as Record<string, unknown>).ok).toBeUndefined();
    console.log(seen.join('\n'));
  }, 120_000);
});
