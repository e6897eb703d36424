// Autoregressive sampling of N sequences over a template, with a KV cache, as one GPU
// submission and one readback (docs/architecture.md, "Conventions").
//
// The template `fixed` [N,T] holds the token the environment writes at each position (the
// prompt, and in interleaved layouts tokens between policy tokens), or −1 where the policy
// samples. Position 0 must be fixed (BOS). For each position pos = 0..T−2 the plan runs one
// decoding step over all N sequences: embed token pos, run every block on that one row
// (writing its q|k|v into the layer's cache [N,T,3C] and attending over rows 0..pos: one
// decode_block dispatch per block where its workgroup memory fits, else the block's eleven
// kernels), project to logits [N,V], and sample_token writes token pos+1 (copying it where the
// template fixes it): L + 4 dispatches a token.
//
// The decoding kernels read pos from small storage buffers (`cursor`, `next`), which the
// command encoder updates with copyBufferToBuffer between passes: one recording, bind groups
// made once, no CPU work per token.

import type { ParamLayout, TensorSlot } from './layout';
import { Plan } from './gpu-plan';
import { slotBinding, type GpuParams } from './gpu-model';
import { createStorage, writeArray } from '../gpu/buffers';
import {
  addOp,
  attentionDecodeOp,
  copyRowsOp,
  createSampleTokenParams,
  decodeBlockFits,
  decodeBlockOp,
  embeddingDecodeOp,
  geluForwardOp,
  layernormForwardOp,
  matmulOp,
  sampleTokenOp,
  writeSampleTokenParams,
  defaultMatmulVariant,
  type MatmulVariant,
} from '../gpu/ops';
import type { Dispatch } from '../gpu/dispatch';
import type { SampleResult, SampleTokenParams } from '../core/abi';

/**
 * What sample_token reads and writes for N sequences of T positions, and the template upload:
 * shared by GpuSampler and the bench's no-cache baseline (src/bench/nocache-sampler.ts).
 */
export class SampleBuffers {
  readonly tokens: GPUBuffer; // [N,T] i32
  readonly logp: GPUBuffer; // [N,T]
  readonly entropy: GPUBuffer; // [N,T]
  readonly fixed: GPUBuffer; // [N,T] i32
  protected readonly params: GPUBuffer; // sample_token's seed/step/temperature/top-k
  protected readonly positions: GPUBuffer; // [T] u32: 0, 1, …, T−1 (copy sources for the cursors)
  protected readonly next: GPUBuffer; // [1] u32 position being written

  constructor(
    readonly device: GPUDevice,
    layout: ParamLayout,
    readonly N: number,
    readonly T: number,
    label: string,
  ) {
    // T must fit the model's positions and leave at least one position to sample.
    const { nPositions } = layout.config;
    if (T > nPositions) throw new RangeError(`sampling length T=${T} exceeds model.nPositions=${nPositions}`);
    if (T < 2) throw new RangeError(`sampling length T must be ≥ 2, got ${T}`);
    const f = (n: number, what: string) => createStorage(device, n * 4, `${label} ${what}`);
    this.tokens = f(N * T, 'tokens');
    this.logp = f(N * T, 'logp');
    this.entropy = f(N * T, 'entropy');
    this.fixed = f(N * T, 'template');
    this.next = f(1, 'next cursor');
    this.positions = f(T, 'positions');
    writeArray(
      device,
      this.positions,
      Uint32Array.from({ length: T }, (_, i) => i),
    );
    this.params = createSampleTokenParams(device, { seed: 0, step: 0, invTemp: 1, topK: 0 });
  }

  /** Upload a template [N,T] (−1 = sampled); position 0 of every row must be fixed. */
  setTemplate(fixed: Int32Array): void {
    const { N, T } = this;
    if (fixed.length !== N * T) throw new RangeError(`template has ${fixed.length} entries, sampler is N·T = ${N * T}`);
    for (let n = 0; n < N; n++) {
      if (fixed[n * T] < 0) throw new RangeError(`template row ${n}: position 0 must be a fixed token (BOS)`);
    }
    writeArray(this.device, this.fixed, fixed);
    // Start from the template: position 0 is read before anything is sampled.
    const init = Int32Array.from(fixed, (t) => Math.max(t, 0));
    writeArray(this.device, this.tokens, init);
    this.device.queue.writeBuffer(this.logp, 0, new Float32Array(N * T));
    this.device.queue.writeBuffer(this.entropy, 0, new Float32Array(N * T));
  }

  setParams(params: SampleTokenParams): void {
    writeSampleTokenParams(this.device, this.params, params);
  }

  /** sample_token over `logits` [N,V]: writes position next[0] of tokens, logp and entropy. */
  protected sampleTokenDispatch(logits: GPUBuffer, V: number): Dispatch[] {
    const { device, N, T } = this;
    return sampleTokenOp(
      device,
      this.tokens,
      this.logp,
      this.entropy,
      logits,
      this.fixed,
      N,
      V,
      T,
      this.next,
      this.params,
    );
  }
}

function encodeDecodeStep(step: Plan, encoder: GPUCommandEncoder): void {
  step.encode(encoder, 'decode');
}

/** What a decoding step's blocks read and write, besides the weights. */
interface DecodeBuffers {
  x0: GPUBuffer; // [N,C] residual stream
  ln: GPUBuffer; // [N,C]
  stats: GPUBuffer; // [2, N]
  caches: GPUBuffer[]; // [N,T,3C] per block
  cursor: GPUBuffer; // [1] u32 position being read
}

/** One dispatch per block: the whole block in workgroup memory, x updated in place; returns x. */
function fusedBlocks(
  plan: Plan,
  device: GPUDevice,
  layout: ParamLayout,
  model: GpuParams,
  { x0, caches, cursor }: DecodeBuffers,
  N: number,
  T: number,
): GPUBuffer {
  const { nEmbd: C, nHead: NH } = layout.config;
  layout.blocks.forEach((b, l) => {
    plan.dispatch(
      decodeBlockOp(
        device,
        x0,
        caches[l],
        model.params,
        {
          ln1w: b.ln1w.offset,
          ln1b: b.ln1b.offset,
          qkvw: b.qkvw.offset,
          qkvb: b.qkvb.offset,
          projw: b.attprojw.offset,
          projb: b.attprojb.offset,
          ln2w: b.ln2w.offset,
          ln2b: b.ln2b.offset,
          fcw: b.fcw.offset,
          fcb: b.fcb.offset,
          fcprojw: b.fcprojw.offset,
          fcprojb: b.fcprojb.offset,
        },
        { N, T, C, NH },
        cursor,
      ),
    );
  });
  return x0;
}

/**
 * Wider models than workgroup memory holds: the block kernel by kernel, the residual stream
 * ping-ponging between x0 and a second buffer; returns the one the last block wrote.
 */
function blocksKernelByKernel(
  plan: Plan,
  device: GPUDevice,
  layout: ParamLayout,
  model: GpuParams,
  { x0, ln, stats, caches, cursor }: DecodeBuffers,
  N: number,
  T: number,
  variant: MatmulVariant,
): GPUBuffer {
  const { nEmbd: C, nHead: NH } = layout.config;
  const f = (n: number, label: string) => createStorage(device, n * 4, label);
  const p = (s: TensorSlot) => slotBinding(model.params, s);
  let x = x0;
  const x1 = f(N * C, 'decode x′'); // [N,C] pong
  const qkvNew = f(N * 3 * C, 'decode qkv'); // [N,3C]
  const atty = f(N * C, 'decode atty');
  const proj = f(N * C, 'decode proj');
  const mid = f(N * C, 'decode resid2');
  const fch = f(N * 4 * C, 'decode fch');
  const fchGelu = f(N * 4 * C, 'decode fch gelu');
  let y = x1;
  layout.blocks.forEach((b, l) => {
    plan
      .dispatch(layernormForwardOp(device, ln, stats, x, p(b.ln1w), p(b.ln1b), N, C))
      .dispatch(matmulOp(device, qkvNew, ln, p(b.qkvw), p(b.qkvb), { M: N, K: C, N: 3 * C }, variant))
      .dispatch(copyRowsOp(device, caches[l], qkvNew, N, T, 3 * C, cursor))
      .dispatch(attentionDecodeOp(device, atty, caches[l], { N, T, C, NH }, cursor))
      .dispatch(matmulOp(device, proj, atty, p(b.attprojw), p(b.attprojb), { M: N, K: C, N: C }, variant))
      .dispatch(addOp(device, mid, x, proj, N * C))
      .dispatch(layernormForwardOp(device, ln, stats, mid, p(b.ln2w), p(b.ln2b), N, C))
      .dispatch(matmulOp(device, fch, ln, p(b.fcw), p(b.fcb), { M: N, K: C, N: 4 * C }, variant))
      .dispatch(geluForwardOp(device, fchGelu, fch, N * 4 * C))
      .dispatch(matmulOp(device, proj, fchGelu, p(b.fcprojw), p(b.fcprojb), { M: N, K: 4 * C, N: C }, variant))
      .dispatch(addOp(device, y, mid, proj, N * C));
    [x, y] = [y, x];
  });
  return x;
}

export class GpuSampler extends SampleBuffers {
  readonly logits: GPUBuffer; // [N,V] the latest step's logits
  private readonly cursor: GPUBuffer; // [1] u32 position being read
  private readonly step: Plan; // one decoding step (no cursor updates)
  private readonly readback: GPUBuffer; // [3,N,T] mappable copy of tokens | logp | entropy
  readonly dispatchesPerToken: number;

  constructor(
    device: GPUDevice,
    readonly layout: ParamLayout,
    model: GpuParams,
    N: number,
    T: number,
    variant: MatmulVariant = defaultMatmulVariant(),
    /** One decode_block dispatch per block where its workgroup memory fits (the default); false: kernel by kernel, for the bench's side-by-side. */
    fused = true,
  ) {
    super(device, layout, N, T, 'sample');
    const { nEmbd: C, vocabSize: V, nHead: NH } = layout.config;
    const f = (n: number, label: string) => createStorage(device, n * 4, label);
    this.logits = f(N * V, 'sample logits');
    this.cursor = f(1, 'cursor');
    this.readback = device.createBuffer({
      label: 'sample readback',
      size: 3 * N * T * 4,
      usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
    });

    const p = (s: TensorSlot) => slotBinding(model.params, s);
    const x0 = f(N * C, 'decode x'); // [N,C] residual stream
    const ln = f(N * C, 'decode ln');
    const stats = f(2 * N, 'decode ln stats'); // [2,N] mean, rstd (not used after the layernorm)
    const caches = layout.blocks.map((_, l) => f(N * T * 3 * C, `kv cache h${l}`)); // [N,T,3C] each

    const plan = new Plan().dispatch(
      embeddingDecodeOp(device, x0, this.tokens, p(layout.wte), p(layout.wpe), { N, T, C, V }, this.cursor),
    );
    const bufs: DecodeBuffers = { x0, ln, stats, caches, cursor: this.cursor };
    const x =
      fused && decodeBlockFits(device, C, NH, T)
        ? fusedBlocks(plan, device, layout, model, bufs, N, T)
        : blocksKernelByKernel(plan, device, layout, model, bufs, N, T, variant);
    plan
      .dispatch(layernormForwardOp(device, ln, stats, x, p(layout.lnfw), p(layout.lnfb), N, C))
      .dispatch(matmulOp(device, this.logits, ln, p(layout.wte), null, { M: N, K: C, N: V, transB: true }, variant))
      .dispatch(this.sampleTokenDispatch(this.logits, V));
    this.step = plan;
    this.dispatchesPerToken = plan.dispatchCount;
  }

  /**
   * Record decoding steps for positions [from, to) into `encoder`; `encodeStep` records the
   * one-position plan (a profiler passes its own, which times each dispatch).
   */
  encode(
    encoder: GPUCommandEncoder,
    from = 0,
    to = this.T - 1,
    encodeStep: (step: Plan, encoder: GPUCommandEncoder) => void = encodeDecodeStep,
  ): void {
    for (let pos = from; pos < to; pos++) {
      encoder.copyBufferToBuffer(this.positions, pos * 4, this.cursor, 0, 4);
      encoder.copyBufferToBuffer(this.positions, (pos + 1) * 4, this.next, 0, 4);
      encodeStep(this.step, encoder);
    }
  }

  /**
   * Sample every non-fixed position of the current template: one submission, one readback.
   * `params.step` is the RL step (part of the random key with seed, sequence and position).
   */
  async sample(params: SampleTokenParams): Promise<SampleResult> {
    this.setParams(params);
    const { N, T } = this;
    const bytes = N * T * 4;
    const enc = this.device.createCommandEncoder();
    this.encode(enc);
    enc.copyBufferToBuffer(this.tokens, 0, this.readback, 0, bytes);
    enc.copyBufferToBuffer(this.logp, 0, this.readback, bytes, bytes);
    enc.copyBufferToBuffer(this.entropy, 0, this.readback, 2 * bytes, bytes);
    this.device.queue.submit([enc.finish()]);
    await this.readback.mapAsync(GPUMapMode.READ);
    const all = this.readback.getMappedRange().slice(0);
    this.readback.unmap();
    return {
      tokens: new Int32Array(all, 0, N * T),
      logp: new Float32Array(all, bytes, N * T),
      entropy: new Float32Array(all, 2 * bytes, N * T),
    };
  }
}
