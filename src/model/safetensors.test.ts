import { describe, it, expect } from 'vitest';
import { buildLayout } from './layout';
import { initParams } from './init';
import { readSafetensors, writeSafetensors, CheckpointError } from './safetensors';
import type { ModelConfig } from './config';

const cfg: ModelConfig = { vocabSize: 7, nPositions: 6, nEmbd: 8, nLayer: 2, nHead: 2 };
const layout = buildLayout(cfg);
const params = initParams(layout, 3);
const vocab = ['<pad>', '<bos>', '<sep>', '<eos>', 'a', 'b', 'c'];

/** Rewrites the JSON header of a file (keeping the data section), for corruption tests. */
function editHeader(bytes: Uint8Array, edit: (h: Record<string, any>) => void): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset);
  const n = Number(dv.getBigUint64(0, true));
  const h = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  edit(h);
  const hb = new TextEncoder().encode(JSON.stringify(h));
  const out = new Uint8Array(8 + hb.length + bytes.length - 8 - n);
  new DataView(out.buffer).setBigUint64(0, BigInt(hb.length), true);
  out.set(hb, 8);
  out.set(bytes.subarray(8 + n), 8 + hb.length);
  return out;
}

describe('safetensors checkpoints', () => {
  const file = writeSafetensors(layout, params, vocab, { seed: 3 });

  it('round-trips parameters, config, vocab and run config exactly', () => {
    const ck = readSafetensors(file);
    expect(ck.config).toEqual({ ...cfg, initStd: 0.02 }); // initializer_range is always written
    expect(ck.vocab).toEqual(vocab);
    expect(ck.runConfig).toEqual({ seed: 3 });
    expect(Array.from(ck.params)).toEqual(Array.from(params));
  });

  it('uses Hugging Face GPT-2 names, HF shapes, F32, an 8-byte aligned header and contiguous data', () => {
    const n = Number(new DataView(file.buffer).getBigUint64(0, true));
    expect(n % 8).toBe(0);
    const h = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + n)));
    expect(h['transformer.wte.weight']).toMatchObject({ dtype: 'F32', shape: [7, 8] });
    expect(h['transformer.wpe.weight'].shape).toEqual([6, 8]);
    expect(h['transformer.h.1.attn.c_attn.weight'].shape).toEqual([8, 24]);
    expect(h['transformer.h.0.mlp.c_proj.weight'].shape).toEqual([32, 8]);
    expect(h['lm_head.weight']).toBeUndefined();
    const cfgMeta = JSON.parse(h.__metadata__.config);
    expect(cfgMeta).toMatchObject({ vocab_size: 7, n_positions: 6, n_embd: 8, n_layer: 2, n_head: 2, layer_norm_epsilon: 1e-5, activation_function: 'gelu_new' });
    // Data offsets tile the data section with no gaps (what strict readers require).
    const spans = Object.entries(h).filter(([k]) => k !== '__metadata__').map(([, v]: [string, any]) => v.data_offsets as [number, number]).sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [b, e] of spans) { expect(b).toBe(at); at = e; }
    expect(8 + n + at).toBe(file.length);
    // A value read the way any reader would: wte[1][2] at offset (1*8+2)*4 of its span.
    const wte = h['transformer.wte.weight'].data_offsets[0];
    const v = new DataView(file.buffer).getFloat32(8 + n + wte + (1 * 8 + 2) * 4, true);
    expect(v).toBe(params[layout.wte.offset + 1 * 8 + 2]);
  });

  it('refuses a wrong shape, naming the tensor', () => {
    const bad = editHeader(file, (h) => { h['transformer.h.1.ln_2.bias'].shape = [9]; });
    expect(() => readSafetensors(bad)).toThrowError(/transformer\.h\.1\.ln_2\.bias.*shape \[9\], expected \[8\]/);
  });

  it('refuses a missing tensor, naming it', () => {
    const bad = editHeader(file, (h) => { delete h['transformer.ln_f.weight']; });
    expect(() => readSafetensors(bad)).toThrowError(/missing tensor "transformer\.ln_f\.weight"/);
  });

  it('refuses an unexpected tensor and a wrong dtype, naming them', () => {
    expect(() => readSafetensors(editHeader(file, (h) => { h['transformer.h.7.ln_1.weight'] = h['transformer.ln_f.weight']; }))).toThrowError(/unexpected tensor "transformer\.h\.7\.ln_1\.weight"/);
    expect(() => readSafetensors(editHeader(file, (h) => { h['transformer.wpe.weight'].dtype = 'F16'; }))).toThrowError(/transformer\.wpe\.weight.*F16/);
  });

  it('refuses a truncated file, naming the first tensor that does not fit', () => {
    const cut = file.subarray(0, file.length - 10);
    expect(() => readSafetensors(cut)).toThrowError(CheckpointError);
    expect(() => readSafetensors(cut)).toThrowError(/transformer\.ln_f\.bias.*data_offsets/);
  });

  it('refuses garbage and a config that mismatches the tensors', () => {
    expect(() => readSafetensors(new Uint8Array([1, 2, 3]))).toThrowError(/too short/);
    const junk = new Uint8Array(64);
    new DataView(junk.buffer).setBigUint64(0, 10_000n, true);
    expect(() => readSafetensors(junk)).toThrowError(/header length/);
    const wrongCfg = editHeader(file, (h) => {
      const c = JSON.parse(h.__metadata__.config); c.n_embd = 12; h.__metadata__.config = JSON.stringify(c);
    });
    expect(() => readSafetensors(wrongCfg)).toThrowError(/transformer\.wte\.weight.*shape \[7,8\], expected \[7,12\]/);
  });
});
