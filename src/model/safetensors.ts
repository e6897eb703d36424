// Checkpoints as .safetensors with Hugging Face GPT-2 names and layouts (DESIGN.md), so a
// user can load them with `safetensors`/`transformers` (GPT2LMHeadModel ties lm_head to wte).
//
// File format: u64 little-endian header length H, then H bytes of JSON
//   { "__metadata__": {string: string}, "<name>": {dtype, shape, data_offsets: [begin, end]} }
// (padded with spaces to a multiple of 8), then the tensor bytes, offsets relative to it.

import { buildLayout, type ParamLayout } from './layout';
import { DEFAULT_INIT_STD, LAYER_NORM_EPS, validateModelConfig, type ModelConfig } from './config';

export class CheckpointError extends Error {}

export interface Checkpoint {
  config: ModelConfig;
  layout: ParamLayout;
  /** [numParams] in the layout's order. */
  params: Float32Array;
  /** id → token text, length V. */
  vocab: string[];
  /** The run config this model was trained with, if any (plain JSON). */
  runConfig?: unknown;
}

/** HF GPT2Config keys for our model contract. */
export function hfConfig(cfg: ModelConfig): Record<string, unknown> {
  return {
    model_type: 'gpt2',
    architectures: ['GPT2LMHeadModel'],
    vocab_size: cfg.vocabSize,
    n_positions: cfg.nPositions,
    n_ctx: cfg.nPositions,
    n_embd: cfg.nEmbd,
    n_layer: cfg.nLayer,
    n_head: cfg.nHead,
    n_inner: null, // 4 * n_embd
    layer_norm_epsilon: LAYER_NORM_EPS,
    activation_function: 'gelu_new',
    resid_pdrop: 0,
    embd_pdrop: 0,
    attn_pdrop: 0,
    tie_word_embeddings: true,
    initializer_range: cfg.initStd ?? DEFAULT_INIT_STD,
  };
}

export function writeSafetensors(layout: ParamLayout, params: Float32Array, vocab: string[], runConfig?: unknown): Uint8Array {
  if (params.length !== layout.numParams) {
    throw new CheckpointError(`params has ${params.length} floats, the layout needs ${layout.numParams}`);
  }
  if (vocab.length !== layout.config.vocabSize) {
    throw new CheckpointError(`vocab has ${vocab.length} entries, model.vocabSize is ${layout.config.vocabSize}`);
  }
  const header: Record<string, unknown> = {
    __metadata__: {
      format: 'pt',
      config: JSON.stringify(hfConfig(layout.config)),
      vocab: JSON.stringify(vocab),
      ...(runConfig === undefined ? {} : { run_config: JSON.stringify(runConfig) }),
    },
  };
  let offset = 0;
  for (const slot of layout.slots) {
    header[slot.name] = { dtype: 'F32', shape: slot.shape, data_offsets: [offset, offset + slot.size * 4] };
    offset += slot.size * 4;
  }
  let json = JSON.stringify(header);
  const enc = new TextEncoder();
  let headerBytes = enc.encode(json);
  const pad = (8 - (headerBytes.length % 8)) % 8;
  json += ' '.repeat(pad);
  headerBytes = enc.encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  const dv = new DataView(out.buffer);
  dv.setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  const data = new DataView(out.buffer, 8 + headerBytes.length);
  let p = 0;
  for (const slot of layout.slots) {
    for (let i = 0; i < slot.size; i++, p += 4) data.setFloat32(p, params[slot.offset + i], true);
  }
  return out;
}

interface TensorEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

function configFromHf(raw: unknown): ModelConfig {
  if (typeof raw !== 'object' || raw === null) throw new CheckpointError('__metadata__.config is not a JSON object');
  const c = raw as Record<string, unknown>;
  for (const k of ['vocab_size', 'n_positions', 'n_embd', 'n_layer', 'n_head']) {
    if (typeof c[k] !== 'number') throw new CheckpointError(`__metadata__.config.${k} is missing or not a number`);
  }
  if (c.activation_function !== undefined && c.activation_function !== 'gelu_new') {
    throw new CheckpointError(`__metadata__.config.activation_function must be "gelu_new", got ${JSON.stringify(c.activation_function)}`);
  }
  const cfg: ModelConfig = {
    vocabSize: c.vocab_size as number,
    nPositions: c.n_positions as number,
    nEmbd: c.n_embd as number,
    nLayer: c.n_layer as number,
    nHead: c.n_head as number,
  };
  if (typeof c.initializer_range === 'number') cfg.initStd = c.initializer_range;
  try {
    return validateModelConfig(cfg);
  } catch (e) {
    throw new CheckpointError(`__metadata__.config: ${(e as Error).message}`);
  }
}

/** Parse and validate a checkpoint; the first problem is reported by tensor name. */
export function readSafetensors(bytes: Uint8Array): Checkpoint {
  if (bytes.length < 8) throw new CheckpointError(`file is ${bytes.length} bytes: too short for a safetensors header`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = Number(dv.getBigUint64(0, true));
  if (headerLen <= 0 || 8 + headerLen > bytes.length) {
    throw new CheckpointError(`header length ${headerLen} does not fit in a ${bytes.length}-byte file`);
  }
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLen)));
  } catch (e) {
    throw new CheckpointError(`header is not valid JSON: ${(e as Error).message}`);
  }
  const meta = header.__metadata__ as Record<string, string> | undefined;
  if (!meta || typeof meta.config !== 'string') throw new CheckpointError('__metadata__.config is missing');
  let config: ModelConfig;
  let vocab: string[];
  try {
    config = configFromHf(JSON.parse(meta.config));
  } catch (e) {
    throw e instanceof CheckpointError ? e : new CheckpointError(`__metadata__.config is not valid JSON`);
  }
  try {
    vocab = meta.vocab === undefined ? Array.from({ length: config.vocabSize }, (_, i) => `t${i}`) : JSON.parse(meta.vocab);
  } catch {
    throw new CheckpointError('__metadata__.vocab is not valid JSON');
  }
  if (!Array.isArray(vocab) || vocab.length !== config.vocabSize || vocab.some((v) => typeof v !== 'string')) {
    throw new CheckpointError(`__metadata__.vocab must be a list of ${config.vocabSize} strings`);
  }
  let runConfig: unknown;
  if (meta.run_config !== undefined) {
    try {
      runConfig = JSON.parse(meta.run_config);
    } catch {
      throw new CheckpointError('__metadata__.run_config is not valid JSON');
    }
  }

  const layout = buildLayout(config);
  const dataStart = 8 + headerLen;
  const dataLen = bytes.length - dataStart;
  const names = Object.keys(header).filter((k) => k !== '__metadata__');
  for (const name of names) {
    if (!layout.byName.has(name)) throw new CheckpointError(`unexpected tensor "${name}" (not part of a GPT-2 with this config)`);
  }
  const params = new Float32Array(layout.numParams);
  for (const slot of layout.slots) {
    const e = header[slot.name] as TensorEntry | undefined;
    if (!e) throw new CheckpointError(`missing tensor "${slot.name}" (shape [${slot.shape}])`);
    if (e.dtype !== 'F32') throw new CheckpointError(`tensor "${slot.name}": dtype ${e.dtype}, expected F32`);
    if (!Array.isArray(e.shape) || e.shape.length !== slot.shape.length || e.shape.some((d, i) => d !== slot.shape[i])) {
      throw new CheckpointError(`tensor "${slot.name}": shape [${e.shape}], expected [${slot.shape}]`);
    }
    const [b, end] = e.data_offsets ?? [];
    if (!Number.isInteger(b) || !Number.isInteger(end) || b < 0 || end > dataLen || end - b !== slot.size * 4) {
      throw new CheckpointError(
        `tensor "${slot.name}": data_offsets [${b}, ${end}] must span ${slot.size * 4} bytes inside the ${dataLen}-byte data section`,
      );
    }
    for (let i = 0; i < slot.size; i++) params[slot.offset + i] = dv.getFloat32(dataStart + b + i * 4, true);
  }
  return { config, layout, params, vocab, runConfig };
}
