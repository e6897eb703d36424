// `rlvr sweep --slurm`: the sweep's runs as one Slurm job array. Writes DIR/jobs.txt (one
// train command a line, as --emit-jobs prints them) and DIR/slurm-job.sh (task i runs line i,
// its output in DIR/logs/job-<i>.log), submits it with sbatch and returns the job id.
// `rlvr report DIR` then names a run whose job failed or was cancelled, with its log.

import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliError } from '../core/flags';
import { quoteInput, shellQuote } from '../core/quote';
import { JOB_LOG_DIR } from './ablation-folders';

export const JOBS_FILE = 'jobs.txt';
export const SLURM_SCRIPT = 'slurm-job.sh';

/** `--sbatch-args "…"` as words: split at spaces; quotes are refused (nothing here is a shell). */
export function sbatchArgs(text: string | undefined): string[] {
  if (text === undefined) return [];
  if (/["'\\`$\r\n]/.test(text)) {
    throw new CliError(
      `--sbatch-args is split at spaces and passed to sbatch as they are; quotes, $, backquotes and backslashes are not read, got ${quoteInput(text)}`,
    );
  }
  const words = text.split(/\s+/).filter(Boolean);
  const bad = words.find((w) => /^--?(array|a|output|o|error|e|parsable|wrap)(=|$)/.test(w));
  if (bad)
    throw new CliError(
      `--sbatch-args: ${quoteInput(bad)} is set by rlvr sweep --slurm (the array, its logs and the script); give the others (e.g. --partition, --time, --gres)`,
    );
  return words;
}

/** The batch script: array task i runs line i of jobs.txt from `cwd` with bash, its output in logs/job-<i>.log. */
export function slurmJobScript(o: { cwd: string; dir: string; count: number; name: string }): string {
  const dir = resolve(o.dir);
  return [
    '#!/bin/bash',
    `#SBATCH --job-name=${o.name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60)}`,
    `#SBATCH --array=1-${o.count}`,
    `#SBATCH --output=${join(dir, JOB_LOG_DIR, 'job-%a.log')}`,
    '# Written by rlvr sweep --slurm: array task i runs line i of jobs.txt (one rlvr train run).',
    'set -euo pipefail',
    `cd ${shellQuote(o.cwd)}`,
    `line=$(sed -n "\${SLURM_ARRAY_TASK_ID}p" ${shellQuote(join(dir, JOBS_FILE))})`,
    'echo "rlvr sweep job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} on $(hostname)" >&2',
    // exec: the run itself receives scancel's SIGTERM and stops after its step with a checkpoint.
    'eval "exec $line"',
    '',
  ].join('\n');
}

/** Writes jobs.txt, slurm-job.sh and logs/ into `dir` and submits the array; returns the job id. */
export function submitSlurmArray(o: {
  dir: string;
  cwd: string;
  lines: readonly string[];
  name: string;
  extra: readonly string[];
  sbatch?: string;
}): { jobId: string; script: string } {
  const dir = resolve(o.dir);
  mkdirSync(join(dir, JOB_LOG_DIR), { recursive: true });
  writeFileSync(join(dir, JOBS_FILE), o.lines.join('\n') + '\n');
  const script = join(dir, SLURM_SCRIPT);
  writeFileSync(script, slurmJobScript({ cwd: o.cwd, dir, count: o.lines.length, name: o.name }), { mode: 0o755 });
  const sbatch = o.sbatch ?? 'sbatch';
  const r = spawnSync(sbatch, ['--parsable', ...o.extra, script], { encoding: 'utf8' });
  if (r.error)
    throw new CliError(
      `--slurm: cannot run ${sbatch} (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}); is Slurm installed here? ${JOBS_FILE} and ${SLURM_SCRIPT} are written in ${dir}`,
    );
  if (r.status !== 0)
    throw new CliError(
      `--slurm: sbatch refused the job array (exit ${r.status}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}; ${SLURM_SCRIPT} is in ${dir}`,
    );
  // --parsable: "JOBID" or "JOBID;CLUSTER".
  const jobId = r.stdout.trim().split(/[;\n]/)[0];
  if (!/^\d+$/.test(jobId)) throw new CliError(`--slurm: sbatch printed no job id (${quoteInput(r.stdout.trim())})`);
  return { jobId, script };
}
