// rlvr sweep --slurm on a real Slurm: scripts/slurm-local.sh starts munged, slurmctld and slurmd
// on this machine (private key, config, ports and state), the sweep goes in as a job array, and
// `rlvr report` over what the jobs wrote gives the local sweep's summary byte for byte. Then the
// failure paths: a job that fails is named by `report` with its log, and a job stopped with
// scancel leaves a run that `report` names unfinished and `train --resume` finishes exactly.
// Needs root and Debian's slurm-wlm + munge (npm test installs them as root with apt-get);
// otherwise every test here is reported skipped with the reason. RLVR_REQUIRE_SLURM=1 turns a
// skip into a failure (npm test sets it once it has installed the packages).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { metricsWithoutClock } from './run-folder-fixtures';
import { shellQuote } from '../core/quote';
import { sweepCommand } from './sweep-command';
import type { SweepIo } from './sweep-runner';
import { CLI, reportWarnings, trainQuietly } from './testTrain';

const ROOT = resolve(__dirname, '../..');
// 24 steps: short, yet long enough (2 s and more) for a scancel to land mid-run.
const STEPS = 24;
const SWEEP =
  `--preset sort-easy --grid lr=0.003,0.01 --seeds 0-1 --steps ${STEPS} --set evalEvery=8 --backend cpu`.split(' ');
const RUNS = ['lr=0.003/seed-0', 'lr=0.003/seed-1', 'lr=0.01/seed-0', 'lr=0.01/seed-1'];

/** Why this machine cannot run Slurm here, or null. */
function skipReason(): string | null {
  if (process.platform !== 'linux') return `Slurm test: ${process.platform} is not Linux`;
  if (process.getuid?.() !== 0)
    return 'Slurm test: not root (scripts/slurm-local.sh starts slurmd, which runs jobs as root here)';
  for (const bin of ['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scancel', 'sinfo']) {
    if (spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status !== 0) {
      return `Slurm test: ${bin} is not installed (npm test installs slurm-wlm and munge as root with apt-get; by hand: scripts/slurm-local.sh install)`;
    }
  }
  return null;
}

const why = skipReason();
if (why) {
  if (process.env.RLVR_REQUIRE_SLURM === '1') throw new Error(`RLVR_REQUIRE_SLURM=1 but ${why}`);
  console.warn(`SKIPPED: ${why}`);
}

const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-slurm-test-'));
function io(out: string[] = [], err: string[] = []): SweepIo {
  return { out: (s) => out.push(s), err: (s) => err.push(s), tty: false, cli: CLI };
}

/** Waits until squeue no longer lists `jobId` (every task done, failed or cancelled). */
async function waitForJob(jobId: string, timeoutMs = 150_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const r = spawnSync('squeue', ['-h', '-j', jobId, '-o', '%i %T'], { encoding: 'utf8' });
    // Once gone, squeue may say "Invalid job id" (exit 1): that is done too.
    if (r.status !== 0 || r.stdout.trim() === '') return;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`job ${jobId} still in the queue after ${timeoutMs / 1000} s: ${r.stdout.trim()}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

describe(`rlvr sweep --slurm on a local Slurm${why ? ` (SKIPPED: ${why})` : ''}`, () => {
  let daemons: ChildProcess | undefined;
  let started = 0;
  let localSweep: string | undefined;

  beforeAll(async () => {
    if (why) return;
    started = Date.now();
    // The daemons live as long as this child's stdin is open; closing it stops exactly them.
    daemons = spawn(
      'bash',
      [join(ROOT, 'scripts/slurm-local.sh'), 'run', 'bash', '-c', 'echo "READY $SLURM_CONF"; exec cat >/dev/null'],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    daemons.stderr!.on('data', (d) => (stderr += d));
    const conf = await new Promise<string>((res, rej) => {
      let out = '';
      daemons!.stdout!.on('data', (d) => {
        out += d;
        const m = /READY (\S+)/.exec(out);
        if (m) res(m[1]);
      });
      daemons!.on('exit', (code) =>
        rej(new Error(`scripts/slurm-local.sh exited ${code} before Slurm was up: ${stderr.slice(-2000)}`)),
      );
    });
    process.env.SLURM_CONF = conf;
    console.log(`local Slurm up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 60_000);

  afterAll(async () => {
    if (!daemons) return;
    const gone = new Promise((res) => daemons!.on('exit', res));
    daemons.stdin!.end();
    await gone;
    delete process.env.SLURM_CONF;
    console.log(`Slurm tests, daemons included: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 30_000);

  it('a 4-run sweep as a job array, reported, equals the same sweep run here with --jobs 2, byte for byte', async (t) => {
    if (why) return t.skip(why);
    const [local, cluster] = [tmp(), tmp()];
    const out: string[] = [];
    const errs: string[] = [];
    expect(
      await sweepCommand(
        [...SWEEP, '--out', cluster, '--slurm', '--sbatch-args', '--cpus-per-task=1 --time=10'],
        io(out, errs),
      ),
    ).toBe(0);
    // stdout: the job id alone; stderr: what was written, and how to report it.
    expect(out).toEqual([expect.stringMatching(/^\d+$/)]);
    const jobId = out[0];
    expect(errs.join('\n')).toContain(`When it ends: rlvr report ${shellQuote(cluster)}`);
    expect(readFileSync(join(cluster, 'jobs.txt'), 'utf8').trim().split('\n')).toHaveLength(4);
    // The local sweep meanwhile, 2 at once.
    expect(await sweepCommand([...SWEEP, '--jobs', '2', '--out', local], io())).toBe(0);
    await waitForJob(jobId);
    for (const [i, run] of RUNS.entries()) {
      expect(existsSync(join(cluster, 'logs', `job-${i + 1}.log`)), `logs/job-${i + 1}.log`).toBe(true);
      expect(metricsWithoutClock(join(cluster, run)), run).toEqual(metricsWithoutClock(join(local, run)));
    }
    expect(await reportWarnings(cluster)).toEqual([]);
    expect(readFileSync(join(cluster, 'summary.json'), 'utf8')).toBe(readFileSync(join(local, 'summary.json'), 'utf8'));
    expect(readFileSync(join(cluster, 'summary.md'), 'utf8')).toBe(readFileSync(join(local, 'summary.md'), 'utf8'));
    localSweep = local;
  }, 180_000);

  it('a failed job is named by report with its log; a scancelled one is named unfinished, and train --resume finishes it exactly', async (t) => {
    if (why) return t.skip(why);
    if (!localSweep) throw new Error('needs the local sweep of the test before');
    const local = localSweep;
    // One array: lr=0.003 seed 0 is cancelled mid-run, seed 1 fails.
    const dir = tmp();
    const wrapper = join(dir, 'fail-seed-1.sh');
    writeFileSync(
      wrapper,
      'case "$*" in *" --seed 1 "*) echo "boom: this job fails on purpose" >&2; exit 1 ;; esac\nexec "$@"\n',
    );
    const sweep = join(dir, 'sweep');
    const ids: string[] = [];
    const prefix = ['bash', wrapper, ...CLI].map(shellQuote).join(' ');
    expect(
      await sweepCommand(
        [...SWEEP.map((a) => (a === 'lr=0.003,0.01' ? 'lr=0.003' : a)), '--out', sweep, '--slurm', '--cli', prefix],
        io(ids),
      ),
    ).toBe(0);
    const run = join(sweep, 'lr=0.003', 'seed-0');
    // Cancel task 1 once it has written its first steps.
    const t0 = Date.now();
    const stepsWritten = () =>
      existsSync(join(run, 'metrics.jsonl'))
        ? readFileSync(join(run, 'metrics.jsonl'), 'utf8').trim().split('\n').filter(Boolean).length
        : 0;
    while (stepsWritten() < 2) {
      if (Date.now() - t0 > 60_000) throw new Error('task 1 wrote no steps in 60 s');
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(spawnSync('scancel', [`${ids[0]}_1`], { encoding: 'utf8' }).status).toBe(0);
    await waitForJob(ids[0]);
    const lastStep = stepsWritten();
    expect(lastStep, 'the cancel landed before the run ended').toBeLessThan(STEPS);
    const warnings = await reportWarnings(sweep);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^warning: lr=0\\.003/seed-0: unfinished, stopped at step ${lastStep} of ${STEPS} .*continue it: rlvr train --resume ${run.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} --steps ${STEPS}\\)`,
        ),
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^warning: cell "lr=0\.003" seed 1: no run in .*seed-1 \(its job failed before step 1, or has not run\); its job's log \S+logs\/job-2\.log ends: .*boom: this job fails on purpose$/,
      ),
    );
    // Resumed, it is the uninterrupted run, step for step.
    expect(await trainQuietly(['--resume', run, '--steps', String(STEPS), '--json'])).toBe(0);
    expect(metricsWithoutClock(run)).toEqual(metricsWithoutClock(join(local, 'lr=0.003', 'seed-0')));
  }, 120_000);
});
