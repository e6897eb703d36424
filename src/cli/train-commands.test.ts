import { describe, it, expect } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsWithoutClock } from './run-folder-fixtures';
import { trainCommand } from './train-commands';
import { readSafetensors } from '../model/safetensors';
import { gpuIt } from '../gpu/testing';
import { SMALL_TRAIN, trainSmall } from './testTrain';

describe('rlvr train (cpu backend)', () => {
  const stepOf = (path: string) =>
    (readSafetensors(readFileSync(path)).runConfig as { trainedSteps: number }).trainedSteps;

  it('writes config.json, one metrics line per step and a checkpoint; the same seed gives the same metrics', async () => {
    const a = await trainSmall(['--steps', '2']);
    expect(a.rc).toBe(0);
    const config = JSON.parse(readFileSync(join(a.dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ seed: 3, steps: 2, batchPrompts: 2, groupSize: 4 });
    const metrics = readFileSync(join(a.dir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(metrics.map((m) => m.step)).toEqual([1, 2]);
    expect(readSafetensors(readFileSync(join(a.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({
      trainedSteps: 2,
    });
    const b = await trainSmall(['--steps', '2']);
    expect(metricsWithoutClock(b.dir)).toEqual(metricsWithoutClock(a.dir));
  });

  it('on SIGINT stops after the current step, still writes the checkpoint, and exits 130 (a relayed repeat is the same request)', async () => {
    let sent = false;
    const r = await trainSmall(['--steps', '50'], () => {
      // Twice at once, as a terminal's Ctrl-C reaching npm and node both: the second must not
      // count as "quit at once" (that would exit this test process).
      if (!sent) {
        sent = true;
        process.emit('SIGINT', 'SIGINT');
        process.emit('SIGINT', 'SIGINT');
      }
    });
    expect(r.rc).toBe(130);
    const done = JSON.parse(r.lines.at(-1)!).done;
    expect(done).toMatchObject({ steps: 1, stoppedBy: 'SIGINT' });
    expect(readSafetensors(readFileSync(join(r.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({
      trainedSteps: 1,
    });
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('--checkpoint-every writes the checkpoint during the run; a bad value is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const onDisk: Record<number, boolean> = {};
    const r = await trainSmall(
      ['--steps', '3', '--checkpoint-every', '2'],
      (line) => {
        const step = JSON.parse(line).step;
        if (step) onDisk[step] = existsSync(join(dir, 'checkpoint.safetensors'));
      },
      dir,
    );
    expect(r.rc).toBe(0);
    // Each line is printed before that step's checkpoint: the file first exists when step 3 is printed.
    expect(onDisk).toEqual({ 1: false, 2: false, 3: true });
    await expect(trainSmall(['--steps', '3', '--checkpoint-every', '-1'])).rejects.toThrowError(
      /--checkpoint-every must be an integer in \[0, 10000000\], got "-1"/,
    );
  });

  it('--config naming a directory or a missing file is a named error, not a stack trace', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rlvr-cfg-'));
    await expect(
      trainCommand(
        ['--config', d, '--steps', '1', '--out', join(d, 'o')],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(new RegExp(`^--config: cannot read ${d}: EISDIR`));
    await expect(
      trainCommand(
        ['--config', join(d, 'nope.json'), '--steps', '1', '--out', join(d, 'o')],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(/^--config: cannot read .*nope\.json: ENOENT/);
  });

  it('--cell writes cell.json beside config.json (rlvr report groups by it); a run without it leaves none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    expect((await trainSmall(['--steps', '1', '--cell', 'lr=0.01'], undefined, dir)).rc).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'cell.json'), 'utf8'))).toEqual({ cell: 'lr=0.01', preset: 'sort-easy' });
    expect((await trainSmall(['--steps', '1'], undefined, dir)).rc).toBe(0);
    expect(existsSync(join(dir, 'cell.json'))).toBe(false);
  });

  it('--out that is a file, /dev/null or under /proc is named before anything runs (no hang, no stack trace); --backend is checked first', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rlvr-out-'));
    const file = join(d, 'f');
    writeFileSync(file, 'x');
    await expect(trainSmall(['--steps', '1'], undefined, file)).rejects.toThrowError(/^--out .*\/f: is not a folder$/);
    await expect(trainSmall(['--steps', '1'], undefined, join(file, 'sub'))).rejects.toThrowError(
      /^--out .*\/f\/sub: .*\/f is not a folder$/,
    );
    await expect(trainSmall(['--steps', '1'], undefined, '/dev/null')).rejects.toThrowError(
      /^--out \/dev\/null: is not a folder$/,
    );
    await expect(trainSmall(['--steps', '1'], undefined, '/proc/rlvr-x')).rejects.toThrowError(
      /^--out \/proc\/rlvr-x: cannot create the folder \/proc\/rlvr-x \(ENOENT/,
    );
    const never = join(d, 'never');
    await expect(
      trainCommand(
        ['--preset', 'sort-easy', '--steps', '1', '--backend', 'tpu', '--out', never],
        () => {},
        () => {},
      ),
    ).rejects.toThrowError(/--backend must be one of gpu, cpu; got "tpu"/);
    expect(existsSync(never)).toBe(false);
    // A folder where the checkpoint file goes is found at the start too.
    const clash = join(d, 'clash');
    mkdirSync(join(clash, 'checkpoint.safetensors'), { recursive: true });
    await expect(trainSmall(['--steps', '1'], undefined, clash)).rejects.toThrowError(
      /checkpoint\.safetensors there is a folder/,
    );
  });

  it('a metrics.jsonl that cannot be appended to is reported and the run still ends with its checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const errs: string[] = [];
    const rc = await trainCommand(
      [...SMALL_TRAIN, '--out', dir, '--json', '--steps', '3'],
      (line) => {
        if (JSON.parse(line).step === 1) {
          rmSync(join(dir, 'metrics.jsonl'));
          mkdirSync(join(dir, 'metrics.jsonl')); // appending to a folder fails (EISDIR)
        }
      },
      (s) => errs.push(s),
    );
    expect(rc).toBe(0);
    expect(errs.join('\n')).toMatch(/warning: cannot append to .*metrics\.jsonl \(EISDIR.*at step 2; the run goes on/);
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(3);
  });

  it('a checkpoint that cannot be written where asked goes to a rescue folder (exit 1); the old one stays whole', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const errs: string[] = [];
    const rc = await trainCommand(
      [...SMALL_TRAIN, '--out', dir, '--json', '--steps', '2', '--checkpoint-every', '1'],
      (line) => {
        // After step 1's checkpoint: block the temporary file the next write goes through.
        if (JSON.parse(line).step === 2) mkdirSync(join(dir, `.checkpoint.safetensors.tmp-${process.pid}`));
      },
      (s) => errs.push(s),
    );
    expect(rc).toBe(1);
    const rescued = /saved to (\S+) instead/.exec(errs.join('\n'))![1];
    expect(stepOf(rescued)).toBe(2);
    expect(existsSync(rescued.replace(/\.safetensors$/, '.state.safetensors'))).toBe(true);
    expect(stepOf(join(dir, 'checkpoint.safetensors'))).toBe(1);
    expect(readdirSync(dir).filter((n) => n.startsWith('.') && !n.includes(`tmp-${process.pid}`))).toEqual([]);
  });

  it("--checkpoint-levels keeps the weights each level starts with: the first level's after the warm start (the base model), the next at its advance", async () => {
    // 20 warm-start steps on the answers: length 2 then passes the 0.01 target at its first check.
    const r = await trainSmall([
      '--steps',
      '3',
      '--checkpoint-levels',
      '--set',
      'sftSteps=20',
      '--set',
      'sftLr=0.01',
      '--set',
      'curriculum=pass-rate',
      '--set',
      'curriculumParam=length',
      '--set',
      'curriculumStart=2',
      '--set',
      'curriculumWindow=1',
      '--set',
      'curriculumTarget=0.01',
      '--set',
      'evalPrompts=32',
    ]);
    expect(r.rc).toBe(0);
    const run = (name: string) =>
      readSafetensors(readFileSync(join(r.dir, name))).runConfig as { trainedSteps: number; level: number };
    expect(run('checkpoint-level2.safetensors')).toMatchObject({ trainedSteps: 0, level: 2 });
    expect(run('checkpoint-level3.safetensors')).toMatchObject({ trainedSteps: 1, level: 3 });
  });

  it('--checkpoint-at writes the weights after each listed step, and the final checkpoint still holds the last; a bad list is named', async () => {
    const r = await trainSmall(['--steps', '3', '--checkpoint-at', '1,3']);
    expect(r.rc).toBe(0);
    const run = (name: string) =>
      readSafetensors(readFileSync(join(r.dir, name))).runConfig as { trainedSteps: number };
    expect(run('checkpoint-step1.safetensors').trainedSteps).toBe(1);
    expect(run('checkpoint-step3.safetensors').trainedSteps).toBe(3);
    expect(existsSync(join(r.dir, 'checkpoint-step2.safetensors'))).toBe(false);
    // The step-3 file is the run's end: the same weights as checkpoint.safetensors.
    expect(readSafetensors(readFileSync(join(r.dir, 'checkpoint-step3.safetensors'))).params).toEqual(
      readSafetensors(readFileSync(join(r.dir, 'checkpoint.safetensors'))).params,
    );
    await expect(trainSmall(['--steps', '3', '--checkpoint-at', '10,x'])).rejects.toThrowError(
      /--checkpoint-at must be a comma-separated list of positive step numbers \(e\.g\. 100,300\), got "x" in "10,x"/,
    );
    await expect(trainSmall(['--steps', '3', '--checkpoint-at', '0'])).rejects.toThrowError(/--checkpoint-at must be/);
  });

  gpuIt(
    'a config in range that does not fit the adapter is refused before any GPU work, naming the knob and the largest value that fits',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
      await expect(
        trainCommand(
          [
            '--preset',
            'sort-easy',
            '--steps',
            '1',
            '--out',
            dir,
            '--set',
            'model.nEmbd=512',
            '--set',
            'batchPrompts=256',
            '--set',
            'groupSize=64',
          ],
          () => {},
          () => {},
        ),
      ).rejects.toThrowError(
        /^this run does not fit the GPU: .*maxStorageBufferBindingSize.*Values that fit, the others unchanged: batchPrompts ≤ \d+/,
      );
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      await expect(
        trainCommand(
          ['--preset', 'sort-easy', '--steps', '1', '--out', dir, '--gpu-memory', '0.001'],
          () => {},
          () => {},
        ),
      ).rejects.toThrowError(/the memory budget is 1\.1 MB.*Or raise the budget with --gpu-memory GiB\.$/);
    },
  );
});
