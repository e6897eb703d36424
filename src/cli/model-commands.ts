// `rlvr init` and `rlvr forward`: make a checkpoint, and run it on a token sequence.

import { readFileSync, statSync } from 'node:fs';
import { fileErrorReason, writeFileAtomic } from './run-files';
import { asCliError, CliError, intFlag, parseFlags, stringFlag, type FlagSpec } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { validateModelConfig, ModelConfigError, type ModelConfig } from '../model/model-config';
import { buildLayout, type ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { readSafetensors, writeSafetensors, CheckpointError } from '../model/safetensors';
import { crossEntropyLossAndGrad } from '../reference/model';

export const INIT_FLAGS: Record<string, FlagSpec> = {
  'vocab-size': { kind: 'value', doc: 'V: vocabulary size (2..65536)' },
  'n-positions': { kind: 'value', doc: 'T: longest sequence (2..4096)' },
  'n-embd': { kind: 'value', doc: 'C: width, a multiple of 4 and of --n-head' },
  'n-layer': { kind: 'value', doc: 'L: blocks (1..64)' },
  'n-head': { kind: 'value', doc: 'NH: attention heads (1..64)' },
  seed: commonFlag('seed', 'of the initial weights (default 0)'),
  out: commonFlag('out', 'a .safetensors file'),
  json: commonFlag('json', 'a summary'),
};

export async function initCommand(argv: string[], out: (s: string) => void): Promise<number> {
  const f = parseFlags(argv, INIT_FLAGS, 'init');
  const cfg: ModelConfig = {
    vocabSize: intFlag(f, 'vocab-size', undefined, 2, 65536),
    nPositions: intFlag(f, 'n-positions', undefined, 2, 4096),
    nEmbd: intFlag(f, 'n-embd', undefined, 4, 4096),
    nLayer: intFlag(f, 'n-layer', undefined, 1, 64),
    nHead: intFlag(f, 'n-head', undefined, 1, 64),
  };
  asCliError(() => validateModelConfig(cfg), ModelConfigError);
  const seed = intFlag(f, 'seed', 0, 0, 2 ** 32 - 1);
  const path = stringFlag(f, 'out');
  refuseFolder(path);
  const layout = buildLayout(cfg);
  const params = initParams(layout, seed);
  // Placeholder vocabulary: the four specials, then t4, t5, …
  const specials = ['<pad>', '<bos>', '<sep>', '<eos>'];
  const vocab = Array.from({ length: cfg.vocabSize }, (_, i) => specials[i] ?? `t${i}`);
  try {
    writeFileAtomic(path, writeSafetensors(layout, params, vocab, { init: { seed } }));
  } catch (e) {
    throw new CliError(`--out ${path}: cannot write the checkpoint there (${fileErrorReason(e)})`);
  }
  const summary = { out: path, params: countParams(layout), config: cfg, seed };
  out(f.json ? JSON.stringify(summary) : `wrote ${path}: ${summary.params} parameters, seed ${seed}`);
  return 0;
}

/** --out names the checkpoint file: a folder there is refused (before anything is computed), not overwritten. */
function refuseFolder(path: string): void {
  let folder = false;
  try {
    folder = statSync(path).isDirectory();
  } catch {
    // not there yet: the write says if it cannot be made
  }
  if (folder)
    throw new CliError(
      `--out ${path}: is a folder; give the path of the .safetensors file to write (e.g. ${path.replace(/\/+$/, '')}/model.safetensors)`,
    );
}

/** Parameters of the model itself (the buffer also has alignment padding). */
export function countParams(layout: ParamLayout): number {
  return layout.slots.reduce((s, t) => s + t.size, 0);
}

export const FORWARD_FLAGS: Record<string, FlagSpec> = {
  checkpoint: commonFlag('checkpoint'),
  tokens: { kind: 'value', doc: 'comma-separated token ids, e.g. 3,1,4,1,5' },
  backward: { kind: 'switch', doc: 'also print gradients of the loss for every tensor (HF names)' },
  backend: commonFlag('backend'),
  json: commonFlag('json', 'one object'),
};

export function loadCheckpointFile(path: string) {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new CliError(`--checkpoint: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return readSafetensors(bytes);
  } catch (e) {
    if (e instanceof CheckpointError) throw new CliError(`--checkpoint ${path}: ${e.message}`);
    throw e;
  }
}

export function parseTokenList(raw: string, V: number, T: number): Int32Array {
  const parts = raw.split(',').map((s) => s.trim());
  // Digits only: Number('') is 0, so "1,,2" or "" must not become token 0.
  const ids = parts.map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  const bad = ids.findIndex((v) => !Number.isInteger(v) || v < 0 || v >= V);
  if (bad >= 0) throw new CliError(`--tokens: "${parts[bad]}" (position ${bad}) is not a token id in [0, ${V - 1}]`);
  if (ids.length < 1 || ids.length > T)
    throw new CliError(`--tokens: need 1..${T} tokens (n_positions), got ${ids.length}`);
  return Int32Array.from(ids);
}

export interface ForwardResult {
  logits: number[][];
  loss: number;
  grads?: Record<string, number[]>;
}

/** Gradients as HF-name → flat array (row-major, HF layout: a plain slice of the buffer). */
export function gradsByName(
  layout: ParamLayout,
  grads: ArrayLike<number> & { subarray(a: number, b: number): ArrayLike<number> },
): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const s of layout.slots) out[s.name] = Array.from(grads.subarray(s.offset, s.offset + s.size));
  return out;
}

export function cpuForward(
  layout: ParamLayout,
  params: Float32Array,
  tokens: Int32Array,
  withGrads: boolean,
): ForwardResult {
  const T = tokens.length;
  const V = layout.config.vocabSize;
  const { loss, logits, grads } = crossEntropyLossAndGrad(layout, params, tokens, 1, T);
  const rows: number[][] = [];
  for (let t = 0; t < T; t++) rows.push(Array.from(logits.subarray(t * V, (t + 1) * V)));
  return { logits: rows, loss, ...(withGrads ? { grads: gradsByName(layout, grads) } : {}) };
}

export type GpuForward = (
  layout: ParamLayout,
  params: Float32Array,
  tokens: Int32Array,
  withGrads: boolean,
) => Promise<ForwardResult>;

export async function forwardCommand(
  argv: string[],
  out: (s: string) => void,
  gpuForward?: GpuForward,
): Promise<number> {
  const f = parseFlags(argv, FORWARD_FLAGS, 'forward');
  const backend = stringFlag(f, 'backend', 'gpu');
  if (backend !== 'gpu' && backend !== 'cpu') throw new CliError(`--backend must be one of gpu, cpu; got "${backend}"`);
  const ck = loadCheckpointFile(stringFlag(f, 'checkpoint'));
  const tokens = parseTokenList(stringFlag(f, 'tokens'), ck.config.vocabSize, ck.config.nPositions);
  let result: ForwardResult;
  if (backend === 'cpu') result = cpuForward(ck.layout, ck.params, tokens, Boolean(f.backward));
  else {
    if (!gpuForward) throw new CliError('--backend gpu is not available in this build');
    result = await gpuForward(ck.layout, ck.params, tokens, Boolean(f.backward));
  }
  if (f.json) out(JSON.stringify(result));
  else {
    out(`loss ${result.loss.toFixed(6)} over ${tokens.length - 1} next-token predictions (${backend})`);
    const last = result.logits[result.logits.length - 1];
    out(`logits at the last position: ${last.map((v) => v.toFixed(4)).join(' ')}`);
  }
  return 0;
}
