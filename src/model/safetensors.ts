// Checkpoints as .safetensors with Hugging Face GPT-2 names and layouts (src/model/layout.ts), so a
// user can load them with `safetensors`/`transformers` (GPT2LMHeadModel ties lm_head to wte).
//
// File format: u64 little-endian header length H, then H bytes of JSON
//   { "__metadata__": {string: string}, "<name>": {dtype, shape, data_offsets: [begin, end]} }
// (padded with spaces to a multiple of 8), then the tensor bytes, offsets relative to it.

import { buildLayout, type ParamLayout } from './layout';
import { DEFAULT_INIT_STD, validateModelConfig, type ModelConfig } from './model-config';
import { LAYER_NORM_EPS } from '../core/abi';
import {
  CheckpointError,
  readingFile,
  checkSpan,
  firstNonFinite,
  readF32Tensor,
  readSafetensorsFile,
  writeSafetensorsFile,
} from './safetensors-file';

export { CheckpointError, readingFile };
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

export function writeSafetensors(
  layout: ParamLayout,
  params: Float32Array,
  vocab: string[],
  runConfig?: unknown,
): Uint8Array {
  if (params.length !== layout.numParams) {
    throw new CheckpointError(`params has ${params.length} floats, the layout needs ${layout.numParams}`);
  }
  if (vocab.length !== layout.config.vocabSize) {
    throw new CheckpointError(`vocab has ${vocab.length} entries, model.vocabSize is ${layout.config.vocabSize}`);
  }
  const metadata: Record<string, string> = {
    format: 'pt',
    config: JSON.stringify(hfConfig(layout.config)),
    vocab: JSON.stringify(vocab),
    ...(runConfig === undefined ? {} : { run_config: JSON.stringify(runConfig) }),
  };
  const tensors = layout.slots.map((slot) => ({
    name: slot.name,
    shape: slot.shape,
    values: params.subarray(slot.offset, slot.offset + slot.size),
  }));
  return writeSafetensorsFile(tensors, metadata);
}

function configFromHf(raw: unknown): ModelConfig {
  if (typeof raw !== 'object' || raw === null) throw new CheckpointError('__metadata__.config is not a JSON object');
  const c = raw as Record<string, unknown>;
  for (const k of ['vocab_size', 'n_positions', 'n_embd', 'n_layer', 'n_head']) {
    if (typeof c[k] !== 'number') throw new CheckpointError(`__metadata__.config.${k} is missing or not a number`);
  }
  if (c.activation_function !== undefined && c.activation_function !== 'gelu_new') {
    throw new CheckpointError(
      `__metadata__.config.activation_function must be "gelu_new", got ${JSON.stringify(c.activation_function)}`,
    );
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

/**
 * Parse and validate a checkpoint; the first problem is reported by tensor name. Everything is
 * checked against the file's size before the weights are allocated, and weights that are not
 * finite (NaN, ±Inf) are refused: such a model trains and evaluates to nothing.
 */
export function readSafetensors(bytes: Uint8Array): Checkpoint {
  const file = readSafetensorsFile(bytes);
  const meta = file.metadata;
  if (typeof meta.config !== 'string') throw new CheckpointError('__metadata__.config is missing');
  let hf: unknown;
  try {
    hf = JSON.parse(meta.config);
  } catch {
    throw new CheckpointError('__metadata__.config is not valid JSON');
  }
  const config = configFromHf(hf);
  let vocab: unknown;
  try {
    vocab =
      meta.vocab === undefined ? Array.from({ length: config.vocabSize }, (_, i) => `t${i}`) : JSON.parse(meta.vocab);
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
  for (const name of file.tensors.keys()) {
    if (!layout.byName.has(name))
      throw new CheckpointError(`unexpected tensor "${name}" (not part of a GPT-2 with this config)`);
  }
  // Every tensor named, F32, of its shape (its byte span was checked against the file): only
  // then is the parameter buffer allocated, so its size is bounded by the file's.
  for (const slot of layout.slots) {
    const e = file.tensors.get(slot.name);
    if (!e) throw new CheckpointError(`missing tensor "${slot.name}" (shape [${slot.shape}])`);
    if (e.dtype !== 'F32') throw new CheckpointError(`tensor "${slot.name}": dtype ${e.dtype}, expected F32`);
    if (e.shape.length !== slot.shape.length || e.shape.some((d, i) => d !== slot.shape[i])) {
      throw new CheckpointError(`tensor "${slot.name}": shape [${e.shape}], expected [${slot.shape}]`);
    }
    checkSpan(e);
  }
  const params = new Float32Array(layout.numParams);
  for (const slot of layout.slots) {
    readF32Tensor(file, file.tensors.get(slot.name)!, params, slot.offset);
    const bad = firstNonFinite(params, slot.offset, slot.offset + slot.size);
    if (bad >= 0) {
      let count = 0;
      for (let i = bad; i < slot.offset + slot.size; i++) if (!Number.isFinite(params[i])) count++;
      throw new CheckpointError(
        `tensor "${slot.name}" holds ${count} non-finite value(s) (first: ${params[bad]} at index ${bad - slot.offset}); ` +
          'a model with NaN or infinite weights cannot be trained or evaluated',
      );
    }
  }
  return { config, layout, params, vocab: vocab as string[], runConfig };
}
