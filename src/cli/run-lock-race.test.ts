// Two runs that meet at a stale lock: whatever point of the first one's takeover the second one
// runs at (all of it, between two of the first one's file operations), exactly one of them takes
// the folder. The file operations are intercepted to interleave the two takers in one process.

import { describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Called before each intercepted file operation of the lock code (null: none). */
const hook = vi.hoisted(() => ({ before: null as null | ((op: string) => void) }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const wrap = <F extends (...a: never[]) => unknown>(op: string, f: F): F =>
    ((...a: never[]) => {
      hook.before?.(op);
      return f(...a);
    }) as F;
  const ops = [
    'writeFileSync',
    'openSync',
    'readSync',
    'fstatSync',
    'closeSync',
    'unlinkSync',
    'readFileSync',
    'renameSync',
    'linkSync',
    'statSync',
  ] as const;
  const wrapped: Record<string, unknown> = { ...fs };
  for (const op of ops) wrapped[op] = wrap(op, fs[op] as never);
  return { ...wrapped, default: wrapped };
});

const { lockRunFolder, LOCK_FILE } = await import('./run-lock');

type Outcome = { ok: true; release: () => void } | { ok: false; message: string };
function take(dir: string, pid: number): Outcome {
  try {
    return { ok: true, release: lockRunFolder(dir, () => {}, { pid }) };
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

describe('the stale-lock takeover', () => {
  it('two takers racing at every file operation of the takeover: exactly one takes the folder', () => {
    // Two live pids (this process and its parent) for the two takers; a dead one for the stale lock.
    const [a, b] = [process.pid, process.ppid];
    const gone = Number(
      spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
    );
    const races: { k: number; winners: number; says: string; holder: string; want: number }[] = [];
    for (let k = 1; ; k++) {
      const dir = mkdtempSync(join(tmpdir(), 'rlvr-lock-race-'));
      writeFileSync(join(dir, LOCK_FILE), `${gone}\n`);
      let n = 0;
      let second: Outcome | null = null;
      hook.before = () => {
        if (++n !== k || second) return;
        hook.before = null; // the second taker runs whole, uninterrupted
        second = take(dir, b);
      };
      const first = take(dir, a);
      hook.before = null;
      if (!second) break; // the first taker made fewer than k operations: every point was tried
      const s = second as Outcome;
      const says = `second taker run before operation ${k} of the first: first ${first.ok ? 'took it' : first.message}; second ${s.ok ? 'took it' : s.message}`;
      races.push({
        k,
        winners: [first, s].filter((o) => o.ok).length,
        says,
        holder: readFileSync(join(dir, LOCK_FILE), 'utf8').trim(),
        want: first.ok ? a : b,
      });
      for (const o of [first, s]) if (o.ok) o.release();
    }
    for (const r of races) expect(r.winners, r.says).toBe(1);
    for (const r of races) expect(r.holder, r.says).toBe(String(r.want));
    const points = races.length;
    expect(points).toBeGreaterThan(3);
  });
});
