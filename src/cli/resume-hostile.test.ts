// --resume and eval on checkpoints that are not a run's: the reason given is the real one.

import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initCommand } from './model-commands';
import { evalCommand } from './eval-command';
import { SMALL_TRAIN, trainQuietly } from './testTrain';

const tmp = () => mkdtempSync(join(tmpdir(), 'rlvr-resume-'));

describe("--resume and eval, on checkpoints that are not a run's", () => {
  it('an rlvr init checkpoint is refused as one (weights only), not for its vocabulary or a missing state file', async () => {
    const d = tmp();
    const why = 'was written by rlvr init: weights only, with no run config (task, knobs, steps trained)';
    // Another model than any config's, and the default config's model exactly.
    for (const [V, T, C, L] of [
      [12, 16, 16, 1],
      [10, 19, 32, 2],
    ]) {
      const path = join(d, `init-${V}.safetensors`);
      expect(
        await initCommand(
          [
            '--vocab-size',
            `${V}`,
            '--n-positions',
            `${T}`,
            '--n-embd',
            `${C}`,
            '--n-layer',
            `${L}`,
            '--n-head',
            '2',
            '--out',
            path,
          ],
          () => {},
        ),
      ).toBe(0);
      await expect(trainQuietly(['--resume', path, '--backend', 'cpu', '--steps', '3'])).rejects.toThrowError(
        `--resume ${path} ${why}; only a checkpoint written by rlvr train (or the playground) can be resumed`,
      );
      await expect(evalCommand(['--checkpoint', path, '--backend', 'cpu'], () => {})).rejects.toThrowError(
        `--checkpoint ${path} ${why}; eval needs a checkpoint written by rlvr train (or the playground)`,
      );
    }
  });

  it('a truncated state file is refused naming the file', async () => {
    const d = tmp();
    expect(await trainQuietly([...SMALL_TRAIN, '--steps', '1', '--out', d, '--json'])).toBe(0);
    const state = join(d, 'checkpoint.state.safetensors');
    writeFileSync(state, readFileSync(state).subarray(0, 1000));
    await expect(trainQuietly(['--resume', d, '--backend', 'cpu', '--steps', '3'])).rejects.toThrowError(
      new RegExp(`^--resume ${state}: tensor "optimizer\\.m": data_offsets .* \\(the data section's size\\)$`),
    );
    writeFileSync(state, readFileSync(state).subarray(0, 5));
    await expect(trainQuietly(['--resume', d, '--backend', 'cpu', '--steps', '3'])).rejects.toThrowError(
      new RegExp(`^--resume ${state}: `),
    );
  });
});
