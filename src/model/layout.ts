// The one parameter buffer (docs/architecture.md, "Conventions"): every tensor is a slice of one Float32Array,
// laid out in Hugging Face GPT-2 order and shapes, so a checkpoint is a plain copy.
// Gradients and Adam moments mirror this layout exactly.

import { DEFAULT_INIT_STD, type ModelConfig } from './model-config';

export interface TensorSlot {
  /** Hugging Face GPT-2 name, e.g. `transformer.h.0.attn.c_attn.weight`. */
  name: string;
  /** Shape in HF layout; Conv1D weights are [in, out]. */
  shape: number[];
  /** Offset in floats into the parameter buffer. */
  offset: number;
  /** Number of floats. */
  size: number;
  /** AdamW weight decay applies: tensors of rank ≥ 2 (weights and embeddings), not biases or LayerNorm. */
  decay: boolean;
  /** Initial distribution (src/model/init.ts): normal(std), zeros or ones. */
  init: { kind: 'normal'; std: number } | { kind: 'zeros' } | { kind: 'ones' };
}

export interface BlockSlots {
  ln1w: TensorSlot;
  ln1b: TensorSlot;
  qkvw: TensorSlot;
  qkvb: TensorSlot; // c_attn  [C,3C], [3C]
  attprojw: TensorSlot;
  attprojb: TensorSlot; // c_proj [C,C], [C]
  ln2w: TensorSlot;
  ln2b: TensorSlot;
  fcw: TensorSlot;
  fcb: TensorSlot; // mlp.c_fc [C,4C], [4C]
  fcprojw: TensorSlot;
  fcprojb: TensorSlot; // mlp.c_proj [4C,C], [C]
}

export interface ParamLayout {
  config: ModelConfig;
  /** All tensors in buffer order. */
  slots: TensorSlot[];
  byName: Map<string, TensorSlot>;
  wte: TensorSlot; // [V,C], also the tied LM head
  wpe: TensorSlot; // [T_max,C]
  blocks: BlockSlots[];
  lnfw: TensorSlot;
  lnfb: TensorSlot;
  /** Total floats. */
  numParams: number;
}

// Every slot starts on a multiple of 64 floats (256 bytes): kernels bind each tensor as a
// slice of the one buffer, and WebGPU wants binding offsets aligned to
// minStorageBufferOffsetAlignment (256 bytes on most adapters). Padding stays 0.
export const SLOT_ALIGN_FLOATS = 64;
const ALIGN = SLOT_ALIGN_FLOATS;

export function buildLayout(config: ModelConfig): ParamLayout {
  const { vocabSize: V, nPositions: T, nEmbd: C, nLayer: L } = config;
  const slots: TensorSlot[] = [];
  let offset = 0;
  const std = config.initStd ?? DEFAULT_INIT_STD;
  const residualStd = std / Math.sqrt(2 * L);
  const add = (name: string, shape: number[], init: TensorSlot['init']): TensorSlot => {
    const size = shape.reduce((a, b) => a * b, 1);
    // GPT-2 practice (nanoGPT's configure_optimizers): decay every tensor of rank ≥ 2,
    // which includes the embeddings; biases and LayerNorm parameters are not decayed.
    const slot: TensorSlot = { name, shape, offset, size, decay: shape.length >= 2, init };
    slots.push(slot);
    offset += Math.ceil(size / ALIGN) * ALIGN;
    return slot;
  };
  const normal = (std: number) => ({ kind: 'normal', std }) as const;
  const zeros = { kind: 'zeros' } as const;
  const ones = { kind: 'ones' } as const;

  const wte = add('transformer.wte.weight', [V, C], normal(std));
  const wpe = add('transformer.wpe.weight', [T, C], normal(std));
  const blocks: BlockSlots[] = [];
  for (let i = 0; i < L; i++) {
    const p = `transformer.h.${i}.`;
    blocks.push({
      ln1w: add(p + 'ln_1.weight', [C], ones),
      ln1b: add(p + 'ln_1.bias', [C], zeros),
      qkvw: add(p + 'attn.c_attn.weight', [C, 3 * C], normal(std)),
      qkvb: add(p + 'attn.c_attn.bias', [3 * C], zeros),
      attprojw: add(p + 'attn.c_proj.weight', [C, C], normal(residualStd)),
      attprojb: add(p + 'attn.c_proj.bias', [C], zeros),
      ln2w: add(p + 'ln_2.weight', [C], ones),
      ln2b: add(p + 'ln_2.bias', [C], zeros),
      fcw: add(p + 'mlp.c_fc.weight', [C, 4 * C], normal(std)),
      fcb: add(p + 'mlp.c_fc.bias', [4 * C], zeros),
      fcprojw: add(p + 'mlp.c_proj.weight', [4 * C, C], normal(residualStd)),
      fcprojb: add(p + 'mlp.c_proj.bias', [C], zeros),
    });
  }
  const lnfw = add('transformer.ln_f.weight', [C], ones);
  const lnfb = add('transformer.ln_f.bias', [C], zeros);
  return {
    config,
    slots,
    byName: new Map(slots.map((s) => [s.name, s])),
    wte,
    wpe,
    blocks,
    lnfw,
    lnfb,
    numParams: offset,
  };
}

/** A view of one tensor inside the flat buffer (no copy). */
export function view<A extends Float32Array | Float64Array>(buf: A, slot: TensorSlot): A {
  return buf.subarray(slot.offset, slot.offset + slot.size) as A;
}

/** AdamW's decay mask [P]: 1 inside tensors with slot.decay (rank ≥ 2), 0 elsewhere (padding included). */
export function buildDecayMask(
  layout: ParamLayout,
  ctor: new (n: number) => Float32Array | Float64Array = Float32Array,
): Float32Array | Float64Array {
  const decay = new ctor(layout.numParams);
  for (const s of layout.slots) if (s.decay) decay.fill(1, s.offset, s.offset + s.size);
  return decay;
}
