import { describe, it, expect } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initCommand, forwardCommand } from './model-commands';
import { readSafetensors, writeSafetensors } from '../model/safetensors';
import { CliError } from '../core/flags';
import { gpuIt } from '../gpu/testing';
import { gpuForward } from './gpu-forward';
import { tinyInitFlags } from './testTrain';

const dir = mkdtempSync(join(tmpdir(), 'rlvr-cli-'));
const file = join(dir, 'm.safetensors');
const initArgs = [...tinyInitFlags(7, 2), '--seed', '5', '--out', file];

describe('rlvr init / forward (cpu)', () => {
  it('init writes a readable checkpoint with the requested config', async () => {
    const lines: string[] = [];
    expect(await initCommand([...initArgs, '--json'], (s) => lines.push(s))).toBe(0);
    const summary = JSON.parse(lines[0]);
    const ck = readSafetensors(readFileSync(file));
    expect(ck.config).toEqual({ vocabSize: 7, nPositions: 8, nEmbd: 8, nLayer: 2, nHead: 2, initStd: 0.02 });
    expect(summary.params).toBe(ck.layout.slots.reduce((s, t) => s + t.size, 0));
  });

  it('forward --json prints T×V logits, the loss, and a gradient per HF tensor', async () => {
    const lines: string[] = [];
    await forwardCommand(
      ['--checkpoint', file, '--tokens', '3,1,4,1,5', '--backward', '--backend', 'cpu', '--json'],
      (s) => lines.push(s),
    );
    const r = JSON.parse(lines[0]);
    expect(r.logits).toHaveLength(5);
    expect(r.logits[0]).toHaveLength(7);
    // Near-uniform at init: cross-entropy close to ln V.
    expect(Math.abs(r.loss - Math.log(7))).toBeLessThan(0.1);
    const ck = readSafetensors(readFileSync(file));
    for (const s of ck.layout.slots) expect(r.grads[s.name]).toHaveLength(s.size);
    expect(r.grads['transformer.wte.weight'].some((g: number) => g !== 0)).toBe(true);
  });

  it('names the bad flag and its allowed values', async () => {
    await expect(
      initCommand(
        ['--vocab-size', '7', '--n-positions', '8', '--n-embd', '10', '--n-layer', '1', '--n-head', '3', '--out', file],
        () => {},
      ),
    ).rejects.toThrowError(/model\.nEmbd \(10\) must be divisible by model\.nHead \(3\)/);
    await expect(forwardCommand(['--checkpoint', file, '--tokens', '1,2,x'], () => {})).rejects.toThrowError(
      /--tokens: "x" \(position 2\)/,
    );
    await expect(
      forwardCommand(['--checkpoint', file, '--tokens', '1', '--backend', 'tpu'], () => {}),
    ).rejects.toThrowError(CliError);
    await expect(forwardCommand(['--checkpoint', file, '--tokenz', '1'], () => {})).rejects.toThrowError(
      /unknown flag --tokenz; allowed: --checkpoint/,
    );
  });

  it('init --out an existing folder is refused with a named error (it was an EISDIR stack trace), and the folder is left as it was', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'rlvr-init-folder-'));
    writeFileSync(join(folder, 'keep.txt'), 'mine');
    const err = await initCommand([...tinyInitFlags(7, 1), '--out', folder], () => {}).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(CliError);
    expect(err!.message).toBe(
      `--out ${folder}: is a folder; give the path of the .safetensors file to write (e.g. ${folder}/model.safetensors)`,
    );
    expect(readdirSync(folder)).toEqual(['keep.txt']);
    // A file in a folder that does not exist: named too, not a stack trace.
    await expect(
      initCommand([...tinyInitFlags(7, 1), '--out', join(folder, 'no', 'm.safetensors')], () => {}),
    ).rejects.toThrowError(/^--out .*m\.safetensors: cannot write the checkpoint there \(ENOENT/);
  });

  it('init refuses a model past the parameter limit before allocating it, naming the sizes that fit', async () => {
    await expect(
      initCommand(
        [
          '--vocab-size',
          '16',
          '--n-positions',
          '32',
          '--n-embd',
          '4096',
          '--n-layer',
          '16',
          '--n-head',
          '2',
          '--out',
          file,
        ],
        () => {},
      ),
    ).rejects.toThrowError(
      /the model would have 3,222,282,240 parameters .*at most 268,435,456 .*model\.nLayer ≤ 1 or model\.nEmbd ≤ 1180/,
    );
  });

  it('forward refuses a checkpoint with NaN weights (it printed loss NaN, exit 0)', async () => {
    const ck = readSafetensors(readFileSync(file));
    ck.params[ck.layout.wpe.offset + 2] = NaN;
    const bad = join(dir, 'nan.safetensors');
    writeFileSync(bad, writeSafetensors(ck.layout, ck.params, ck.vocab));
    await expect(
      forwardCommand(['--checkpoint', bad, '--tokens', '1,2', '--backend', 'cpu'], () => {}),
    ).rejects.toThrowError(
      /--checkpoint .*nan\.safetensors: tensor "transformer\.wpe\.weight" holds 1 non-finite value/,
    );
  });

  gpuIt('forward --backend gpu prints the same loss, logits and gradients as --backend cpu', async () => {
    const run = async (backend: string) => {
      const lines: string[] = [];
      await forwardCommand(
        ['--checkpoint', file, '--tokens', '3,1,4,1,5,2', '--backward', '--backend', backend, '--json'],
        (s) => lines.push(s),
        gpuForward,
      );
      return JSON.parse(lines[0]);
    };
    const cpu = await run('cpu');
    const gpu = await run('gpu');
    expect(Math.abs(cpu.loss - gpu.loss)).toBeLessThan(1e-5);
    const flat = (x: number[][]) => x.flat();
    const dl = flat(cpu.logits).map((v, i) => Math.abs(v - flat(gpu.logits)[i]));
    expect(Math.max(...dl)).toBeLessThan(1e-5);
    for (const name of Object.keys(cpu.grads)) {
      const a: number[] = cpu.grads[name],
        b: number[] = gpu.grads[name];
      const scale = Math.max(1e-6, ...a.map(Math.abs));
      const rel = Math.max(...a.map((v, i) => Math.abs(v - b[i]))) / scale;
      expect(rel, name).toBeLessThan(1e-4);
    }
  });
});
