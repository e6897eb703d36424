import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalCommand, trainCommand } from './train-commands';
import { readSafetensors, writeSafetensors } from '../model/safetensors';

// The CPU reference engine keeps these tests GPU-free; a tiny batch keeps them fast.
const small = ['--preset', 'sort-easy', '--backend', 'cpu', '--set', 'batchPrompts=2', '--set', 'groupSize=4', '--set', 'evalEvery=0', '--seed', '3'];

async function train(extra: string[], onLine?: (line: string) => void, dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'))): Promise<{ rc: number; dir: string; lines: string[] }> {
  const lines: string[] = [];
  const rc = await trainCommand([...small, '--out', dir, '--json', ...extra], (s) => { lines.push(s); onLine?.(s); }, () => {});
  return { rc, dir, lines };
}

describe('rlvr train (cpu backend)', () => {
  it('writes config.json, one metrics line per step and a checkpoint; the same seed gives the same metrics', async () => {
    const a = await train(['--steps', '2']);
    expect(a.rc).toBe(0);
    const config = JSON.parse(readFileSync(join(a.dir, 'config.json'), 'utf8'));
    expect(config).toMatchObject({ seed: 3, steps: 2, batchPrompts: 2, groupSize: 4 });
    const metrics = readFileSync(join(a.dir, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(metrics.map((m) => m.step)).toEqual([1, 2]);
    expect(readSafetensors(readFileSync(join(a.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({ trainedSteps: 2 });
    const b = await train(['--steps', '2']);
    const strip = (s: string) => s.replace(/"time\/[a-z_]+":[0-9.e+-]+,?|"tokens_per_s":[0-9.e+-]+,?/g, '');
    expect(readFileSync(join(b.dir, 'metrics.jsonl'), 'utf8').split('\n').map(strip))
      .toEqual(readFileSync(join(a.dir, 'metrics.jsonl'), 'utf8').split('\n').map(strip));
  });

  it('on SIGINT stops after the current step, still writes the checkpoint, and exits 130 (a relayed repeat is the same request)', async () => {
    let sent = false;
    const r = await train(['--steps', '50'], () => {
      // Twice at once, as a terminal's Ctrl-C reaching npm and node both: the second must not
      // count as "quit at once" (that would exit this test process).
      if (!sent) { sent = true; process.emit('SIGINT', 'SIGINT'); process.emit('SIGINT', 'SIGINT'); }
    });
    expect(r.rc).toBe(130);
    const done = JSON.parse(r.lines.at(-1)!).done;
    expect(done).toMatchObject({ steps: 1, stoppedBy: 'SIGINT' });
    expect(readSafetensors(readFileSync(join(r.dir, 'checkpoint.safetensors'))).runConfig).toMatchObject({ trainedSteps: 1 });
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('--checkpoint-every writes the checkpoint during the run; a bad value is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlvr-train-'));
    const onDisk: Record<number, boolean> = {};
    const r = await train(['--steps', '3', '--checkpoint-every', '2'], (line) => {
      const step = JSON.parse(line).step;
      if (step) onDisk[step] = existsSync(join(dir, 'checkpoint.safetensors'));
    }, dir);
    expect(r.rc).toBe(0);
    // Each line is printed before that step's checkpoint: the file first exists when step 3 is printed.
    expect(onDisk).toEqual({ 1: false, 2: false, 3: true });
    await expect(train(['--steps', '3', '--checkpoint-every', '-1'])).rejects.toThrowError(/--checkpoint-every must be a non-negative integer, got "-1"/);
  });

  it('--config naming a directory or a missing file is a named error, not a stack trace', async () => {
    const d = mkdtempSync(join(tmpdir(), 'rlvr-cfg-'));
    await expect(trainCommand(['--config', d, '--steps', '1', '--out', join(d, 'o')], () => {}, () => {}))
      .rejects.toThrowError(new RegExp(`^--config: cannot read ${d}: EISDIR`));
    await expect(trainCommand(['--config', join(d, 'nope.json'), '--steps', '1', '--out', join(d, 'o')], () => {}, () => {}))
      .rejects.toThrowError(/^--config: cannot read .*nope\.json: ENOENT/);
  });

  it('eval refuses a checkpoint whose saved level or trainedSteps is out of range, naming it', async () => {
    const r = await train(['--steps', '1']);
    const path = join(r.dir, 'checkpoint.safetensors');
    const ck = readSafetensors(readFileSync(path));
    const bad = join(r.dir, 'bad-level.safetensors');
    writeFileSync(bad, writeSafetensors(ck.layout, ck.params, ck.vocab, { ...(ck.runConfig as object), level: 1e6 }));
    await expect(evalCommand(['--checkpoint', bad, '--backend', 'cpu'], () => {}))
      .rejects.toThrowError(/run_config: level must be .*got 1000000/);
    writeFileSync(bad, writeSafetensors(ck.layout, ck.params, ck.vocab, { ...(ck.runConfig as object), trainedSteps: -7 }));
    await expect(evalCommand(['--checkpoint', bad, '--backend', 'cpu'], () => {}))
      .rejects.toThrowError(/run_config: trainedSteps must be an integer in \[0, 10000000\], got -7/);
  });

  it('eval reads a checkpoint trained with a curriculum and a re-synced KL anchor (the cot-discovery shape)', async () => {
    const r = await train(['--steps', '1', '--set', 'curriculum=pass-rate', '--set', 'refSync=curriculum', '--set', 'klBeta=0.5']);
    expect(r.rc).toBe(0);
    const lines: string[] = [];
    expect(await evalCommand(['--checkpoint', join(r.dir, 'checkpoint.safetensors'), '--n', '6', '--backend', 'cpu', '--json'], (s) => lines.push(s))).toBe(0);
    const result = JSON.parse(lines[0]);
    expect(result).toMatchObject({ task: 'sort', prompts: 6 });
    expect(result['pass@1']).toBeGreaterThanOrEqual(0);
    expect(result['pass@1']).toBeLessThanOrEqual(1);
  });
});
