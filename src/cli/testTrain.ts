// What the CLI tests share: a tiny `rlvr train` on the CPU reference engine (GPU-free; a batch of
// 2 prompts × 4 completions keeps it fast), and the helper that runs it into a fresh folder.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trainCommand } from './train-commands';

/** `rlvr train` flags of the CLI tests' run: sort-easy, CPU engine, 2 × 4 rollouts, no periodic eval, seed 3. */
export const SMALL_TRAIN = [
  '--preset',
  'sort-easy',
  '--backend',
  'cpu',
  '--set',
  'batchPrompts=2',
  '--set',
  'groupSize=4',
  '--set',
  'evalEvery=0',
  '--seed',
  '3',
];

/** `rlvr train` with SMALL_TRAIN and `extra` into `dir`, its stdout lines and stderr lines kept (a fresh temporary folder by default). */
export async function trainSmall(
  extra: string[],
  onLine?: (line: string) => void,
  dir = mkdtempSync(join(tmpdir(), 'rlvr-train-')),
): Promise<{ rc: number; dir: string; lines: string[]; errors: string[] }> {
  const lines: string[] = [];
  const errors: string[] = [];
  const rc = await trainCommand(
    [...SMALL_TRAIN, '--out', dir, '--json', ...extra],
    (s) => {
      lines.push(s);
      onLine?.(s);
    },
    (s) => errors.push(s),
  );
  return { rc, dir, lines, errors };
}
