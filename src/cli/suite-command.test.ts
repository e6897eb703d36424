// rlvr sweep --suite methods end to end on a tiny budget: the protocol's runs (child processes of
// this CLI on the CPU engine, sort-easy's 1-layer width-16 model, 3 steps), each task's summary
// against GRPO and the leaderboard; --emit-jobs with a user's estimator; bad names refused.

import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SweepIo } from './sweep-runner';
import { isSuiteArgv, suiteCommand as sweepCommand } from './suite-command';
import { ESTIMATOR_TEMPLATE } from '../config/user-code';
import { parseRecordedCurves, recordCurves, recordedCells } from '../ablation/recorded-curves';
import { getSuite, suiteTaskPlan } from '../ablation/methods-suite';
import type { SeedRun } from '../ablation/curves';

const CLI = [process.execPath, '--import', 'tsx', resolve(__dirname, 'main.ts')];
const io = (out: string[] = [], err: string[] = []): SweepIo => ({
  out: (s) => out.push(s),
  err: (s) => err.push(s),
  tty: false,
  cli: CLI,
});
const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-suite-'));
const TINY =
  '--suite methods --tasks sorting --methods AVSPO,GRPO --seeds 0-1 --steps 3 --set evalEvery=1 --backend cpu'.split(
    ' ',
  );

/** Curves of another task on TINY's protocol (its methods, seeds and sets; `steps` steps), every run reaching level 4 at step 2. */
function otherTaskCurves(id: string, steps: number) {
  const suite = getSuite('methods');
  const plan = suiteTaskPlan(
    suite,
    suite.tasks.find((t) => t.id === id)!,
    {
      methods: ['AVSPO'],
      seeds: [0, 1],
      steps,
      sets: ['evalEvery=1'],
    },
  );
  const run = (seed: number): SeedRun => {
    const evals = [0, 1, 2, 3].map((step) => ({ step, value: step >= 2 ? 1 : 0, level: step >= 2 ? 4 : 1 }));
    return {
      seed,
      lastStep: steps,
      series: { level: evals.map((p) => ({ step: p.step, value: p.level })), 'eval/pass@1_greedy': evals },
    };
  };
  return recordCurves({
    suite: 'methods',
    task: { id, title: plan.task.title, preset: plan.task.preset, sets: [...plan.spec.sets], steps },
    seeds: plan.spec.seeds,
    solved: plan.spec.solved,
    metrics: plan.task.metrics,
    cells: plan.cells.map((c) => ({ label: c.label, set: c.set, runs: [run(0), run(1)] })),
    command: `npm run rlvr -- sweep --suite methods --tasks ${id} (elsewhere)`,
  });
}

describe('rlvr sweep --suite methods', () => {
  it('runs every method on every seed, summarises each task against GRPO and writes the leaderboard', async () => {
    const dir = tmp();
    const board = join(dir, 'board.md');
    const out: string[] = [];
    expect(await sweepCommand([...TINY, '--jobs', '2', '--out', dir, '--leaderboard', board], io(out))).toBe(0);
    for (const run of ['GRPO/seed-0', 'GRPO/seed-1', 'AVSPO/seed-0', 'AVSPO/seed-1'])
      expect(existsSync(join(dir, 'sorting', run, 'metrics.jsonl'))).toBe(true);
    const summary = JSON.parse(readFileSync(join(dir, 'sorting', 'summary.json'), 'utf8'));
    // GRPO first, whatever order --methods gave; every comparison is against it.
    expect(summary.cells.map((c: { label: string }) => c.label)).toEqual(['GRPO', 'AVSPO']);
    expect(summary.comparisons.every((c: { a: string }) => c.a === 'GRPO')).toBe(true);
    const md = readFileSync(board, 'utf8');
    expect(md).toContain('| method | sorting | verdict |');
    expect(md).toMatch(/\| GRPO \| 0\/2 solved; held-out pass@1 [0-9.]+ \| the baseline \|/);
    // 2 seeds against 2 cannot reach p < 0.05: the verdict says so instead of "no different".
    expect(md).toMatch(/\| AVSPO \| .* \| Too few seeds to tell on sorting \|/);
    expect(md).toContain('npm run rlvr -- sweep --suite methods --tasks sorting');
    expect(md).toContain("not the suite's own budgets");
    expect(out.at(-1)).toMatch(/^wrote .*board\.md .*: 4 runs; 4 run here/);

    // The same command again finds every run finished and only rewrites the summaries; with
    // --curves-out it also writes the task's recorded curves from the same run folders.
    // A task run elsewhere joins the board from its curves file there when it holds the same
    // protocol's runs (S3 chains, made up here); one of another budget is left off, with why.
    const err: string[] = [];
    const curvesDir = join(dir, 'curves');
    mkdirSync(curvesDir);
    const s3 = otherTaskCurves('s3-chains', 3);
    writeFileSync(join(curvesDir, 'leaderboard-s3-chains.json'), JSON.stringify(s3));
    writeFileSync(join(curvesDir, 'leaderboard-mazes.json'), JSON.stringify(otherTaskCurves('mazes', 300)));
    const again = [...TINY, '--out', dir, '--leaderboard', board, '--curves-out', curvesDir];
    expect(await sweepCommand(again, io([], err))).toBe(0);
    expect(err.join('\n')).toContain('4 runs, 0 to run (4 already finished)');
    expect(err.join('\n')).toContain('leaderboard-mazes.json is left off the board: its runs trained 300 steps, not 3');
    const joined = readFileSync(board, 'utf8');
    expect(joined).toContain('| method | sorting | S3 chains of length 4 | verdict |');
    expect(joined).toMatch(
      /\| GRPO \| 0\/2 solved; held-out pass@1 [0-9.]+ \| 2\/2 solved, median 2 steps; curriculum level 4\.00 \| the baseline \|/,
    );
    expect(joined).toContain(
      `s3-chains is read back from its recorded curves (\`${join(curvesDir, 'leaderboard-s3-chains.json')}\`)`,
    );
    expect(joined).toContain("the suite's other tasks (mazes) are not on this board");
    expect(joined).toContain(s3.command);
    // The file read back is left as it was.
    expect(readFileSync(join(curvesDir, 'leaderboard-s3-chains.json'), 'utf8')).toBe(JSON.stringify(s3));
    const text = readFileSync(join(curvesDir, 'leaderboard-sorting.json'), 'utf8');
    const curves = parseRecordedCurves(text, 'leaderboard-sorting.json');
    expect(curves.task).toMatchObject({ id: 'sorting', preset: 'sort-easy', steps: 3 });
    expect(curves.task.sets).toEqual(expect.arrayContaining(['task.length=5', 'evalEvery=1']));
    expect(curves.metrics).toEqual(['eval/pass@1_greedy', 'reward']);
    expect(curves.methods.map((m) => m.label)).toEqual(['GRPO', 'AVSPO']);
    expect(curves.methods[1].set).toEqual({ estimator: 'avspo' });
    for (const m of curves.methods) {
      expect(m.runs.map((r) => r.seed)).toEqual([0, 1]);
      for (const r of m.runs) {
        expect(r.lastStep).toBe(3);
        // Every step's reward (3 points: far below the point budget) and every evaluation, as the run wrote them.
        const rewards = readFileSync(join(dir, 'sorting', m.label, `seed-${r.seed}`, 'metrics.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { step?: number; scalars?: { reward: number } })
          .filter((l) => l.step !== undefined && l.scalars)
          .map((l) => [l.step, Math.round(l.scalars!.reward * 1e4) / 1e4]);
        expect(r.series.reward).toEqual(rewards);
        expect(r.series['eval/pass@1_greedy'].at(-1)![0]).toBe(3);
      }
    }
    expect(curves.notes.join(' ')).toMatch(/--methods.*not recorded here/);
    expect(curves.notes.join(' ')).toContain('Every run trained 3 steps (--steps)');
    expect(curves.command).toContain('--curves-out');
    // The board names the file and says how the page loads it.
    const boardAgain = readFileSync(board, 'utf8');
    expect(boardAgain).toContain('## Recorded curves');
    expect(boardAgain).toContain(`\`${join(curvesDir, 'leaderboard-sorting.json')}\``);
    expect(boardAgain).toContain("*Load the leaderboard's recorded runs*");
    // The cells the page draws are the summary's: the same seeds per method.
    expect(recordedCells(curves).map((c) => c.runs.length)).toEqual([2, 2]);
  });

  it("--emit-jobs prints one train command per run, with the user's estimator as one more method; AKL only where the recipe has a KL term", async () => {
    const dir = tmp();
    const file = join(dir, 'mine.js');
    writeFileSync(file, ESTIMATOR_TEMPLATE);
    const lines: string[] = [];
    const args = [
      '--suite',
      'methods',
      '--tasks',
      'sorting,s3-chains',
      '--methods',
      'AKL',
      '--estimator-file',
      file,
      '--out',
      join(dir, 'out'),
      '--emit-jobs',
    ];
    expect(await sweepCommand(args, io(lines))).toBe(0);
    // sorting: GRPO and yours (AKL needs a KL term); s3-chains: GRPO, AKL and yours; 6 seeds each.
    expect(lines.length).toBe((2 + 3) * 6);
    expect(lines.filter((l) => l.includes('--cell AKL')).every((l) => l.includes('--preset cot-discovery'))).toBe(true);
    expect(
      lines.filter((l) => l.includes("--cell 'your estimator'")).every((l) => l.includes('estimator=custom')),
    ).toBe(true);
    expect(existsSync(join(dir, 'out', 's3-chains', 'ablation.json'))).toBe(true);
  });

  it("the mazes task starts every run from the lesson's base model, named from the working folder", async () => {
    const dir = tmp();
    const lines: string[] = [];
    expect(
      await sweepCommand(
        ['--suite', 'methods', '--tasks', 'mazes', '--methods', 'RLOO', '--seeds', '0', '--out', dir, '--emit-jobs'],
        io(lines),
      ),
    ).toBe(0);
    expect(lines.length).toBe(2);
    for (const l of lines) expect(l).toContain(' --init public/checkpoints/maze-base-rl-base.safetensors ');
  });

  it('rlvr sweep hands --suite to the suite command', () => {
    expect(isSuiteArgv(['--suite', 'methods'])).toBe(true);
    expect(isSuiteArgv(['--suite=methods'])).toBe(true);
    expect(isSuiteArgv(['--preset', 'sort-easy'])).toBe(false);
  });

  it('refuses an unknown suite, task or method, and a --set over a knob a method sets', async () => {
    const dir = tmp();
    await expect(sweepCommand(['--suite', 'nope', '--out', dir], io())).rejects.toThrow(
      /--suite must be one of methods/,
    );
    await expect(sweepCommand(['--suite', 'methods', '--tasks', 'sorting,chess', '--out', dir], io())).rejects.toThrow(
      /--tasks: "chess" is not one of sorting, s3-chains, mazes/,
    );
    await expect(sweepCommand(['--suite', 'methods', '--methods', 'PPO', '--out', dir], io())).rejects.toThrow(
      /--methods: "PPO" is not one of GRPO/,
    );
    await expect(
      sweepCommand(['--suite', 'methods', '--tasks', 'sorting', '--set', 'estimator=rloo', '--out', dir], io()),
    ).rejects.toThrow(/--set estimator: the suite's method RLOO sets it/);
  });
});
