// docs/cli-errors.md quotes the CLI's messages word for word: each case here makes the input the
// page describes, takes the line the command prints (its temporary folder written DIR), and the
// page must hold it. A message changed in the code fails here until the page says the same.

import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { sweepCommand } from './sweep-command';
import { reportCommand } from './report-command';
import { trainCommand } from './train-commands';
import { evalCommand } from './eval-command';
import { initCommand } from './model-commands';
import { fakeMetricsLines, lrAblationJson, writeFakeRun, writeFakeSweep } from './run-folder-fixtures';
import { checkGpuFit } from '../rl/gpu-fit';
import { configFromCli } from '../lessons';
import { SMALL_TRAIN, tinyInitFlags, trainQuietly } from './testTrain';

const DOC = readFileSync(new URL('../../docs/cli-errors.md', import.meta.url), 'utf8');
const SWIFTSHADER = {
  maxBufferSize: 2 ** 30,
  maxStorageBufferBindingSize: 2 ** 30,
  maxComputeWorkgroupsPerDimension: 65535,
  memoryBytes: 4 * 2 ** 30,
};
const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-doc-'));
const quiet = { out: () => {}, err: () => {}, tty: false, cli: ['node'] };
/** Every line the cases below produced, for the check that the page quotes nothing else. */
const produced = new Set<string>();

/** The "error: …" line main prints for a refused command, with `dir` written DIR. */
async function refusal(dir: string, run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    return `error: ${(e as Error).message}`
      .split(dir)
      .join('DIR')
      .replace(/process \d+/g, 'process N');
  }
  throw new Error('the command was not refused');
}

/** Lines a command wrote to stderr, with `dir` written DIR. */
async function stderrOf(dir: string, run: (err: (s: string) => void) => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  await run((s) =>
    lines.push(
      s
        .split(dir)
        .join('DIR')
        .replace(/process \d+/g, 'process N'),
    ),
  );
  return lines;
}

/** Two cells of two seeds, as a sweep leaves them (without ablation.json). */
const cells = (): string => writeFakeSweep(tmp());

/** `rlvr sweep` of sort-easy, 2 steps (seed 0 unless `args` give --seeds), quietly. */
const sweep = (args: string[]) =>
  sweepCommand(
    ['--preset', 'sort-easy', ...(args.includes('--seeds') ? [] : ['--seeds', '0']), '--steps', '2', ...args],
    quiet,
  );
const emit = (args: string[]) => sweep([...args, '--emit-jobs']);
const report = (d: string) =>
  reportCommand(
    [d],
    () => {},
    () => {},
  );

describe('docs/cli-errors.md', () => {
  it('quotes the --out and sweep messages as the code prints them', async () => {
    const found: string[] = [];
    const d = tmp();
    writeFileSync(join(d, 'f'), 'x');
    for (const out of [join(d, 'f'), join(d, 'f', 'sub'), '/dev/null', '/proc/rlvr-x'])
      found.push(await refusal(d, () => emit(['--grid', 'lr=0.01', '--out', out])));
    const e = tmp();
    const many = Array.from({ length: 1000 }, (_, i) => String(i + 1)).join(',');
    const ranges = Array.from({ length: 10 }, (_, i) => `${i * 10000 + (i > 0 ? 1 : 0)}-${(i + 1) * 10000}`).join(',');
    for (const args of [
      ['--grid', 'seed=5,6'],
      ['--grid', 'steps=10,20'],
      ['--grid', 'lr=0.01', '--set', 'seed=4'],
      ['--grid', 'lr=0.01', '--seeds', '9007199254740993'],
      ['--grid', 'lr=0.01', '--seeds', ranges],
      ['--grid', 'lr=0.001,1e-3'],
      ['--grid', `batchPrompts=${many}`, '--grid', `groupSize=${many}`],
      ['--grid', 'lr=0.01', '--set', `evalEvery=${'x'.repeat(100_000)}`],
    ]) {
      found.push(await refusal(e, () => emit([...args, '--out', e])));
    }
    const other = tmp();
    writeFakeRun(join(other, 'old', 'run-1'));
    found.push(await refusal(other, () => emit(['--grid', 'lr=0.01', '--out', other])));
    const again = tmp();
    expect(await emit(['--grid', 'lr=0.01', '--out', again])).toBe(0);
    found.push(
      await refusal(again, () =>
        sweepCommand(
          ['--preset', 'sort-easy', '--seeds', '0', '--steps', '3', '--grid', 'lr=0.01', '--out', again, '--emit-jobs'],
          quiet,
        ),
      ),
    );
    // --slurm's own refusals, all before anything is written or submitted.
    const slurm = tmp();
    found.push(await refusal(slurm, () => emit(['--grid', 'lr=0.01', '--slurm', '--out', slurm])));
    found.push(await refusal(slurm, () => emit(['--grid', 'lr=0.01', '--sbatch-args', '--time=10', '--out', slurm])));
    for (const extra of ['--array=1-3', "--time='1:00'"]) {
      found.push(
        await refusal(slurm, () => sweep(['--grid', 'lr=0.01', '--out', slurm, '--slurm', '--sbatch-args', extra])),
      );
    }
    for (const line of found) expect(DOC, line.slice(0, 300)).toContain(`\`${line}\``);
    for (const line of found) produced.add(line);
  });

  it('quotes the report messages and warnings as the code prints them', async () => {
    const found: string[] = [];
    const damage = async (path: string, text: string) => {
      const d = cells();
      writeFileSync(join(d, path), text);
      found.push(await refusal(d, () => report(d)));
    };
    await damage('lr=0.01/seed-1/cell.json', '{"cell": 5}');
    await damage('lr=0.01/seed-1/cell.json', '[]');
    await damage('ablation.json', '{"format":"rlvr-ablation"}');
    await damage(
      'ablation.json',
      JSON.stringify({
        format: 'rlvr-ablation',
        version: 1,
        preset: 'sort-easy',
        variants: [],
        grid: [],
        seeds: [0],
        steps: 4,
        sets: [],
        solved: null,
        metrics: [],
      }),
    );
    await damage('lr=0.01/seed-1/config.json', '[]');
    await damage('lr=0.01/seed-1/config.json', 'null');
    await damage(
      'lr=0.01/seed-1/metrics.jsonl',
      fakeMetricsLines({})
        .map((l, i) => (i === 1 ? l.replace('"step":2', '"step":1e999') : l))
        .join('\n'),
    );
    const pipe = cells();
    execFileSync('rm', [join(pipe, 'lr=0.01/seed-1/config.json')]);
    execFileSync('mkfifo', [join(pipe, 'lr=0.01/seed-1/config.json')]);
    found.push(await refusal(pipe, () => report(pipe)));

    const links = cells();
    symlinkSync('..', join(links, 'lr=0.01', 'up'));
    symlinkSync('self', join(links, 'self'));
    symlinkSync(join(links, 'nowhere'), join(links, 'dangling'));
    const metrics = join(links, 'lr=0.01/seed-1/metrics.jsonl');
    const lines = readFileSync(metrics, 'utf8').trim().split('\n');
    lines[1] = lines[1].replace(/"reward":[0-9.e+-]+/, '"reward":1e999');
    writeFileSync(metrics, [...lines, lines[1]].join('\n') + '\n');
    found.push(...(await stderrOf(links, (err) => reportCommand([links], () => {}, err))));
    const tasks = tmp();
    writeFakeRun(join(tasks, 'a'));
    writeFakeRun(join(tasks, 'b'), { preset: 'cot-discovery', sets: ['task.length=3'] });
    found.push(...(await stderrOf(tasks, (err) => reportCommand([tasks], () => {}, err))));
    const stray = cells();
    writeFileSync(join(stray, 'ablation.json'), lrAblationJson(['0.003'], [0, 1]));
    found.push(...(await stderrOf(stray, (err) => reportCommand([stray], () => {}, err))));
    // A job array's runs: one that never wrote a step (its job failed), one cancelled at step 2 of 4; their job logs.
    const array = cells();
    writeFileSync(join(array, 'ablation.json'), lrAblationJson(['0.003', '0.01'], [0, 1, 2]));
    writeFakeRun(join(array, 'lr=0.01', 'seed-2'), {
      sets: ['lr=0.01'],
      seed: 2,
      steps: 2,
      cell: { cell: 'lr=0.01', preset: 'sort-easy' },
    });
    mkdirSync(join(array, 'logs'));
    writeFileSync(join(array, 'logs', 'job-3.log'), 'rlvr sweep job 7_3 on node1\nerror: --set lr: must be a number\n');
    writeFileSync(
      join(array, 'logs', 'job-6.log'),
      'rlvr sweep job 7_6 on node1\nslurmstepd: error: *** JOB 13 ON node1 CANCELLED AT 2026-12-05T09:00:00 ***\nSIGTERM: stopping after this step\n',
    );
    found.push(
      ...(await stderrOf(array, (err) => reportCommand([array], () => {}, err))).filter((l) =>
        l.startsWith('warning: '),
      ),
    );
    const warnings = found.filter((l) => l.startsWith('warning: ') && !/summary/.test(l));
    expect(warnings.length).toBeGreaterThanOrEqual(7);
    for (const line of found.filter((l) => !l.startsWith('wrote ')))
      expect(DOC, line.slice(0, 300)).toContain(`\`${line}\``);
    for (const line of found) produced.add(line);
  });

  it('quotes the --resume, eval and GPU fit messages as the code prints them', async () => {
    const found: string[] = [];
    const d = tmp();
    const init = join(d, 'init.safetensors');
    expect(await initCommand([...tinyInitFlags(8, 1), '--out', init], () => {})).toBe(0);
    found.push(await refusal(d, () => trainQuietly(['--resume', init, '--backend', 'cpu', '--steps', '2'])));
    found.push(await refusal(d, () => evalCommand(['--checkpoint', init, '--backend', 'cpu'], () => {})));
    found.push(await refusal(d, () => initCommand([...tinyInitFlags(8, 1), '--out', d], () => {})));

    // A run at step 1, and the same run's step-2 pair: the state of step 2 renamed in, the
    // weights of step 1 still in place, the state of step 1 set aside (a kill between the renames).
    const run = tmp();
    expect(await trainQuietly([...SMALL_TRAIN, '--steps', '1', '--out', run, '--json'])).toBe(0);
    const next = tmp();
    expect(await trainQuietly(['--resume', run, '--backend', 'cpu', '--steps', '2', '--out', next, '--json'])).toBe(0);
    renameSync(join(run, 'checkpoint.state.safetensors'), join(run, '.checkpoint.state.safetensors.previous'));
    copyFileSync(join(next, 'checkpoint.state.safetensors'), join(run, 'checkpoint.state.safetensors'));
    const resumed = await stderrOf(run, (err) =>
      trainCommand(['--resume', run, '--backend', 'cpu', '--steps', '2', '--json'], () => {}, err),
    );
    found.push(resumed[0]);
    writeFileSync(
      join(run, 'checkpoint.state.safetensors'),
      readFileSync(join(run, 'checkpoint.state.safetensors')).subarray(0, 5),
    );
    found.push(await refusal(run, () => trainQuietly(['--resume', run, '--backend', 'cpu', '--steps', '3'])));

    // A folder a train is writing (this process holds its lock), and a lock left by a process that is gone.
    const locked = tmp();
    let second: Promise<string> | null = null;
    await trainCommand(
      [...SMALL_TRAIN, '--steps', '50', '--out', locked, '--json'],
      () => {
        if (second) return;
        second = refusal(locked, () => trainQuietly([...SMALL_TRAIN, '--steps', '2', '--out', locked]));
        process.emit('SIGINT', 'SIGINT');
      },
      () => {},
    );
    found.push(await second!);
    writeFileSync(join(locked, '.rlvr-train.lock'), '999999999\n');
    found.push(
      ...(
        await stderrOf(locked, (err) =>
          trainCommand([...SMALL_TRAIN, '--steps', '1', '--out', locked, '--json'], () => {}, err),
        )
      ).filter((l) => l.startsWith('note: ')),
    );

    const big = configFromCli({ preset: 'sort-easy', sets: ['model.nEmbd=512', 'batchPrompts=256', 'groupSize=64'] });
    found.push(await refusal('/nowhere', async () => checkGpuFit(big, SWIFTSHADER)));
    for (const line of found) expect(DOC, line.slice(0, 300)).toContain(`\`${line}\``);
    for (const line of found) produced.add(line);
  });

  it('quotes no message that the cases above did not produce', () => {
    // ("`error: …`" in the introduction is the form, not a message.)
    const quoted = [...DOC.matchAll(/`((?:error|warning|note): [^`]*)`/g)]
      .map((m) => m[1])
      .filter((q) => !/^\w+: …$/.test(q));
    expect(quoted.length).toBeGreaterThan(25);
    expect(quoted.filter((q) => !produced.has(q))).toEqual([]);
  });
});
