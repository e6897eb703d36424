// `npx rlvr …` from a clone: package.json's bin runs bin/rlvr.mjs, which runs src/cli/main.ts
// through tsx from any folder, passes the exit status through and relays a SIGTERM to the run.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/rlvr.mjs');
const away = mkdtempSync(join(tmpdir(), 'rlvr-bin-'));

describe('rlvr as an installed command', () => {
  it('package.json names bin/rlvr.mjs, executable; npx rlvr answers from the clone; from any folder the script runs the CLI and passes its exit status on', () => {
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin).toEqual({ rlvr: 'bin/rlvr.mjs' });
    expect(statSync(BIN).mode & 0o111).not.toBe(0);
    const npx = spawnSync('npx', ['--offline', 'rlvr', '--help'], {
      cwd: join(ROOT, 'src'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(npx.status, npx.stderr).toBe(0);
    expect(npx.stdout).toMatch(/^usage: /);
    const bad = spawnSync(BIN, ['train', '--steps', 'x'], { cwd: away, encoding: 'utf8', timeout: 60_000 });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*steps/m);
  }, 120_000);

  it('a SIGTERM to the command stops the run after its step with its checkpoint (exit 130)', async () => {
    const out = join(away, 'run');
    const child = spawn(BIN, ['train', '--preset', 'sort-easy', '--steps', '2000', '--backend', 'cpu', '--out', out], {
      cwd: away,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => {
      stderr += s;
      // Once it trains, stop it.
      if (/\] \d+\/2000/.test(stderr) && !child.killed) child.kill('SIGTERM');
    });
    const code = await new Promise<number | null>((res) => child.on('close', (c) => res(c)));
    expect(code, stderr.slice(-500)).toBe(130);
    expect(existsSync(join(out, 'checkpoint.safetensors'))).toBe(true);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').length).toBeLessThan(2000);
  }, 120_000);
});
