// `rlvr train --resume` and `--init`: a stopped run, a fault and a stopped warm start continued,
// what cannot change on --resume, and a fresh run from another's weights.

import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trainCommand } from './train-commands';
import { readSafetensors } from '../model/safetensors';
import { SMALL_TRAIN, trainSmall } from './testTrain';

describe('rlvr train --resume and --init (cpu backend)', () => {
  const lines = (dir: string) =>
    readFileSync(join(dir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
  const strip = (m: Record<string, unknown>) => ({
    ...m,
    scalars: Object.fromEntries(
      Object.entries(m.scalars as object).filter(([k]) => !k.startsWith('time/') && k !== 'tokens_per_s'),
    ),
  });
  const stepOf = (path: string) =>
    (readSafetensors(readFileSync(path)).runConfig as { trainedSteps: number }).trainedSteps;

  it('--resume continues a stopped run on its own engine (no --backend needed): its metrics are those of the run done in one go', async () => {
    const whole = await trainSmall(['--steps', '4', '--set', 'epochs=2', '--set', 'minibatches=2']);
    const part = await trainSmall(['--steps', '2', '--set', 'epochs=2', '--set', 'minibatches=2']);
    expect(existsSync(join(part.dir, 'checkpoint.state.safetensors'))).toBe(true);
    const more: string[] = [];
    const notes: string[] = [];
    const rc = await trainCommand(
      ['--resume', part.dir, '--steps', '4', '--json'],
      (s) => more.push(s),
      (s) => notes.push(s),
    );
    expect(rc).toBe(0);
    // The part was trained with --backend cpu; the resumed run stays there without being told.
    expect(JSON.parse(more.at(-1)!).done).toMatchObject({
      steps: 4,
      adapter: 'cpu reference',
      resumedFrom: join(part.dir, 'checkpoint.safetensors'),
    });
    expect(notes.filter((n) => /engine/.test(n))).toEqual([]);
    expect(lines(part.dir).map(strip)).toEqual(lines(whole.dir).map(strip));
    expect(stepOf(join(part.dir, 'checkpoint.safetensors'))).toBe(4);
  });

  it("--init starts a fresh run (step 1, its own config) from a checkpoint's weights; another model or task is refused by name", async () => {
    const donor = await trainSmall(['--steps', '2']);
    const from = join(donor.dir, 'checkpoint.safetensors');
    const fresh = await trainSmall(['--steps', '1', '--init', from]);
    expect(fresh.rc).toBe(0);
    expect(lines(fresh.dir).map((m) => m.step)).toEqual([1]);
    expect(JSON.parse(fresh.lines.at(-1)!).done).toMatchObject({ steps: 1, initFrom: from });
    // Same seed, so the same prompts and sampling streams: only the donor's weights make its first step differ.
    expect(strip(lines(fresh.dir)[0]).scalars).not.toEqual(strip(lines(donor.dir)[0]).scalars);
    await expect(trainSmall(['--steps', '1', '--init', from, '--set', 'model.nEmbd=8'])).rejects.toThrowError(
      /^--init .*: its model has nEmbd 16, this run's config builds 8/,
    );
    await expect(trainSmall(['--steps', '1', '--init', from, '--set', 'task.length=4'])).rejects.toThrowError(
      /^--init .*: its model has (vocabSize|nPositions) /,
    );
    await expect(
      trainCommand(
        ['--resume', donor.dir, '--init', from, '--backend', 'cpu', '--steps', '3'],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(/^--init starts a fresh run/);
  });

  it('--resume refuses what cannot change (seed, model, preset) and a --steps it has already reached, by name', async () => {
    const r = await trainSmall(['--steps', '2']);
    const resume = (extra: string[]) =>
      trainCommand(
        ['--resume', r.dir, '--backend', 'cpu', ...extra],
        () => {},
        () => {},
      );
    await expect(resume(['--steps', '2'])).rejects.toThrowError(
      /^--steps: the run is at step 2 and steps is 2; give --steps above it/,
    );
    await expect(resume(['--steps', '3', '--seed', '4'])).rejects.toThrowError(/^--seed cannot change on --resume/);
    await expect(resume(['--steps', '3', '--set', 'model.nEmbd=32'])).rejects.toThrowError(
      /^--set model\.nEmbd: cannot change on --resume/,
    );
    await expect(resume(['--steps', '3', '--preset', 'sort-easy'])).rejects.toThrowError(
      /--resume continues a saved run with its own config/,
    );
    await expect(resume(['--steps', '3', '--set', 'lr=7'])).rejects.toThrowError(/^--set lr: lr must be a number in/);
    rmSync(join(r.dir, 'checkpoint.state.safetensors'));
    await expect(resume(['--steps', '3'])).rejects.toThrowError(
      /its trainer state .*checkpoint\.state\.safetensors cannot be read/,
    );
  });

  it('a divergence fault keeps the last good checkpoint, writes the weights from before the step beside it, and the run resumes from them with a lower lr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const errs: string[] = [];
    const outLines: string[] = [];
    const rc = await trainCommand(
      [
        ...SMALL_TRAIN,
        '--out',
        dir,
        '--json',
        '--steps',
        '6',
        '--checkpoint-every',
        '1',
        '--set',
        'lr=1',
        '--set',
        'beta2=0',
        '--set',
        'adamEps=1e-12',
      ],
      (s) => outLines.push(s),
      (s) => errs.push(s),
    );
    expect(rc).toBe(3);
    const fault = JSON.parse(outLines.at(-1)!).fault;
    expect(fault.check).toBe('update-norm');
    const text = errs.join('\n');
    expect(text).toMatch(new RegExp(`^paused: step ${fault.step}: divergence \\(update-norm\\)`, 'm'));
    expect(text).toContain(
      `The last good checkpoint, ${join(dir, 'checkpoint.safetensors')} (step ${fault.step - 1}), is kept as it was.`,
    );
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(fault.step - 1);
    const before = join(dir, 'checkpoint-before-fault.safetensors');
    expect(stepOf(before)).toBe(fault.step - 1);
    expect(text).toContain(`--resume ${before} --set lr=<lower>`);
    const errs2: string[] = [];
    const rc2 = await trainCommand(
      [
        '--resume',
        before,
        '--backend',
        'cpu',
        '--set',
        'lr=0.001',
        '--set',
        'beta2=0.99',
        '--set',
        'adamEps=1e-8',
        '--json',
      ],
      () => {},
      (s) => errs2.push(s),
    );
    expect(rc2, errs2.join('\n')).toBe(0);
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(6);
    expect(lines(dir).map((m) => m.step)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('Ctrl-C during the SFT warm start stops it, writes the checkpoint (exit 130), and --resume finishes the warm start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    let sent = false;
    const rc = await trainCommand(
      [...SMALL_TRAIN, '--out', dir, '--json', '--steps', '2', '--set', 'sftSteps=30'],
      () => {},
      (s) => {
        if (!sent && s.startsWith('warm start: step')) {
          sent = true;
          process.emit('SIGINT', 'SIGINT');
        }
      },
    );
    expect(rc).toBe(130);
    expect(lines(dir)).toEqual([
      expect.objectContaining({ warmStart: expect.objectContaining({ steps: 3, done: 3, of: 30 }) }),
    ]);
    expect(process.listenerCount('SIGINT')).toBe(0);
    const rc2 = await trainCommand(
      ['--resume', dir, '--backend', 'cpu', '--json'],
      () => {},
      () => {},
    );
    expect(rc2).toBe(0);
    const all = lines(dir);
    expect(all[1]).toMatchObject({ warmStart: { steps: 27, done: 30, of: 30 } });
    expect(all.slice(2).map((m) => m.step)).toEqual([1, 2]);
  });
});
