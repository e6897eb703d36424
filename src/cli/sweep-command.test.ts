// rlvr sweep, --emit-jobs and rlvr report agree: a sweep's runs are the runs `rlvr train` makes
// one by one, and the emitted commands run elsewhere and summarised give the sweep's summary.
// The CPU reference engine keeps this GPU-free; 3 steps keep it short (each run is a process).

import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { metricsWithoutClock } from './run-folder-fixtures';
import { shellQuote, sweepCommand } from './sweep-command';
import type { SweepIo } from './sweep-runner';
import { reportCommand } from './report-command';
import { trainCommand } from './train-commands';
import { JobQueue } from './job-queue';
import { emitJobs, sweepStoppedBy, tempCodeFile, trainQuietly } from './testTrain';

const MAIN = resolve(__dirname, 'main.ts');
const CLI = [process.execPath, '--import', 'tsx', MAIN];
const GRID = '--preset sort-easy --grid lr=0.003,0.01 --seeds 0-1 --steps 3 --set evalEvery=1 --backend cpu'.split(' ');
const RUNS = ['lr=0.003/seed-0', 'lr=0.003/seed-1', 'lr=0.01/seed-0', 'lr=0.01/seed-1'];

function io(lines: string[] = [], errs: string[] = [], onErr?: (s: string) => void): SweepIo {
  return {
    out: (s) => lines.push(s),
    err: (s) => {
      errs.push(s);
      onErr?.(s);
    },
    tty: false,
    cli: CLI,
  };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-sweep-'));

describe('rlvr sweep / --emit-jobs / report', () => {
  it('sweep runs J at once and writes what rlvr train writes one by one; emitted jobs + report give the same summary.json', async () => {
    const a = tmp();
    const out: string[] = [];
    const errs: string[] = [];
    expect(await sweepCommand([...GRID, '--jobs', '2', '--out', a], io(out, errs))).toBe(0);
    expect(errs.filter((e) => e.startsWith('start')).length).toBe(4);
    expect(out.at(-1)).toMatch(
      /^wrote .*summary\.json and summary\.md: 4 runs; 4 run here in [0-9.]+ s wall, 2 at once$/,
    );
    const summary = JSON.parse(readFileSync(join(a, 'summary.json'), 'utf8'));
    expect(summary.cells.map((c: { label: string }) => c.label)).toEqual(['lr=0.003', 'lr=0.01']);
    expect(summary.cells[0].runs.map((r: { id: string }) => r.id)).toEqual(['lr=0.003/seed-0', 'lr=0.003/seed-1']);
    expect(summary.cells[1].finals['eval/pass@1_greedy'].n).toBe(2);
    expect(readFileSync(join(a, 'summary.md'), 'utf8')).toContain('## Verdict');

    // The same runs made one by one, in this process.
    const c = tmp();
    for (const run of RUNS) {
      const [cell, seed] = run.split('/');
      const args = [
        '--preset',
        'sort-easy',
        '--set',
        'evalEvery=1',
        '--set',
        cell,
        '--steps',
        '3',
        '--seed',
        seed.slice(5),
        '--backend',
        'cpu',
        '--out',
        join(c, run),
        '--json',
      ];
      expect(
        await trainCommand(
          args,
          () => {},
          () => {},
        ),
      ).toBe(0);
      expect(metricsWithoutClock(join(a, run))).toEqual(metricsWithoutClock(join(c, run)));
    }

    // --emit-jobs prints exactly one command per run and nothing else; run them, then report.
    const b = tmp();
    const lines: string[] = [];
    expect(
      await sweepCommand(
        [...GRID, '--jobs', '2', '--out', b, '--emit-jobs', '--cli', CLI.map(shellQuote).join(' ')],
        io(lines),
      ),
    ).toBe(0);
    expect(lines.length).toBe(4);
    for (const line of lines) {
      expect(line).toMatch(/ train --preset sort-easy .*--cell lr=0\.0\d+ --out /);
      execFileSync('bash', ['-c', line], { stdio: 'ignore' });
    }
    for (const run of RUNS) expect(metricsWithoutClock(join(b, run))).toEqual(metricsWithoutClock(join(a, run)));
    const reported: string[] = [];
    expect(
      await reportCommand(
        [b],
        (s) => reported.push(s),
        () => {},
      ),
    ).toBe(0);
    expect(readFileSync(join(b, 'summary.json'), 'utf8')).toBe(readFileSync(join(a, 'summary.json'), 'utf8'));
    expect(readFileSync(join(b, 'summary.md'), 'utf8')).toBe(readFileSync(join(a, 'summary.md'), 'utf8'));
    expect(reported[0]).toBe(readFileSync(join(a, 'summary.md'), 'utf8'));

    // A sweep run again finds its runs finished and redoes nothing.
    const again: string[] = [];
    expect(await sweepCommand([...GRID, '--jobs', '2', '--out', a], io([], again))).toBe(0);
    expect(again.filter((e) => e.startsWith('skip')).length).toBe(4);
  }, 180_000);

  it('emitted commands quote labels with spaces, and name the variant', async () => {
    const lines: string[] = [];
    expect(await emitJobs('clip-higher', tmp(), lines)).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^npm run --silent rlvr -- train --preset clip-higher --steps 2 --seed 0 --cell clip-higher --out \S+\/clip-higher\/seed-0$/,
    );
    expect(lines[1]).toMatch(
      /^npm run --silent rlvr -- train --preset clip-higher --variant 'symmetric clip' --steps 2 --seed 0 --cell 'symmetric clip' --out \S+\/symmetric-clip\/seed-0$/,
    );
    await expect(
      sweepCommand(['--preset', 'sort-easy', '--grid', 'lr=-1', '--out', tmp(), '--emit-jobs'], io()),
    ).rejects.toThrow(/cell "lr=-1"/);
  });

  it("--emit-jobs: a run's code with newlines, quotes and backslashes stays one line per job, and a shell reading line i gets that job's argv back exactly", async () => {
    // Newlines (LF and CRLF), a tab, both quotes, a backslash, $ and ` a shell would expand, a trailing newline.
    const code =
      '// it\'s "mine"\r\nfunction advantages(batch) {\n\treturn batch.rewards.map((r) => r - 0.5); // $HOME `id` \\n\n}\n';
    const { dir: d, file: est } = tempCodeFile('mine.js', code);
    const out = join(d, 'out dir');
    const lines: string[] = [];
    // printf as the prefix: each line, run by bash, prints the argv it would give rlvr.
    expect(
      await sweepCommand(
        [
          '--preset',
          'sort-easy',
          '--seeds',
          '0-1',
          '--steps',
          '2',
          '--estimator-file',
          est,
          '--out',
          out,
          '--emit-jobs',
          '--cli',
          "printf '%s\\0'",
        ],
        io(lines),
      ),
    ).toBe(0);
    expect(lines).toHaveLength(4);
    const file = join(d, 'jobs.txt');
    writeFileSync(file, lines.join('\n') + '\n');
    // As a job array does it: line i of the file, read by the shell.
    const argvOf = (i: number) =>
      execFileSync('bash', ['-c', `eval "$(sed -n "${i}p" "$0")"`, file], { encoding: 'utf8' })
        .split('\0')
        .slice(0, -1);
    const want = ['sort-easy', 'custom'].flatMap((cell) => [0, 1].map((seed) => ({ cell, seed })));
    for (let i = 0; i < 4; i++) {
      const argv = argvOf(i + 1);
      expect(argv[0]).toBe('train');
      expect(argv.filter((a) => a.startsWith('customEstimator='))).toEqual([`customEstimator=${code}`]);
      expect(argv.slice(argv.indexOf('--seed'), argv.indexOf('--seed') + 2)).toEqual(['--seed', String(want[i].seed)]);
      expect(argv.at(-1)).toMatch(
        new RegExp(`^${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/.+/seed-${want[i].seed}$`),
      );
    }
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
  });

  it('a lesson that starts from its base model gives every run those weights (--init); --init replaces them, and weights of another model are refused before anything runs', async () => {
    const lines: string[] = [];
    const d = tmp();
    expect(await emitJobs('maze-grpo', d, lines)).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(
        /^npm run --silent rlvr -- train --preset maze-grpo --steps 2 --seed 0 --init public\/checkpoints\/maze-grpo-base\.safetensors --cell maze-grpo --out \S+\/maze-grpo\/seed-0$/,
      ),
      expect.stringMatching(
        / --variant 'Dr\. GRPO' .* --init public\/checkpoints\/maze-grpo-base\.safetensors --cell 'Dr\. GRPO' /,
      ),
    ]);
    expect(JSON.parse(readFileSync(join(d, 'ablation.json'), 'utf8')).init).toBe(
      'public/checkpoints/maze-grpo-base.safetensors',
    );
    // Another init into the same folder is another ablation.
    await expect(
      emitJobs('maze-grpo', d, [], ['--init', 'public/checkpoints/maze-dr-grpo-base.safetensors']),
    ).rejects.toThrow(
      /holds another ablation \(its ablation\.json has init public\/checkpoints\/maze-grpo-base\.safetensors, this sweep public\/checkpoints\/maze-dr-grpo-base\.safetensors\)/,
    );
    const mine: string[] = [];
    expect(
      await emitJobs('maze-grpo', tmp(), mine, ['--init', 'public/checkpoints/maze-base-rl-base.safetensors']),
    ).toBe(0);
    expect(mine.every((l) => l.includes(' --init public/checkpoints/maze-base-rl-base.safetensors '))).toBe(true);
    await expect(
      emitJobs('maze-grpo', tmp(), [], ['--init', 'public/checkpoints/cot-discovery-solved.safetensors']),
    ).rejects.toThrow(
      /^--init public\/checkpoints\/cot-discovery-solved\.safetensors: its model has \w+ \d+, this run's config builds \d+/,
    );
    // Run, a cell's run is rlvr train --init's, step for step; from random weights it differs.
    const ran = tmp();
    expect(
      await sweepCommand(
        [
          '--preset',
          'maze-grpo',
          '--seeds',
          '0',
          '--steps',
          '1',
          '--set',
          'dynamicSampling=false',
          '--backend',
          'cpu',
          '--out',
          ran,
        ],
        io(),
      ),
    ).toBe(0);
    const train = (out: string, init: string[]) =>
      trainQuietly([
        '--preset',
        'maze-grpo',
        '--set',
        'dynamicSampling=false',
        '--steps',
        '1',
        '--seed',
        '0',
        '--backend',
        'cpu',
        ...init,
        '--out',
        out,
        '--json',
      ]);
    const [once, fresh] = [tmp(), tmp()];
    expect(await train(once, ['--init', 'public/checkpoints/maze-grpo-base.safetensors'])).toBe(0);
    expect(await train(fresh, [])).toBe(0);
    expect(metricsWithoutClock(join(ran, 'maze-grpo', 'seed-0'))).toEqual(metricsWithoutClock(once));
    expect(metricsWithoutClock(join(ran, 'maze-grpo', 'seed-0'))).not.toEqual(metricsWithoutClock(fresh));
    // Without a base model of its own, a lesson's runs start from random weights.
    const plain: string[] = [];
    expect(await emitJobs('clip-higher', tmp(), plain)).toBe(0);
    expect(plain.some((l) => l.includes('--init'))).toBe(false);
  }, 180_000);

  it('Ctrl-C stops the sweep: no new runs, the running one stops after its step and keeps its checkpoint', async () => {
    const dir = tmp();
    const { rc, errs } = await sweepStoppedBy('SIGINT', dir);
    expect(rc).toBe(130);
    expect(
      errs.some((e) => /^stopped: 0 of 2 runs finished/.test(e)),
      errs.join('\n'),
    ).toBe(true);
    const steps = readFileSync(join(dir, 'lr=0.003/seed-0/metrics.jsonl'), 'utf8').trim().split('\n').length;
    expect(steps).toBeLessThan(400);
    expect(existsSync(join(dir, 'lr=0.003/seed-0/checkpoint.safetensors'))).toBe(true);
    expect(existsSync(join(dir, 'lr=0.003/seed-1'))).toBe(false);
    expect(process.listenerCount('SIGINT')).toBe(0);
  }, 120_000);
});

describe('job queue', () => {
  it('runs at most J at once, in order, and stop() starts nothing more', async () => {
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const stops: number[] = [];
    const release: (() => void)[] = [];
    const q = new JobQueue([0, 1, 2, 3, 4], 2, (item) => {
      started.push(item);
      active++;
      peak = Math.max(peak, active);
      let resolveDone!: (c: number) => void;
      const done = new Promise<number>((r) => (resolveDone = r));
      release[item] = () => {
        active--;
        resolveDone(item === 1 ? 1 : 0);
      };
      return {
        done,
        stop: () => {
          stops.push(item);
          release[item]();
        },
      };
    });
    const results = q.run();
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    release[0]();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([0, 1, 2]);
    q.stop();
    expect(stops.sort()).toEqual([1, 2]);
    const r = await results;
    expect(peak).toBe(2);
    expect(r.map((x) => x.code)).toEqual([0, 1, 0, null, null]);
  });
});
