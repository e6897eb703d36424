// A run stops after its step, with its checkpoint, however it is asked: a closed terminal
// (SIGHUP) as Ctrl-C does, and a run of a sweep killed outright (SIGKILL, which the sweep cannot
// pass on) stops by itself instead of training on as an orphan.

import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trainCommand } from './train-commands';
import { readSafetensors } from '../model/safetensors';
import { SMALL_TRAIN, sweepStoppedBy } from './testTrain';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-stop-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const linesOf = (path: string) =>
  existsSync(path) ? readFileSync(path, 'utf8').trim().split('\n').filter(Boolean).length : 0;

/** Process ids whose command line mentions `text` (Linux /proc). */
function processesWith(text: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) out.push(Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

describe('stopping a run', () => {
  it('SIGHUP (a closed terminal) stops train after its step with the checkpoint, as Ctrl-C does', async () => {
    const dir = tmp();
    const lines: string[] = [];
    let sent = false;
    const rc = await trainCommand(
      [...SMALL_TRAIN, '--steps', '50', '--out', dir, '--json'],
      (s) => {
        lines.push(s);
        if (!sent) {
          sent = true;
          process.emit('SIGHUP', 'SIGHUP');
        }
      },
      () => {},
    );
    expect(rc).toBe(130);
    expect(JSON.parse(lines.at(-1)!).done).toMatchObject({ steps: 1, stoppedBy: 'SIGHUP' });
    expect(readSafetensors(readFileSync(join(dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({
      trainedSteps: 1,
    });
    expect(process.listenerCount('SIGHUP')).toBe(0);
  });

  it('SIGHUP stops a sweep as Ctrl-C does: no new runs, the running one keeps its checkpoint', async () => {
    const dir = tmp();
    const { rc, errs } = await sweepStoppedBy('SIGHUP', dir);
    expect(rc, errs.join('\n')).toBe(130);
    expect(existsSync(join(dir, 'lr=0.003/seed-0/checkpoint.safetensors'))).toBe(true);
    expect(existsSync(join(dir, 'lr=0.003/seed-1'))).toBe(false);
    expect(process.listenerCount('SIGHUP')).toBe(0);
  }, 120_000);

  it('a sweep killed outright (SIGKILL): its running train stops by itself after its step, with its checkpoint', async () => {
    const dir = tmp();
    const run = join(dir, 'lr=0.003', 'seed-0');
    const sweep = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        'sweep',
        '--preset',
        'sort-easy',
        '--grid',
        'lr=0.003',
        '--seeds',
        '0',
        '--steps',
        '100000',
        '--backend',
        'cpu',
        '--out',
        dir,
      ],
      { stdio: 'ignore' },
    );
    const metrics = join(run, 'metrics.jsonl');
    const deadline = Date.now() + 90_000;
    while (linesOf(metrics) < 2 && Date.now() < deadline) await sleep(200);
    expect(linesOf(metrics), 'the run trains').toBeGreaterThanOrEqual(2);
    const trains = processesWith(`--out\u0000${run}`);
    expect(trains.length, 'one train process').toBe(1);
    sweep.kill('SIGKILL');
    // It notices at its next step and ends.
    const until = Date.now() + 60_000;
    while (processesWith(`--out\u0000${run}`).length > 0 && Date.now() < until) await sleep(200);
    const left = processesWith(`--out\u0000${run}`);
    for (const pid of left) process.kill(pid, 'SIGKILL'); // not to leave an orphan behind if this fails
    expect(left, 'the orphaned train ended').toEqual([]);
    const steps = linesOf(metrics);
    expect(steps).toBeLessThan(100000);
    expect(
      (readSafetensors(readFileSync(join(run, 'checkpoint.safetensors'))).runConfig as { trainedSteps: number })
        .trainedSteps,
    ).toBe(steps);
  }, 180_000);

  it('a real SIGINT during a CPU-engine warm start is acted on at the next step: exit 130 with the checkpoint', async () => {
    // process.emit would run the handler at once; a real signal needs the loop to give the event
    // loop a turn, which a CPU engine's already-resolved promises never did.
    const dir = tmp();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        MAIN,
        'train',
        ...SMALL_TRAIN,
        '--set',
        'sftSteps=100000',
        '--steps',
        '5',
        '--out',
        dir,
        '--json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait for the warm start to be under way (its progress file or line), then interrupt it.
    const t0 = Date.now();
    while (!existsSync(join(dir, 'config.json')) && Date.now() - t0 < 60_000) await sleep(100);
    await sleep(1500);
    const sentAt = Date.now();
    child.kill('SIGINT');
    const timeout = sleep(30_000).then(() => 'timed out' as const);
    const code = await Promise.race([exited, timeout]);
    if (code === 'timed out') child.kill('SIGKILL');
    expect(code).toBe(130);
    expect(Date.now() - sentAt).toBeLessThan(30_000);
    const ck = readSafetensors(readFileSync(join(dir, 'checkpoint.safetensors')));
    expect(ck.runConfig).toMatchObject({ trainedSteps: 0 });
    expect(out).toContain('SIGINT');
  }, 90_000);
});
