import { describe, it, expect } from 'vitest';
import { buildLayout } from './layout';
import { initParams } from './init';
import { readSafetensors, writeSafetensors, CheckpointError } from './safetensors';
import { MAX_PARAMS, type ModelConfig } from './model-config';

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
    expect(cfgMeta).toMatchObject({
      vocab_size: 7,
      n_positions: 6,
      n_embd: 8,
      n_layer: 2,
      n_head: 2,
      layer_norm_epsilon: 1e-5,
      activation_function: 'gelu_new',
    });
    // Data offsets tile the data section with no gaps (what strict readers require).
    const spans = Object.entries(h)
      .filter(([k]) => k !== '__metadata__')
      .map(([, v]: [string, any]) => v.data_offsets as [number, number])
      .sort((a, b) => a[0] - b[0]);
    let at = 0;
    for (const [b, e] of spans) {
      expect(b).toBe(at);
      at = e;
    }
    expect(8 + n + at).toBe(file.length);
    // A value read the way any reader would: wte[1][2] at offset (1*8+2)*4 of its span.
    const wte = h['transformer.wte.weight'].data_offsets[0];
    const v = new DataView(file.buffer).getFloat32(8 + n + wte + (1 * 8 + 2) * 4, true);
    expect(v).toBe(params[layout.wte.offset + 1 * 8 + 2]);
  });

  it('refuses a wrong shape, naming the tensor', () => {
    const bad = editHeader(file, (h) => {
      h['transformer.h.1.ln_2.bias'].shape = [9];
    });
    expect(() => readSafetensors(bad)).toThrowError(/transformer\.h\.1\.ln_2\.bias.*shape \[9\], expected \[8\]/);
  });

  it('refuses a missing tensor, naming it', () => {
    const bad = editHeader(file, (h) => {
      delete h['transformer.ln_f.weight'];
    });
    expect(() => readSafetensors(bad)).toThrowError(/missing tensor "transformer\.ln_f\.weight"/);
  });

  it('refuses an unexpected tensor and a wrong dtype, naming them', () => {
    expect(() =>
      readSafetensors(
        editHeader(file, (h) => {
          h['transformer.h.7.ln_1.weight'] = h['transformer.ln_f.weight'];
        }),
      ),
    ).toThrowError(/unexpected tensor "transformer\.h\.7\.ln_1\.weight"/);
    expect(() =>
      readSafetensors(
        editHeader(file, (h) => {
          h['transformer.wpe.weight'].dtype = 'F16';
        }),
      ),
    ).toThrowError(/transformer\.wpe\.weight.*F16/);
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
      const c = JSON.parse(h.__metadata__.config);
      c.n_embd = 12;
      h.__metadata__.config = JSON.stringify(c);
    });
    expect(() => readSafetensors(wrongCfg)).toThrowError(/transformer\.wte\.weight.*shape \[7,8\], expected \[7,12\]/);
  });

  /** A file whose header is `text` (any JSON or not), with `data` bytes after it. */
  const raw = (text: string, data = 0): Uint8Array => {
    const hb = new TextEncoder().encode(text);
    const out = new Uint8Array(8 + hb.length + data);
    new DataView(out.buffer).setBigUint64(0, BigInt(hb.length), true);
    out.set(hb, 8);
    return out;
  };

  it('refuses a tensor with a negative start offset instead of reading the header bytes as weights', () => {
    const bad = editHeader(file, (h) => {
      const e = h['transformer.wte.weight'];
      const [b, end] = e.data_offsets;
      e.data_offsets = [b - 64, end - 64];
    });
    expect(() => readSafetensors(bad)).toThrowError(
      /tensor "transformer\.wte\.weight": data_offsets \[-64, \d+\] must satisfy 0 ≤ begin/,
    );
  });

  it('a null header, a non-object entry and non-array data_offsets are named errors, not TypeErrors', () => {
    expect(() => readSafetensors(raw('null'))).toThrowError(/^header must be a JSON object/);
    expect(() => readSafetensors(raw('[1,2]'))).toThrowError(CheckpointError);
    expect(() => readSafetensors(raw('{"__metadata__": null}'))).toThrowError(/__metadata__ must be an object/);
    expect(() => readSafetensors(raw('{"__metadata__": {"config": 3}}'))).toThrowError(
      /__metadata__\.config must be a string/,
    );
    for (const name of ['transformer.wpe.weight', 'x']) {
      expect(() =>
        readSafetensors(
          editHeader(file, (h) => {
            h[name] = null;
          }),
        ),
      ).toThrowError(new RegExp(`tensor "${name.replace(/\./g, '\\.')}": its header entry must be an object`));
    }
    expect(() =>
      readSafetensors(
        editHeader(file, (h) => {
          h['transformer.wpe.weight'].data_offsets = 5;
        }),
      ),
    ).toThrowError(/tensor "transformer\.wpe\.weight": data_offsets must be \[begin, end\], two integers, got 5/);
    expect(() =>
      readSafetensors(
        editHeader(file, (h) => {
          h['transformer.wpe.weight'].data_offsets = { 0: 1 };
        }),
      ),
    ).toThrowError(CheckpointError);
    expect(() =>
      readSafetensors(
        editHeader(file, (h) => {
          h['transformer.wpe.weight'].shape = 'big';
        }),
      ),
    ).toThrowError(/shape must be a list/);
    // Header length past 2^53 or past the file: no RangeError from DataView or Number.
    const huge = new Uint8Array(16);
    new DataView(huge.buffer).setBigUint64(0, 0xffffffffffffffffn, true);
    expect(() => readSafetensors(huge)).toThrowError(/^header length 18446744073709551615 does not fit/);
  });

  it('a small file claiming a 13-billion-parameter model is refused before anything is allocated', () => {
    const cfgText = JSON.stringify({ vocab_size: 65536, n_positions: 4096, n_embd: 4096, n_layer: 64, n_head: 64 });
    // Entries for every tensor of that model would be a 777 KB header; the config alone is refused.
    const text = JSON.stringify({ __metadata__: { config: cfgText } });
    expect(() => readSafetensors(raw(text))).toThrowError(
      /__metadata__\.config: the model would have 13,173,530,624 parameters.*at most 268,435,456/,
    );
    // Within the parameter limit but far beyond the bytes present: refused by tensor, still without allocating.
    const mid = { vocab_size: 16, n_positions: 32, n_embd: 1024, n_layer: 16, n_head: 8 };
    const layoutMid = buildLayout({ vocabSize: 16, nPositions: 32, nEmbd: 1024, nLayer: 16, nHead: 8 });
    expect(layoutMid.numParams).toBeLessThan(MAX_PARAMS);
    const h: Record<string, unknown> = { __metadata__: { config: JSON.stringify(mid) } };
    let at = 0;
    for (const s of layoutMid.slots) {
      h[s.name] = { dtype: 'F32', shape: s.shape, data_offsets: [at, at + s.size * 4] };
      at += s.size * 4;
    }
    expect(() => readSafetensors(raw(JSON.stringify(h), 1024))).toThrowError(
      /data_offsets \[\d+, \d+\] must satisfy 0 ≤ begin ≤ end ≤ 1024/,
    );
  });

  it('refuses NaN or infinite weights, naming the tensor and the first bad index', () => {
    const p = params.slice();
    p[layout.blocks[1].fcb.offset + 5] = NaN;
    p[layout.blocks[1].fcb.offset + 7] = -Infinity;
    expect(() => readSafetensors(writeSafetensors(layout, p, vocab))).toThrowError(
      /tensor "transformer\.h\.1\.mlp\.c_fc\.bias" holds 2 non-finite value\(s\) \(first: NaN at index 5\)/,
    );
  });
});
