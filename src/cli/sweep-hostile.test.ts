// rlvr sweep fed what a hostile user types: every input either does what it says or is refused
// before anything is written, in one line that names the input. --emit-jobs keeps these free of
// training runs; the inputs that used to hang run as child processes with a time limit.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepCommand } from './sweep-command';
import type { SweepIo } from './sweep-runner';
import { refusal, runCli, writeFakeRun } from './run-folder-fixtures';

const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-sweep-'));
const io = (out: string[] = [], errs: string[] = []): SweepIo => ({
  out: (s) => out.push(s),
  err: (s) => errs.push(s),
  tty: false,
  cli: ['node'],
});
/** `rlvr sweep --emit-jobs` of `preset`, seed 0, 2 steps, with `args`. */
const emitPreset = (preset: string, args: string[], out: string[] = [], errs: string[] = []) =>
  sweepCommand(['--preset', preset, '--seeds', '0', '--steps', '2', ...args, '--emit-jobs'], io(out, errs));
const emit = (args: string[], out: string[] = [], errs: string[] = []) => emitPreset('sort-easy', args, out, errs);

describe('rlvr sweep, hostile input', () => {
  it('a grid or --set over seed or steps is refused, naming the flag that sets it (the sweep sets both per run)', async () => {
    const d = tmp();
    await expect(emit(['--grid', 'seed=5,6', '--out', d])).rejects.toThrowError(
      /^--grid seed: .*give them with --seeds \(e\.g\. --seeds 5,6\)/,
    );
    await expect(emit(['--grid', 'steps=10,20', '--out', d])).rejects.toThrowError(
      /^--grid steps: .*give it with --steps/,
    );
    await expect(emit(['--grid', 'lr=0.01', '--set', 'seed=4', '--out', d])).rejects.toThrowError(
      /^--set seed: .*--seeds/,
    );
    await expect(emit(['--grid', 'lr=0.01', '--set', ' steps = 9', '--out', d])).rejects.toThrowError(
      /^--set steps: .*--steps/,
    );
    expect(existsSync(join(d, 'ablation.json'))).toBe(false);
  });

  it('the same value twice (0.001 and 1e-3) is refused, naming both cells, instead of one cell reported as "0/2 seeds"', async () => {
    const d = tmp();
    await expect(emit(['--grid', 'lr=0.001,1e-3', '--out', d])).rejects.toThrowError(
      /^cells "lr=0\.001" and "lr=1e-3" run the same config: give each value once$/,
    );
    await expect(emit(['--grid', 'lr=0.01,0.01', '--out', d])).rejects.toThrowError(
      /^cells "lr=0\.01" and "lr=0\.01" run the same config/,
    );
    await expect(
      emitPreset('clip-higher', ['--variant', 'symmetric clip', '--variant', 'symmetric clip', '--out', d]),
    ).rejects.toThrowError(/^cells "symmetric clip" and "symmetric clip" run the same config/);
    // A grid value equal to the preset's own is a cell like any other.
    const out: string[] = [];
    expect(await emit(['--grid', 'lr=0.003,0.01', '--out', d], out)).toBe(0);
    expect(out).toHaveLength(2);
  });

  it('a 100,000-character value is quoted short in the message', async () => {
    const long = 'x'.repeat(100_000);
    for (const args of [
      ['--grid', `lr=${long}`],
      ['--grid', 'lr=0.01', '--set', `evalEvery=${long}`],
      ['--grid', `${long}=1`],
      ['--grid', 'lr=0.01', '--seeds', long],
    ]) {
      const e = await emit([...args, '--out', tmp()]).then(
        () => null,
        (x: Error) => x,
      );
      expect(e, args[1].slice(0, 20)).toBeInstanceOf(Error);
      expect(e!.message.length, e!.message.slice(0, 300)).toBeLessThan(400);
      expect(e!.message).toMatch(/… \(100,00\d characters\)/);
    }
  });

  it('--out that is a file, /dev/null or below a file is refused as train refuses it, before anything is written', async () => {
    const d = tmp();
    const file = join(d, 'f');
    writeFileSync(file, 'x');
    await expect(emit(['--grid', 'lr=0.01', '--out', file])).rejects.toThrowError(/^--out .*\/f: is not a folder$/);
    await expect(emit(['--grid', 'lr=0.01', '--out', '/dev/null'])).rejects.toThrowError(
      /^--out \/dev\/null: is not a folder$/,
    );
    await expect(emit(['--grid', 'lr=0.01', '--out', join(file, 'sub')])).rejects.toThrowError(
      /^--out .*\/f\/sub: .*\/f is not a folder$/,
    );
    mkdirSync(join(d, 'clash', 'ablation.json'), { recursive: true });
    await expect(emit(['--grid', 'lr=0.01', '--out', join(d, 'clash')])).rejects.toThrowError(
      /ablation\.json there is a folder/,
    );
  });

  it("--out past the system's path limits is refused in a bounded line and leaves no folder behind; --cli must be one line", async () => {
    const d = tmp();
    const deep = join(d, ...Array.from({ length: 1200 }, () => 'abcd'));
    const e = await emit(['--grid', 'lr=0.01', '--out', deep]).then(
      () => null,
      (x: Error) => x,
    );
    expect(e?.message).toMatch(/^--out .*: cannot create the folder .* \(ENAMETOOLONG/);
    expect(e!.message.length).toBeLessThan(1000);
    expect(readdirSync(d)).toEqual([]);
    await expect(emit(['--grid', 'lr=0.01', '--out', join(d, 'x'.repeat(300))])).rejects.toThrowError(/ENAMETOOLONG/);
    await expect(
      emit(['--grid', 'lr=0.01', '--out', join(d, 'ok'), '--cli', 'npm run\nrm -rf x']),
    ).rejects.toThrowError('--cli must be one line (it starts every job line), got "npm run\\nrm -rf x"');
    expect(readdirSync(d)).toEqual([]);
  });

  it("--out holding runs that are not this sweep's, or another sweep's ablation.json, is refused; the same sweep again is not", async () => {
    const d = tmp();
    writeFakeRun(join(d, 'old', 'run-1'));
    await expect(emit(['--grid', 'lr=0.01', '--out', d])).rejects.toThrowError(
      new RegExp(
        `^--out ${d} already holds 1 run folder that is not this sweep's \\(old/run-1\\): its summary would count it; give a new folder$`,
      ),
    );
    const e = tmp();
    expect(await emit(['--grid', 'lr=0.01', '--out', e])).toBe(0);
    const spec = readFileSync(join(e, 'ablation.json'), 'utf8');
    expect(await emit(['--grid', 'lr=0.01', '--out', e])).toBe(0);
    // The sweep's own runs, finished elsewhere (--emit-jobs on a cluster), are its own.
    writeFakeRun(join(e, 'lr=0.01', 'seed-0'), {
      sets: ['lr=0.01'],
      steps: 2,
      cell: { cell: 'lr=0.01', preset: 'sort-easy' },
    });
    expect(await emit(['--grid', 'lr=0.01', '--out', e])).toBe(0);
    await expect(
      sweepCommand(
        ['--preset', 'sort-easy', '--seeds', '0', '--steps', '3', '--grid', 'lr=0.01', '--out', e, '--emit-jobs'],
        io(),
      ),
    ).rejects.toThrowError(
      /^--out .* holds another ablation \(its ablation\.json has steps 2, this sweep 3\): give a new folder, or the same flags to go on with that one$/,
    );
    expect(readFileSync(join(e, 'ablation.json'), 'utf8')).toBe(spec);
    writeFileSync(join(e, 'ablation.json'), '{"format": "something else"}');
    await expect(emit(['--grid', 'lr=0.01', '--out', e])).rejects.toThrowError(
      /^--out .*: its ablation\.json is not one rlvr sweep wrote/,
    );
  });

  it('a grid past the cell cap is refused at once, saying how many cells it asked for', async () => {
    const values = (n: number, from: number, by: number) =>
      Array.from({ length: n }, (_, i) => (from + i * by).toPrecision(6)).join(',');
    await expect(
      emit(['--grid', `lr=${values(40, 0.001, 1e-5)}`, '--grid', `epsHigh=${values(30, 0.2, 1e-3)}`, '--out', tmp()]),
    ).rejects.toThrowError(
      /^--grid: 1,200 cells \(lr 40 × epsHigh 30\); a sweep has at most 1,000: give fewer values$/,
    );
    await expect(
      emitPreset('clip-higher', [
        '--variant',
        'symmetric clip',
        '--grid',
        `lr=${values(501, 0.001, 1e-5)}`,
        '--out',
        tmp(),
      ]),
    ).rejects.toThrowError(/^--grid: 1,002 cells \(2 \(the preset and its variants\) × lr 501\)/);
  });

  it('inputs that used to hang end at once as a child process: seeds past 2^53, --out under /proc, 100,001 seeds, a 10^6-cell grid', () => {
    const base = ['sweep', '--preset', 'sort-easy', '--grid', 'lr=0.01', '--steps', '2', '--emit-jobs'];
    expect(refusal(runCli([...base, '--seeds', '9007199254740993', '--out', tmp()], 30_000))).toBe(
      'error: seeds: 9007199254740993 is not a seed: a seed is an integer in [0, 4294967295]',
    );
    expect(refusal(runCli([...base, '--seeds', '0', '--out', '/proc/rlvr-x'], 30_000))).toMatch(
      /^error: --out \/proc\/rlvr-x: cannot create the folder \/proc\/rlvr-x \(ENOENT/,
    );
    const ranges = Array.from({ length: 10 }, (_, i) => `${i * 10000 + (i > 0 ? 1 : 0)}-${(i + 1) * 10000}`).join(',');
    expect(refusal(runCli([...base, '--seeds', ranges, '--out', tmp()], 30_000))).toMatch(
      /^error: seeds: 100,001 seeds; a sweep has at most 100,000 runs/,
    );
    const many = Array.from({ length: 1000 }, (_, i) => String(i + 1)).join(',');
    expect(
      refusal(
        runCli(
          [
            'sweep',
            '--preset',
            'sort-easy',
            '--grid',
            `batchPrompts=${many}`,
            '--grid',
            `groupSize=${many}`,
            '--seeds',
            '0',
            '--out',
            tmp(),
            '--emit-jobs',
          ],
          30_000,
        ),
      ),
    ).toMatch(/^error: --grid: 1,000,000 cells/);
  }, 120_000);
});
