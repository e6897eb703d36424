// docs/ablations.md's GNU parallel line, run: `parallel -j 2 < jobs.txt` (bash as its shell) over
// --emit-jobs lines that carry a multi-line --estimator-file, and `rlvr report` over the result.
// Skipped, with the reason, where Debian's `parallel` is not installed (npm test installs it as root).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../core/quote';
import { CLI, emitJobs, reportWarnings, tempCodeFile } from './testTrain';

const gnu = spawnSync('parallel', ['--version'], { encoding: 'utf8' });
const why =
  gnu.status === 0 && /GNU parallel/.test(gnu.stdout)
    ? null
    : 'GNU parallel is not installed (npm test installs it as root with apt-get: apt-get install parallel)';
if (why) console.warn(`SKIPPED: ${why}`);

describe(`--emit-jobs lines under GNU parallel${why ? ` (SKIPPED: ${why})` : ''}`, () => {
  it('parallel -j 2 < jobs.txt runs every line, code and all, and report summarises them', async (t) => {
    if (why) return t.skip(why);
    const { dir: d, file: est } = tempCodeFile(
      'mine.js',
      '// it\'s "mine"\nfunction advantages(batch) {\n  return batch.rewards.map((r) => r - 0.5);\n}\n',
    );
    const out = join(d, 'abl');
    const lines: string[] = [];
    const emitted = await emitJobs('sort-easy', out, lines, [
      '--backend',
      'cpu',
      '--estimator-file',
      est,
      '--cli',
      CLI.map(shellQuote).join(' '),
    ]);
    expect(emitted).toBe(0);
    expect(lines).toHaveLength(2);
    writeFileSync(join(d, 'jobs.txt'), lines.join('\n') + '\n');
    const r = spawnSync('bash', ['-c', `parallel --will-cite -j 2 < ${shellQuote(join(d, 'jobs.txt'))}`], {
      encoding: 'utf8',
      env: { ...process.env, PARALLEL_SHELL: '/bin/bash' },
      timeout: 120_000,
    });
    expect(r.status, r.stderr.slice(-1000)).toBe(0);
    // 2 steps record no held-out evaluation: those are the only warnings.
    expect((await reportWarnings(out)).filter((e) => !/no run recorded/.test(e))).toEqual([]);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.cells.map((c: { runs: unknown[] }) => c.runs.length)).toEqual([1, 1]);
    const custom = readFileSync(join(out, summary.cells[1].runs[0].id, 'config.json'), 'utf8');
    expect(JSON.parse(custom).customEstimator).toBe(readFileSync(est, 'utf8'));
  }, 150_000);
});
