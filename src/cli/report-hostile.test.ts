// rlvr report over damaged folders: a side file that is not what rlvr train or rlvr sweep wrote
// is refused in one line naming the file and the field; links, loops and odd values are
// reported as warnings and the summary is still written.

import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { reportCommand } from './report-command';
import { fakeMetricsLines, lrAblationJson, refusal, runCli, writeFakeRun, writeFakeSweep } from './run-folder-fixtures';

const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-report-'));

/** Two cells of two seeds each, with cell.json (as a sweep writes them). */
const ablationFolder = (): string => writeFakeSweep(tmp());

async function report(dirs: string[], extra: string[] = []) {
  const out: string[] = [];
  const warnings: string[] = [];
  const code = await reportCommand(
    [...dirs, ...extra],
    (s) => out.push(s),
    (s) => warnings.push(s),
  );
  return { code, out: out.join('\n'), warnings };
}

/** The report of `dir` is written (exit 0), with `warning` among its warnings. */
async function expectWarning(dir: string, warning: string): Promise<void> {
  const r = await report([dir]);
  expect(r.code).toBe(0);
  expect(r.warnings).toContain(warning);
}

describe('rlvr report, damaged side files', () => {
  it('a cell.json that is not {"cell": LABEL, …} is refused, naming the file and the field', async () => {
    const cases: [string, RegExp][] = [
      ['{}', /cell\.json: "cell" must be a non-empty string \(the run's cell label\), got nothing$/],
      ['{"cell": 5}', /cell\.json: "cell" must be a non-empty string \(the run's cell label\), got 5$/],
      ['{"cell": "a", "variant": 3}', /cell\.json: "variant" must be a string, got 3$/],
      ['[]', /cell\.json: must be a JSON object \{"cell": LABEL, …\}, got \[\]$/],
      ['null', /cell\.json: must be a JSON object \{"cell": LABEL, …\}, got null$/],
      ['{"cell": ', /cell\.json: not JSON \(/],
    ];
    for (const [text, pattern] of cases) {
      const d = ablationFolder();
      writeFileSync(join(d, 'lr=0.01', 'seed-1', 'cell.json'), text);
      await expect(report([d]), text).rejects.toThrowError(pattern);
    }
  });

  it('an ablation.json that is not a whole spec is refused, naming the field', async () => {
    const cases: [string, RegExp][] = [
      [
        '{"format":"rlvr-ablation"}',
        /ablation\.json: "version" must be 1 \(the version this playground writes\), got nothing$/,
      ],
      ['{"format":"rlvr-ablation","version":1}', /ablation\.json: "preset" must be a preset name, got nothing$/],
      [
        '{"format":"rlvr-ablation","version":1,"preset":"sort-easy","variants":[],"grid":[],"seeds":[0],"steps":4,"sets":[],"solved":null,"metrics":["reward"],"cells":{}}',
        /ablation\.json: "cells" must be a list of \{label, dir, set\}, got \{\}$/,
      ],
      [
        '{"format":"rlvr-ablation","version":1,"preset":"sort-easy","variants":[],"grid":[],"seeds":[0.5],"steps":4,"sets":[],"solved":null,"metrics":["reward"],"cells":[]}',
        /ablation\.json: "seeds" must be a list of seeds \(integers in \[0, 4294967295\]\), got \[0\.5\]$/,
      ],
      [
        '{"format":"rlvr-ablation","version":1,"preset":"sort-easy","variants":[],"grid":[],"seeds":[0],"steps":4,"sets":[],"solved":{"metric":"reward"},"metrics":["reward"],"cells":[]}',
        /ablation\.json: "solved" must be null or \{metric, target, level\?\}/,
      ],
      ['[1]', /ablation\.json: not an ablation spec written by rlvr sweep/],
    ];
    for (const [text, pattern] of cases) {
      const d = ablationFolder();
      writeFileSync(join(d, 'ablation.json'), text);
      await expect(report([d]), text.slice(0, 60)).rejects.toThrowError(pattern);
    }
  });

  it('a config.json of [], null or a bad knob is refused, naming the file (no "sundefined" rows)', async () => {
    const cases: [string, RegExp][] = [
      ['[]', /seed-1\/config\.json: a run config must be an object of knob → value, got \[\]$/],
      ['null', /seed-1\/config\.json: a run config must be an object of knob → value, got null$/],
      ['{"seed": -1}', /seed-1\/config\.json: seed must be an integer in \[0, 4294967295\], got -1$/],
    ];
    for (const [text, pattern] of cases) {
      const d = ablationFolder();
      writeFileSync(join(d, 'lr=0.01', 'seed-1', 'config.json'), text);
      await expect(report([d]), text).rejects.toThrowError(pattern);
    }
  });

  it('links: a loop, a link to itself, a dangling link are skipped with a warning; a link to a run folder counts it once', async () => {
    const d = ablationFolder();
    symlinkSync('..', join(d, 'lr=0.01', 'up'));
    symlinkSync('self', join(d, 'self'));
    symlinkSync(join(d, 'nowhere'), join(d, 'dangling'));
    const r = await report([d]);
    expect(r.code).toBe(0);
    expect(r.warnings.join('\n')).toMatch(/skipped .*lr=0\.01\/up: a link to a folder searched already \(a loop\)/);
    expect(r.warnings.join('\n')).toMatch(/skipped .*\/self: ELOOP/);
    expect(r.warnings.join('\n')).toMatch(/skipped .*\/dangling: a link to nothing/);
    expect(
      JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8')).cells.map((c: { runs: unknown[] }) => c.runs.length),
    ).toEqual([2, 2]);
  });

  it('a metric of 1e999 or null is left out with a warning naming the run, the metric and the step', async () => {
    const d = ablationFolder();
    const path = join(d, 'lr=0.01', 'seed-1', 'metrics.jsonl');
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    lines[1] = lines[1].replace(/"reward":[0-9.e+-]+/, '"reward":1e999');
    lines[2] = lines[2].replace(/"reward":[0-9.e+-]+/, '"reward":null');
    writeFileSync(path, lines.join('\n') + '\n');
    await expectWarning(
      d,
      'warning: lr=0.01/seed-1: 2 values of reward are not finite numbers (step 2: Infinity, step 3: null); they are left out',
    );
  });

  it('runs of different tasks are compared with a warning', async () => {
    const d = tmp();
    writeFakeRun(join(d, 'a'), { preset: 'sort-easy' });
    writeFakeRun(join(d, 'b'), { preset: 'cot-discovery', sets: ['task.length=3'] });
    await expectWarning(
      d,
      'warning: the runs are of different tasks (sort: 1 run, groupmul: 1 run): their metrics are not comparable',
    );
  });

  it("a run folder that is not in the sweep's ablation.json is reported with a warning", async () => {
    const d = ablationFolder();
    writeFileSync(join(d, 'ablation.json'), lrAblationJson(['0.003'], [0, 1]));
    await expectWarning(
      d,
      'warning: 2 runs are not of a cell of ablation.json (cell "lr=0.01": lr=0.01/seed-0, lr=0.01/seed-1)',
    );
  });

  it('a folder given twice, or one inside another given, counts each run once', async () => {
    const d = ablationFolder();
    const r = await report([d, d, join(d, 'lr=0.01')]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8'));
    expect(summary.cells.map((c: { runs: unknown[] }) => c.runs.length)).toEqual([2, 2]);
    expect(r.warnings).toContain(`warning: ${d} is given twice (as ${d}): read once`);
    expect(r.warnings).toContain(
      `warning: ${d}/lr=0.01/seed-0: the same run folder as ${d}/lr=0.01/seed-0; counted once`,
    );
    expect(r.warnings.join('\n')).not.toMatch(/more than once/);
  });

  it('--out that is a file, /dev/null or below a file is refused as train refuses it', async () => {
    const d = ablationFolder();
    const file = join(d, 'f');
    writeFileSync(file, 'x');
    await expect(report([d], ['--out', file])).rejects.toThrowError(/^--out .*\/f: is not a folder$/);
    await expect(report([d], ['--out', '/dev/null'])).rejects.toThrowError(/^--out \/dev\/null: is not a folder$/);
    await expect(report([d], ['--out', join(file, 'sub')])).rejects.toThrowError(
      /^--out .*\/f\/sub: .*\/f is not a folder$/,
    );
  });

  it('a metrics.jsonl line with a step that is not a whole number is refused, naming the line; a repeated step counts once', async () => {
    const d = ablationFolder();
    const path = join(d, 'lr=0.01', 'seed-1', 'metrics.jsonl');
    const lines = fakeMetricsLines({ sets: ['lr=0.01'], seed: 1 });
    writeFileSync(path, [...lines.slice(0, 2), lines[1], ...lines.slice(2)].join('\n') + '\n');
    const r = await report([d]);
    expect(r.warnings).toContain('warning: lr=0.01/seed-1: step 2 is in metrics.jsonl 2 times; the last one is used');
    const summary = JSON.parse(readFileSync(join(d, 'summary.json'), 'utf8'));
    expect(summary.cells[1].curves['eval/pass@1_greedy'].every((p: { n: number }) => p.n === 2)).toBe(true);
    writeFileSync(path, [lines[0], lines[1].replace('"step":2', '"step":1e999'), ...lines.slice(2)].join('\n') + '\n');
    await expect(report([d])).rejects.toThrowError(
      /seed-1\/metrics\.jsonl line 2: "step" must be a whole number ≥ 0, got Infinity$/,
    );
  });

  it('a config.json that is a named pipe or a folder does not hang or crash the report (child process)', () => {
    const d = ablationFolder();
    const fifo = join(d, 'lr=0.01', 'seed-1', 'config.json');
    execFileSync('rm', [fifo]);
    execFileSync('mkfifo', [fifo]);
    expect(refusal(runCli(['report', d], 30_000))).toMatch(/seed-1\/config\.json: not a file$/);
    execFileSync('rm', [fifo]);
    mkdirSync(fifo);
    expect(refusal(runCli(['report', d], 30_000))).toMatch(/seed-1\/config\.json: not a file$/);
  }, 90_000);
});
