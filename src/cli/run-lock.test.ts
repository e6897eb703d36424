// One rlvr train at a time per run folder: a second one is refused naming the first, and a lock
// left by a process that is gone is taken over.

import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trainCommand } from './train-commands';
import { LOCK_FILE } from './run-lock';
import { SMALL_TRAIN } from './testTrain';

const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-lock-'));

describe('a run folder has one writer', () => {
  it('a second train into a folder a train is writing is refused before it writes, naming the first', async () => {
    const dir = tmp();
    let second: Promise<Error | null> | null = null;
    const rc = await trainCommand(
      [...SMALL_TRAIN, '--steps', '50', '--out', dir, '--json'],
      () => {
        if (second) return;
        second = trainCommand(
          [...SMALL_TRAIN, '--set', 'lr=0.01', '--steps', '5', '--out', dir, '--json'],
          () => {},
          () => {},
        ).then(
          () => null,
          (e: Error) => e,
        );
        process.emit('SIGINT', 'SIGINT');
      },
      () => {},
    );
    expect(rc).toBe(130);
    expect((await (second as Promise<Error | null> | null))?.message).toBe(
      `--out ${dir}: another rlvr train (process ${process.pid}) is writing there; wait for it to end, or give another folder`,
    );
    const steps = readFileSync(join(dir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).step);
    expect(steps).toEqual(steps.map((_, i) => i + 1));
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).lr).toBe(0.003);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it('a lock left by a process that is gone is taken over, with a note', async () => {
    const dir = tmp();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
      encoding: 'utf8',
    }).stdout;
    writeFileSync(join(dir, LOCK_FILE), `${gone}\n`);
    const errs: string[] = [];
    expect(
      await trainCommand(
        [...SMALL_TRAIN, '--steps', '1', '--out', dir, '--json'],
        () => {},
        (s) => errs.push(s),
      ),
    ).toBe(0);
    expect(errs).toContain(`note: --out ${dir}: took over the lock of process ${gone}, which is gone`);
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });
});
