// rlvr train --estimator-file / --reward-file on the CPU engine: the file's text is the run's
// code (in config.json and the checkpoint, exactly as read), a broken file is refused or stops
// the run with its line (exit 3, the weights kept), and a fixed file continues it with --resume.

import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metricsWithoutClock } from './run-folder-fixtures';
import { trainCommand } from './train-commands';
import { sweepJobs } from './sweep-command';
import { codeSets } from './code-files';
import { readSafetensors } from '../model/safetensors';
import { ablationCells, ablationSpec } from '../ablation/spec';
import { CODE_EXAMPLES } from '../config/code-examples';
import { SMALL_TRAIN, trainSmall } from './testTrain';

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'rlvr-code-')), 'code.js');
  writeFileSync(path, text);
  return path;
}

const GRPO = CODE_EXAMPLES.find((e) => e.id === 'grpo')!.source;

describe('rlvr train with your own code', () => {
  it('--estimator-file runs the file as estimator=custom; the code travels exactly, to the last newline', async () => {
    const r = await trainSmall(['--steps', '2', '--estimator-file', file(GRPO)]);
    expect(r.rc).toBe(0);
    const config = JSON.parse(readFileSync(join(r.dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ estimator: 'custom', customEstimator: GRPO });
    expect(readSafetensors(readFileSync(join(r.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({
      customEstimator: GRPO,
    });
    // The built-in GRPO gives the same metrics (the custom path is bit for bit).
    const builtin = await trainSmall(['--steps', '2']);
    expect(metricsWithoutClock(r.dir)).toEqual(metricsWithoutClock(builtin.dir));
  });

  it('a syntax error is refused before anything runs, naming the line', async () => {
    await expect(
      trainSmall(['--steps', '2', '--estimator-file', file('function advantages(batch) {\n  return [\n}\n')]),
    ).rejects.toThrow(/^your estimator, line 3: SyntaxError/);
  });

  it("a start refused for its code leaves the folder's earlier run untouched (config.json and metrics.jsonl were overwritten)", async () => {
    const r = await trainSmall(['--steps', '2']);
    expect(r.rc).toBe(0);
    const before = ['config.json', 'metrics.jsonl', 'checkpoint.safetensors', 'checkpoint.state.safetensors'].map((n) =>
      readFileSync(join(r.dir, n)),
    );
    await expect(
      trainCommand(
        [
          ...SMALL_TRAIN,
          '--steps',
          '2',
          '--out',
          r.dir,
          '--json',
          '--estimator-file',
          file('function advantages(batch) {\n  return [\n}\n'),
        ],
        () => {},
        () => {},
      ),
    ).rejects.toThrow(/^your estimator, line 3: SyntaxError/);
    const after = ['config.json', 'metrics.jsonl', 'checkpoint.safetensors', 'checkpoint.state.safetensors'].map((n) =>
      readFileSync(join(r.dir, n)),
    );
    expect(after).toEqual(before);
    expect(readdirSync(r.dir).sort()).toEqual([
      'checkpoint.safetensors',
      'checkpoint.state.safetensors',
      'config.json',
      'metrics.jsonl',
    ]);
  });

  it('a broken step stops the run (exit 3) with the line; a fixed file continues it', async () => {
    const broken = file(
      '// step 2 goes wrong\nfunction advantages(batch) {\n  if (batch.step === 2) return batch.rewards.map(() => NaN);\n  return batch.rewards;\n}\n',
    );
    const r = await trainSmall(['--steps', '3', '--estimator-file', broken]);
    expect(r.rc).toBe(3);
    const fault = JSON.parse(r.lines.at(-1)!).fault;
    expect(fault).toMatchObject({ step: 2, check: 'custom-code' });
    expect(fault.message).toContain(
      'your estimator, line 2: advantages(batch) returned NaN at index 0; every value must be finite',
    );
    expect(r.errors.join('\n')).toContain('--estimator-file <fixed file>');
    const resumed = await trainCommand(
      [
        '--resume',
        fault.checkpoint,
        '--estimator-file',
        file('function advantages(batch) {\n  return batch.rewards;\n}\n'),
        '--steps',
        '3',
        '--backend',
        'cpu',
        '--json',
      ],
      () => {},
      () => {},
    );
    expect(resumed).toBe(0);
    const metrics = readFileSync(join(r.dir, 'metrics.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).step);
    expect(metrics).toEqual([1, 2, 3]);
  });

  it('--reward-file runs the file as rewardShaping=custom', async () => {
    const r = await trainSmall([
      '--steps',
      '1',
      '--reward-file',
      file('function rewards(batch) {\n  return Array.from(batch.correct, (c) => c);\n}\n'),
    ]);
    expect(r.rc).toBe(0);
    const line = JSON.parse(readFileSync(join(r.dir, 'metrics.jsonl'), 'utf8').trim().split('\n')[0]);
    expect(line.scalars['reward/verifier']).toBeGreaterThan(0);
    expect(line.scalars.reward).toBeLessThan(line.scalars['reward/verifier']); // all or nothing is stricter than partial credit
  });
});

describe('rlvr sweep with your estimator as a cell', () => {
  it('every run of the custom cell carries the code as a --set, exactly', () => {
    const spec = ablationSpec('sort-easy', {
      grid: [['estimator', ['grpo', 'custom']]],
      sets: codeSets({ estimator: GRPO }, false),
      seeds: [0, 1],
      steps: 3,
    });
    const jobs = sweepJobs(spec, ablationCells(spec), '/out');
    expect(jobs.map((j) => j.cell.label)).toEqual([
      'estimator=grpo',
      'estimator=grpo',
      'estimator=custom',
      'estimator=custom',
    ]);
    for (const j of jobs) expect(j.args).toContain(`customEstimator=${GRPO}`);
  });
});
