// Kills in a row at every file operation of the checkpoint writes: the run folder always holds a
// pair that resumes, and the resume gives the metrics of the run that was never killed. A kill
// is simulated in-process: every file operation that changes the disk (open for writing, write,
// fsync, close, rename, unlink) is counted, and from the chosen one on every file operation
// throws (nothing more reaches the disk, as when the process dies there). Then a "new process"
// resumes the folder, trains a step, and is killed again at every operation of its own write.
// (checkpoint-crash.test.ts checks one kill with real processes.)

import { describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

const kill = vi.hoisted(() => ({ at: 0, count: 0, dead: false }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const changes = new Set([
    'openSync',
    'writeSync',
    'fsyncSync',
    'closeSync',
    'renameSync',
    'unlinkSync',
    'writeFileSync',
    'appendFileSync',
    'rmSync',
    'copyFileSync',
  ]);
  const wrapped: Record<string, unknown> = { ...fs };
  for (const [name, f] of Object.entries(fs)) {
    if (typeof f !== 'function' || !/Sync$/.test(name)) continue;
    wrapped[name] = (...a: unknown[]) => {
      if (kill.dead) throw new Error(`killed (${name} after the kill)`);
      const opensToRead = name === 'openSync' && (a[1] === undefined || a[1] === 'r');
      if (kill.at > 0 && changes.has(name) && !opensToRead && ++kill.count === kill.at) {
        kill.dead = true;
        throw new Error(`killed before ${name}`);
      }
      return (f as (...x: unknown[]) => unknown)(...a);
    };
  }
  return { ...wrapped, default: wrapped };
});

const { CHECKPOINT, loadResume, saveCheckpoint, statePathOf } = await import('./checkpoint-files');
const { mergeConfig } = await import('../config/config');
const { presetConfig } = await import('../lessons/presets');
const { CpuEngine } = await import('../rl/cpu-engine');
const { Trainer } = await import('../rl/trainer');
type TrainerT = Awaited<ReturnType<typeof Trainer.create>>;
type MakeEngine = Parameters<typeof Trainer.create>[1];

const tiny = mergeConfig(presetConfig('sort-easy'), {
  'model.nEmbd': 8,
  'model.nLayer': 1,
  'model.nHead': 2,
  batchPrompts: 2,
  groupSize: 4,
  evalEvery: 0,
  epochs: 2,
  minibatches: 2,
  seed: 4,
  steps: 4,
});
const make: MakeEngine = (l, p, s) => new CpuEngine(l, p, s);
const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-kills-'));

/** A step's record without its wall-clock fields, as text. */
async function step(t: TrainerT): Promise<string> {
  const r = await t.step();
  for (const k of Object.keys(r.scalars)) if (k.startsWith('time/') || k === 'tokens_per_s') delete r.scalars[k];
  return JSON.stringify(r);
}

/** saveCheckpoint killed before the `at`-th operation that changes the disk; whether the kill came. */
async function killedSave(t: TrainerT, dir: string, at: number): Promise<boolean> {
  Object.assign(kill, { at, count: 0, dead: false });
  try {
    await saveCheckpoint(t, dir, CHECKPOINT);
    return kill.dead; // a kill at a removal the write does quietly (the set-aside state) is swallowed: still a kill
  } catch (e) {
    if (!kill.dead) throw e;
    return true;
  } finally {
    Object.assign(kill, { at: 0, count: 0, dead: false });
  }
}

/** The folder's pair as --resume would read it (a failure names the files), and a hash of the bytes it is read from. */
function resume(dir: string, what: string) {
  try {
    const source = loadResume(dir);
    const state = source.note
      ? join(dir, '.checkpoint.state.safetensors.previous')
      : statePathOf(join(dir, CHECKPOINT));
    const hash = createHash('sha256')
      .update(readFileSync(join(dir, CHECKPOINT)))
      .update(readFileSync(state))
      .digest('hex');
    return { source, hash };
  } catch (e) {
    throw new Error(`${what}: ${(e as Error).message}`, { cause: e });
  }
}

describe('kills in a row at every file operation of the checkpoint writes', () => {
  it("always leave a pair that resumes, and every resume gives the unkilled run's metrics", async () => {
    // The unkilled run: a checkpoint after step 1, the step-2 trainer kept for the killed writes, then steps 3 and 4.
    const ref = await Trainer.create(tiny, make);
    const want = [''];
    want.push(await step(ref));
    const base = tmp();
    await saveCheckpoint(ref, base, CHECKPOINT);
    want.push(await step(ref));

    const resumable = new Map<string, { dir: string; step: number; what: string }>();
    let firsts = 0;
    let seconds = 0;
    for (let i = 1; ; i++) {
      const dir = tmp();
      cpSync(base, dir, { recursive: true });
      if (!(await killedSave(ref, dir, i))) break;
      firsts++;
      const first = resume(dir, `killed before operation ${i} of the step-2 write`);
      const s1 = first.source.run.trainedSteps;
      expect([1, 2]).toContain(s1);
      // The resumed process trains a step (the unkilled run's step) and is killed in its own write.
      const again = await Trainer.create(first.source.run.config, make, {
        initial: first.source.run,
        resume: first.source.point,
      });
      expect(await step(again), `step ${s1 + 1} after a kill before operation ${i}`).toBe(
        want[s1 + 1] ?? (want.push(await step(ref)), want[s1 + 1]),
      );
      for (let j = 1; ; j++) {
        const twice = tmp();
        cpSync(dir, twice, { recursive: true });
        if (!(await killedSave(again, twice, j))) break;
        seconds++;
        const what = `killed before operation ${i} of the step-2 write, resumed from step ${s1}, killed before operation ${j} of the step-${s1 + 1} write`;
        const second = resume(twice, what);
        expect(second.source.run.trainedSteps, what).toBeGreaterThanOrEqual(s1);
        if (!resumable.has(second.hash))
          resumable.set(second.hash, { dir: twice, step: second.source.run.trainedSteps, what });
      }
      again.destroy();
    }
    while (want.length <= 4) want.push(await step(ref));
    ref.destroy();
    expect(firsts).toBeGreaterThan(8);
    expect(seconds).toBeGreaterThan(firsts * 8);

    // Every distinct pair left behind (the same bytes resume the same way) runs on to step 4 as the unkilled run did.
    const steps = new Set<number>();
    for (const { dir, step: s, what } of resumable.values()) {
      const { source } = resume(dir, what);
      const t = await Trainer.create(source.run.config, make, { initial: source.run, resume: source.point });
      const got: string[] = [];
      for (let k = s + 1; k <= 4; k++) got.push(await step(t));
      t.destroy();
      expect(got, what).toEqual(want.slice(s + 1));
      steps.add(s);
    }
    expect([...steps].sort()).toEqual([1, 2, 3]);
  }, 60_000);
});
