// The CLI as a process: what a pipe reads is everything the command printed, a reader that
// goes away does not cost the run, and every command answers --help.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { initCommand } from './model-commands';

const TSX = resolve('node_modules/tsx/dist/cli.mjs');
const MAIN = resolve('src/cli/main.ts');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `rlvr <args>` with stdout on a pipe; `closeAfterFirstLine` closes our end after one line. */
function rlvr(args: string[], opts: { closeAfterFirstLine?: boolean } = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [TSX, MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (s: string) => {
      stdout += s;
      if (opts.closeAfterFirstLine && stdout.includes('\n')) child.stdout.destroy();
    });
    child.stderr.on('data', (s: string) => (stderr += s));
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'rlvr-main-'));

describe('rlvr as a process', () => {
  it('a pipe gets the whole output (forward --json, 580 KB, used to stop at 64 KB)', async () => {
    const ck = join(dir, 'm.safetensors');
    await initCommand(
      ['--vocab-size', '16', '--n-positions', '32', '--n-embd', '32', '--n-layer', '2', '--n-head', '2', '--out', ck],
      () => {},
    );
    const r = await rlvr([
      'forward',
      '--checkpoint',
      ck,
      '--tokens',
      '3,1,4,1,5,9,2,6',
      '--backward',
      '--json',
      '--backend',
      'cpu',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(500_000);
    const doc = JSON.parse(r.stdout);
    expect(doc.logits).toHaveLength(8);
  });

  it('train --json with the reader gone after one line (| head -1): the run finishes and writes its checkpoint', async () => {
    const out = join(dir, 'epipe');
    const r = await rlvr(
      [
        'train',
        '--preset',
        'sort-easy',
        '--steps',
        '3',
        '--seed',
        '2',
        '--backend',
        'cpu',
        '--json',
        '--out',
        out,
        '--set',
        'model.nEmbd=8',
        '--set',
        'model.nLayer=1',
        '--set',
        'model.nHead=2',
        '--set',
        'batchPrompts=2',
        '--set',
        'groupSize=2',
        '--set',
        'evalEvery=0',
      ],
      { closeAfterFirstLine: true },
    );
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('stdout closed');
    expect(existsSync(join(out, 'checkpoint.safetensors'))).toBe(true);
  });

  it('every command answers --help with its flags and exit code 0', async () => {
    const r = await rlvr(['train', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: rlvr train \[flags\]/);
    expect(r.stdout).toContain('--checkpoint-every');
  });
});
