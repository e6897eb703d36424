// A run killed at any point of a checkpoint write can be resumed, and gives the metrics of the
// run that was never killed. A child `rlvr train` (CPU engine, tiny model) runs with a hook
// (crash-hook.fixture.mjs) that copies the run folder before every file operation in it: each
// copy is what a process killed right then leaves on disk. Every copy is resumed; two real
// SIGKILLs check that a copy is what a kill leaves.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trainCommand } from './train-commands';
import { loadResume } from './checkpoint-files';
import { metricsWithoutClock } from './run-folder-fixtures';
import { smallTrainFlags, TINY_MODEL, trainInto } from './testTrain';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const HOOK = fileURLToPath(new URL('./crash-hook.fixture.mjs', import.meta.url));
const TINY = smallTrainFlags({ seed: 4, set: { ...TINY_MODEL, epochs: 2, minibatches: 2 } });
const tmp = (what: string) => mkdtempSync(join(tmpdir(), `rlvr-crash-${what}-`));

/** `rlvr train` to step 2 with a checkpoint after each step, in a child process under the hook. */
function hookedTrain(dir: string, env: Record<string, string>) {
  return spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      HOOK,
      MAIN,
      'train',
      ...TINY,
      '--steps',
      '2',
      '--checkpoint-every',
      '1',
      '--out',
      dir,
      '--json',
    ],
    { encoding: 'utf8', env: { ...process.env, RLVR_FS_WATCH: dir, ...env }, timeout: 120_000 },
  );
}

async function resumeTo3(dir: string): Promise<number> {
  const errs: string[] = [];
  const rc = await trainCommand(
    ['--resume', dir, '--backend', 'cpu', '--steps', '3', '--json'],
    () => {},
    (s) => errs.push(s),
  );
  expect(rc, errs.join('\n')).toBe(0);
  return rc;
}

describe('a run killed while it writes a checkpoint', () => {
  // The run never killed (3 steps), and the hooked run (2 steps) with a copy before each file operation.
  let want: string[];
  let snaps: string;
  beforeAll(async () => {
    const whole = tmp('whole');
    expect((await trainInto([...TINY, '--steps', '3'], undefined, whole)).rc).toBe(0);
    want = metricsWithoutClock(whole);
    snaps = tmp('snapshots');
    const r = hookedTrain(tmp('run'), { RLVR_FS_SNAPSHOT: snaps });
    expect(r.status, r.stderr).toBe(0);
  }, 300_000);
  afterAll(() => rmSync(snaps, { recursive: true, force: true }));

  it('resumes from every point of the checkpoint writes, never from an older step than a later point, with the metrics of the unkilled run', async () => {
    const ops = readFileSync(join(snaps, 'ops.txt'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => /^(\d+) (.*)$/.exec(l)!.slice(1));
    // The points inside the checkpoint writes (and the one after the last).
    const points = ops.filter(([, what]) => /checkpoint/.test(what)).map(([n]) => Number(n));
    expect(points.length).toBeGreaterThan(20);
    let resumedFrom = 0;
    const seen: string[] = [];
    for (const n of points) {
      const copy = join(snaps, String(n));
      const what = ops[n - 1][1];
      if (!existsSync(join(copy, 'checkpoint.safetensors'))) {
        // Before the first checkpoint is in place there is nothing to resume, and it says so.
        expect(resumedFrom, `op ${n} (${what})`).toBe(0);
        expect(() => loadResume(copy)).toThrowError(/there is no .*checkpoint\.safetensors/);
        continue;
      }
      let step: number;
      try {
        step = loadResume(copy).run.trainedSteps;
      } catch (e) {
        throw new Error(
          `killed before op ${n} (${what}): ${(e as Error).message}\nfiles: ${readdirSync(copy).join(', ')}`,
          { cause: e },
        );
      }
      expect(step, `op ${n} (${what})`).toBeGreaterThanOrEqual(resumedFrom);
      resumedFrom = step;
      seen.push(`${n}:${step}`);
      await resumeTo3(copy);
      expect(metricsWithoutClock(copy), `killed before op ${n} (${what}), resumed from step ${step}`).toEqual(want);
    }
    // Both checkpoints were resumed from.
    expect(new Set(seen.map((s) => s.split(':')[1]))).toEqual(new Set(['1', '2']));
    console.log(
      `killed at ${points.length} points of 3 checkpoint writes (${ops.length} file operations in all): resumed from ${seen.join(' ')} (op:step)`,
    );
  }, 600_000);

  it('a real SIGKILL between the two renames, and in the middle of writing the weights, leaves a run that resumes exactly', async () => {
    // The operations as the hooked run numbered them (the sequence is the same every run).
    const ops = readFileSync(join(snaps, 'ops.txt'), 'utf8').trim().split('\n');
    const nth = (pattern: RegExp, k: number) => Number(ops.filter((l) => pattern.test(l))[k - 1].split(' ')[0]);
    // The second checkpoint write (step 2): its weights' rename, and the second half of their write.
    const killAt = [
      nth(/ rename \S+ → checkpoint\.safetensors$/, 2),
      nth(/ write \(second half\) \.checkpoint\.safetensors/, 2),
    ];
    for (const at of killAt) {
      const dir = tmp('killed');
      const r = hookedTrain(dir, { RLVR_FS_KILL_AT: String(at) });
      expect(r.signal, `killed at op ${at}`).toBe('SIGKILL');
      const copy = tmp('copy');
      cpSync(dir, copy, { recursive: true });
      expect(loadResume(copy).run.trainedSteps, ops[at - 1]).toBe(1);
      await resumeTo3(copy);
      expect(metricsWithoutClock(copy), ops[at - 1]).toEqual(want);
    }
  }, 300_000);
});
