// The runs of `rlvr sweep` on this machine: each job a child `rlvr train` of this same CLI, J at a
// time, with one progress line on stderr; Ctrl-C (or SIGTERM, SIGHUP) stops them after their step.

import { etaText } from './eta';
import { spawn, type ChildProcess } from 'node:child_process';
import { STOP_SIGNALS, SWEEP_PID_ENV } from './stop-requests';
import { JobQueue, type RunningJob } from './job-queue';
import type { AblationCellSpec } from '../ablation/spec';

/** One run of the ablation: a cell, a seed, its folder and its `train` arguments. */
export interface SweepJob {
  cell: AblationCellSpec;
  seed: number;
  /** The run's step budget. */
  steps: number;
  dir: string;
  args: string[];
}

export interface SweepIo {
  out(s: string): void;
  err(s: string): void;
  /** Whether stderr is a terminal (then progress is one rewritten line). */
  tty: boolean;
  /** The argv prefix that runs this CLI: [node, …loader flags, main.ts]. */
  cli: readonly string[];
}

interface Progress {
  label: string;
  seed: number;
  step: number;
  total: number;
  reward?: string;
}

/** Reads the child's progress lines ("[###…] 120/300 reward 0.812 …"). */
const PROGRESS_RE = /\] (\d+)\/(\d+) reward ([-0-9.]+)/;

function spawnTrain(
  io: SweepIo,
  job: SweepJob,
  progress: Progress,
  onProgress: () => void,
): RunningJob & { tail: string[] } {
  // Its own process group: a terminal's Ctrl-C reaches the sweep only, which forwards exactly one
  // SIGTERM per press (train stops after its step and writes the checkpoint).
  // The sweep's pid in its environment: a run whose sweep is gone stops by itself (stop-requests.ts).
  const child = spawn(io.cli[0], [...io.cli.slice(1), ...job.args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: { ...process.env, [SWEEP_PID_ENV]: String(process.pid) },
  });
  const tail: string[] = [];
  let buffered = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split(/[\r\n]/);
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      const m = PROGRESS_RE.exec(line);
      if (m) {
        progress.step = Number(m[1]);
        progress.total = Number(m[2]);
        progress.reward = m[3];
        onProgress();
      } else {
        tail.push(line);
        if (tail.length > 20) tail.shift();
      }
    }
  });
  const done = new Promise<number>((resolve) => {
    child.on('error', (e) => {
      tail.push(`could not start ${io.cli[0]}: ${e.message}`);
      resolve(127);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + 15 : 1)));
  });
  const kill = (sig: NodeJS.Signals) => {
    try {
      child.kill(sig);
    } catch {
      /* already gone */
    }
  };
  liveChildren.add(child);
  void done.then(() => liveChildren.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // A sweep that dies for another reason must not leave its runs behind.
    process.on('exit', () => {
      for (const c of liveChildren) c.kill('SIGKILL');
    });
  }
  return { done, stop: () => kill('SIGTERM'), tail };
}

/** What running a list of jobs came to: whether it was stopped, how many finished, which failed. */
export interface SweepRunResult {
  stopped: boolean;
  complete: number;
  failures: string[];
  wall: number;
}

/**
 * Runs the jobs, `parallel` at a time, each a child `rlvr train`, with progress on stderr. Ctrl-C
 * (or SIGTERM, SIGHUP) starts no new run and stops the running ones after their step.
 */
export async function runSweepJobs(io: SweepIo, todo: readonly SweepJob[], parallel: number): Promise<SweepRunResult> {
  const running = new Map<SweepJob, Progress>();
  let finished = 0;
  let lastStatus = 0;
  // Steps over all runs, for the time left: the finished runs' and the running ones' so far.
  const allSteps = todo.reduce((a, j) => a + j.steps, 0);
  let finishedSteps = 0;
  const statusText = () => {
    const done = finishedSteps + [...running.values()].reduce((a, p) => a + p.step, 0);
    const eta = etaText((Date.now() - t0) / 1000, done, allSteps);
    return (
      `[sweep ${finished}/${todo.length} done${eta ? `, ${eta}` : ''}] ` +
      [...running.values()]
        .map((p) => `${p.label} s${p.seed} ${p.step}/${p.total}${p.reward ? ` r ${p.reward}` : ''}`)
        .join(' · ')
    );
  };
  const say = (line: string) => io.err(io.tty ? `\r\x1b[K${line}` : line);
  const showStatus = (force = false) => {
    if (running.size === 0) return;
    const now = Date.now();
    if (io.tty) {
      if (force || now - lastStatus > 200) {
        lastStatus = now;
        process.stderr.write(`\r\x1b[K${statusText()}`);
      }
    } else if (force || now - lastStatus > 30_000) {
      lastStatus = now;
      io.err(statusText());
    }
  };

  const t0 = Date.now();
  const failures: string[] = [];
  const queue = new JobQueue(todo, parallel, (job) => {
    const progress: Progress = { label: job.cell.label, seed: job.seed, step: 0, total: job.steps };
    running.set(job, progress);
    say(`start ${job.cell.label} seed ${job.seed} → ${job.dir}`);
    const child = spawnTrain(io, job, progress, () => showStatus());
    const t = Date.now();
    const done = child.done.then((code) => {
      running.delete(job);
      finished++;
      finishedSteps += job.steps;
      const secs = ((Date.now() - t) / 1000).toFixed(0);
      if (code === 0) say(`done  ${job.cell.label} seed ${job.seed}: ${progress.step || job.steps} steps, ${secs} s`);
      else if (code === 3)
        say(
          `done  ${job.cell.label} seed ${job.seed}: stopped by a non-finite step (${child.tail.at(-2) ?? ''}), ${secs} s`,
        );
      else if (!queue.isStopped) {
        failures.push(`${job.cell.label} seed ${job.seed} (exit ${code})`);
        say(`FAILED ${job.cell.label} seed ${job.seed} (exit ${code}):\n  ${child.tail.slice(-8).join('\n  ')}`);
      }
      showStatus(true);
      return code;
    });
    return { done, stop: child.stop };
  });

  // Ctrl-C (or SIGTERM, or SIGHUP from a closed terminal): no new runs; the running ones stop
  // after their step and keep their checkpoint. Again (not a relayed repeat within a second):
  // they quit at once.
  let stopAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (queue.isStopped && Date.now() - stopAt < 1000) return;
    stopAt = Date.now();
    say(
      `${sig}: ${queue.isStopped ? 'stopping the runs now' : 'no new runs; the running ones stop after their current step (again to stop them at once)'}`,
    );
    queue.stop();
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  let results;
  try {
    results = await queue.run();
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
    if (io.tty) process.stderr.write('\n');
  }
  const wall = (Date.now() - t0) / 1000;
  return { stopped: queue.isStopped, complete: results.filter((r) => r.code === 0).length, failures, wall };
}

const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
