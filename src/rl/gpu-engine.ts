// The WGSL engine: the PolicyEngine contract (./engine.ts) on a GPUDevice. Samplers and
// training plans are recorded once per shape (N × T) and replayed every step; the run's
// temperature and regulator (EngineSettings) are baked into the plans when they are built.

import type { ParamLayout } from '../model/layout';
import { GpuParams } from '../model/gpu-model';
import { GpuSampler } from '../model/gpu-sampler';
import { buildTrainPlans, type TrainPlans } from '../model/gpu-loss';
import { Plan } from '../model/gpu-plan';
import { createStorage, readF32, writeArray } from '../gpu/buffers';
import { diffNormOp, gradNormOp, defaultMatmulVariant, type MatmulVariant } from '../gpu/ops';
import { encodeBlock } from '../gpu/op-plumbing';
import { chooseMatmulVariant } from '../gpu/autotune';
import { watchUncapturedErrors, withGpuErrors } from '../gpu/gpu-errors';
import { gpuCallCounter, type GpuCallCounts } from '../gpu/call-counter';
import { ADAMW_BLOCK, CE_BLOCK, PG_BLOCK, PG_STATS, type SampleResult, type SampleTokenParams } from '../core/abi';
import {
  checkLength,
  checkOptimizerState,
  checkPassInputs,
  checkReference,
  nonFiniteSlots,
  PASS_INPUTS,
  tensorGroups,
  usesReference,
  type EngineSettings,
  type OptimizerState,
  type PassStats,
  type PolicyEngine,
  type TrainPass,
  type TrainResult,
} from './engine';

/** The kernel dispatches of an RL step of N × T, by phase (GpuEngine.dispatchBreakdown). */
export interface DispatchBreakdown {
  /** One decoded token (all N sequences). */
  samplePerToken: number;
  /** A sampling run: samplePerToken × (T − 1). */
  sampleRun: number;
  /** One policy-gradient training pass. */
  trainStep: number;
  /** The reference forward of a pass with the KL term (0 before the reference is taken). */
  reference: number;
  /** The per-group gradient norms, ‖θ‖ and ‖Δθ‖ read after the last pass. */
  statistics: number;
  /** The advantage estimator: it runs on the CPU. */
  estimator: number;
}

const STATS_ALIGN = 64; // floats (256 bytes) between per-pass records in the readback buffer

export class GpuEngine implements PolicyEngine {
  readonly kind = 'gpu';
  readonly model: GpuParams;
  private readonly samplers = new Map<string, GpuSampler>();
  private readonly plans = new Map<string, TrainPlans>();
  private refParams: GPUBuffer | null = null;
  private readonly backup: GPUBuffer; // [3P] params | m | v
  private readonly groups: ReturnType<typeof tensorGroups>;
  private readonly groupNormBuf: GPUBuffer; // [groups, 64] (256-byte slots)
  private readonly groupNormPlan: Plan;
  private readonly preUpdate: GPUBuffer; // [P] the weights before a train call
  private readonly weightNormsBuf: GPUBuffer; // [2, 64]: ‖θ‖ at 0, ‖θ − θ_before‖ at 256 bytes
  private readonly weightNormsPlan: Plan;
  private statsBuf: GPUBuffer | null = null; // MAP_READ, per-pass records
  private staging: GPUBuffer | null = null; // every pass's inputs of a train call, uploaded at once
  private checkpointPending = false; // checkpointState's copy, not yet recorded
  private statsFloats = 0;

  private readonly uncaptured: ReturnType<typeof watchUncapturedErrors>;

  /**
   * The engine with the matmul variant that is fastest on this adapter (timed once per device).
   * A failed allocation is a GpuError ("out of GPU memory while allocating …").
   */
  static async create(
    device: GPUDevice,
    layout: ParamLayout,
    initial: Float32Array,
    settings: EngineSettings,
  ): Promise<GpuEngine> {
    const { variant } = await chooseMatmulVariant(device);
    return withGpuErrors(
      device,
      `allocating a model of ${layout.numParams} parameters`,
      () => new GpuEngine(device, layout, initial, settings, variant),
    );
  }

  /**
   * Runs engine work in GPU error scopes: an invalid or failed allocation or command becomes a
   * GpuError naming `during`, instead of later work running on invalid buffers.
   */
  private guarded<T>(during: string, work: () => Promise<T>): Promise<T> {
    return withGpuErrors(this.device, during, async () => {
      const r = await work();
      this.uncaptured.check(during);
      return r;
    });
  }

  constructor(
    readonly device: GPUDevice,
    readonly layout: ParamLayout,
    initial: Float32Array,
    readonly settings: EngineSettings,
    readonly variant: MatmulVariant = defaultMatmulVariant(),
  ) {
    this.uncaptured = watchUncapturedErrors(device);
    this.model = new GpuParams(device, layout, initial);
    this.backup = createStorage(device, 3 * this.model.P * 4, 'state backup');
    this.groups = tensorGroups(layout);
    this.groupNormBuf = createStorage(device, this.groups.length * 256, 'group grad norms');
    this.groupNormPlan = new Plan();
    this.groups.forEach((g, i) => {
      this.groupNormPlan.dispatch(
        gradNormOp(
          device,
          { buffer: this.groupNormBuf, offset: i * 256, size: 8 },
          { buffer: this.model.grads, offset: g.offset * 4, size: g.size * 4 },
          g.size,
        ),
      );
    });
    const P = this.model.P;
    this.preUpdate = createStorage(device, P * 4, 'weights before update');
    this.weightNormsBuf = createStorage(device, 2 * 256, 'weight and update norms');
    this.weightNormsPlan = new Plan()
      .dispatch(gradNormOp(device, { buffer: this.weightNormsBuf, offset: 0, size: 8 }, this.model.params, P))
      .dispatch(
        diffNormOp(device, { buffer: this.weightNormsBuf, offset: 256, size: 8 }, this.model.params, this.preUpdate, P),
      );
  }

  private sampler(N: number, T: number): GpuSampler {
    const key = `${N}x${T}`;
    let s = this.samplers.get(key);
    if (!s) {
      s = new GpuSampler(this.device, this.layout, this.model, N, T, this.variant);
      this.samplers.set(key, s);
    }
    return s;
  }

  /** The plans for N × T (rebuilt once when the reference is first taken, to add its pass). */
  private trainPlans(N: number, T: number): TrainPlans {
    const key = `${N}x${T}`;
    let p = this.plans.get(key);
    if (!p) {
      const { invTemp, regulator } = this.settings;
      p = buildTrainPlans(this.device, this.layout, this.model, N, T, {
        invTemp,
        refParams: this.refParams,
        variant: this.variant,
        regulator,
      });
      this.plans.set(key, p);
    }
    return p;
  }

  /**
   * The kernel dispatches an RL step of N × T asks for, by phase: sampling (per decoded token
   * and per run of T−1 tokens), one training pass (the reference forward, when the KL term is
   * on, comes on top) and the statistics read after the last pass (per-group gradient norms,
   * ‖θ‖ and ‖Δθ‖). The advantage estimator runs on the CPU: 0 dispatches.
   */
  dispatchBreakdown(N: number, T: number): DispatchBreakdown {
    const s = this.sampler(N, T);
    const p = this.trainPlans(N, T);
    return {
      samplePerToken: s.dispatchesPerToken,
      sampleRun: s.dispatchesPerToken * (T - 1),
      trainStep: p.pgStep.dispatchCount,
      reference: p.reference?.dispatchCount ?? 0,
      statistics: this.groupNormPlan.dispatchCount + this.weightNormsPlan.dispatchCount,
      estimator: 0,
    };
  }

  /** What was asked of the device so far, where a call counter is installed on it (the page, the bench). */
  callCounts(): GpuCallCounts | null {
    return gpuCallCounter(this.device)?.counts() ?? null;
  }

  get hasReference(): boolean {
    return this.refParams !== null;
  }

  sample(fixed: Int32Array, N: number, T: number, params: SampleTokenParams): Promise<SampleResult> {
    return this.guarded(`sampling ${N} sequences × ${T} tokens`, async () => {
      const s = this.sampler(N, T);
      s.setTemplate(fixed);
      return s.sample(params);
    });
  }

  train(passes: TrainPass[], N: number, T: number): Promise<TrainResult> {
    return this.guarded(`training on ${N} sequences × ${T} tokens`, () => this.trainPasses(passes, N, T));
  }

  private async trainPasses(passes: TrainPass[], N: number, T: number): Promise<TrainResult> {
    checkPassInputs(passes, N, T);
    checkReference(passes, this.hasReference);
    const plans = this.trainPlans(N, T);
    const { device } = this;
    const perPass = Math.ceil((N + N * PG_STATS + 2) / STATS_ALIGN) * STATS_ALIGN;
    // per pass: seqLoss | stats | norm; then the group norms; then ‖θ‖ and ‖Δθ‖
    const normsAt = passes.length * perPass + this.groups.length * STATS_ALIGN;
    const need = normsAt + 2 * STATS_ALIGN;
    if (!this.statsBuf || this.statsFloats < need) {
      this.statsBuf?.destroy();
      this.statsFloats = need;
      this.statsBuf = device.createBuffer({
        label: 'train stats readback',
        size: need * 4,
        usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
      });
    }
    const stats = this.statsBuf;
    const { outputs } = plans;
    // Every pass's inputs go up in one write to a staging buffer, and each pass copies its own
    // into the plan's inputs inside the one command buffer: writing them straight into the
    // inputs would let pass 2's data overwrite pass 1's before the GPU ran pass 1.
    const staged = this.stagePasses(passes, N, T);
    const enc = device.createCommandEncoder({ label: 'train' });
    this.encodePendingCheckpoint(enc);
    enc.copyBufferToBuffer(this.model.params, 0, this.preUpdate, 0, this.model.P * 4);
    passes.forEach((pass, i) => {
      for (const c of staged.copies(i, plans)) enc.copyBufferToBuffer(staged.buffer, c.from, c.to, 0, c.bytes);
      if (usesReference(pass)) plans.reference!.encode(enc);
      (pass.loss.kind === 'pg' ? plans.pgStep : plans.sftStep).encode(enc);
      const base = i * perPass * 4;
      enc.copyBufferToBuffer(outputs.seqLoss, 0, stats, base, N * 4);
      enc.copyBufferToBuffer(outputs.stats, 0, stats, base + N * 4, N * PG_STATS * 4);
      enc.copyBufferToBuffer(outputs.norm, 0, stats, base + N * (1 + PG_STATS) * 4, 8);
    });
    this.groupNormPlan.encode(enc);
    const gBase = passes.length * perPass * 4;
    this.groups.forEach((_, g) =>
      enc.copyBufferToBuffer(this.groupNormBuf, g * 256, stats, gBase + g * STATS_ALIGN * 4, 8),
    );
    this.weightNormsPlan.encode(enc);
    enc.copyBufferToBuffer(this.weightNormsBuf, 0, stats, normsAt * 4, 8);
    enc.copyBufferToBuffer(this.weightNormsBuf, 256, stats, (normsAt + STATS_ALIGN) * 4, 8);
    device.queue.submit([enc.finish()]);
    await stats.mapAsync(GPUMapMode.READ, 0, need * 4);
    const all = new Float32Array(stats.getMappedRange(0, need * 4).slice(0));
    stats.unmap();
    const result: PassStats[] = passes.map((_, i) => {
      const o = i * perPass;
      return {
        seqLoss: all.slice(o, o + N),
        stats: all.slice(o + N, o + N + N * PG_STATS),
        gradNorm: all[o + N * (1 + PG_STATS)],
        nonFinite: all[o + N * (1 + PG_STATS) + 1] !== 0,
      };
    });
    const groupNorms: Record<string, number> = {};
    this.groups.forEach((g, i) => (groupNorms[g.name] = all[passes.length * perPass + i * STATS_ALIGN]));
    const norm = (at: number) => (all[at + 1] !== 0 ? NaN : all[at]);
    return { passes: result, groupNorms, weightNorm: norm(normsAt), updateNorm: norm(normsAt + STATS_ALIGN) };
  }

  /**
   * Lays out every pass's inputs and uniform records in one staging buffer (grown as needed),
   * uploaded with one queue write; `copies(i)` lists pass i's copies into the plan's buffers.
   */
  private stagePasses(passes: TrainPass[], N: number, T: number) {
    const rowBytes = N * T * 4;
    // Per pass: six [N,T] arrays, then the loss record and the AdamW record (copies need only 4-byte alignment).
    const lossAt = 6 * rowBytes;
    const adamAt = lossAt + Math.max(PG_BLOCK.hyperWords, CE_BLOCK.hyperWords) * 4;
    const perPass = adamAt + ADAMW_BLOCK.hyperWords * 4;
    const total = perPass * passes.length;
    if (!this.staging || this.staging.size < total) {
      this.staging?.destroy();
      this.staging = this.device.createBuffer({
        label: 'train inputs staging',
        size: total,
        usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
    }
    const bytes = new Uint8Array(total);
    passes.forEach((pass, i) => {
      const { data } = pass;
      const at = i * perPass;
      PASS_INPUTS.forEach((key, k) => {
        const a = data[key];
        bytes.set(new Uint8Array(a.buffer, a.byteOffset, rowBytes), at + k * rowBytes);
      });
      const loss =
        pass.loss.kind === 'pg'
          ? encodeBlock(PG_BLOCK, pass.loss.params)
          : encodeBlock(CE_BLOCK, { scale: pass.loss.scale });
      bytes.set(new Uint8Array(loss), at + lossAt);
      bytes.set(new Uint8Array(encodeBlock(ADAMW_BLOCK, pass.adam)), at + adamAt);
    });
    const buffer = this.staging;
    this.device.queue.writeBuffer(buffer, 0, bytes.buffer, 0, total);
    return {
      buffer,
      copies(i: number, plans: TrainPlans): { from: number; to: GPUBuffer; bytes: number }[] {
        const at = i * perPass;
        const pass = passes[i];
        const { inputs } = plans;
        return [
          ...[inputs.tokens, inputs.targets, inputs.oldLogp, inputs.adv, inputs.mask, inputs.klMask].map((to, k) => ({
            from: at + k * rowBytes,
            to,
            bytes: rowBytes,
          })),
          pass.loss.kind === 'pg'
            ? { from: at + lossAt, to: plans.pgParams, bytes: PG_BLOCK.hyperWords * 4 }
            : { from: at + lossAt, to: plans.ceParams, bytes: CE_BLOCK.hyperWords * 4 },
          { from: at + adamAt, to: plans.adamParams, bytes: ADAMW_BLOCK.hyperWords * 4 },
        ];
      },
    };
  }

  logProbs(tokens: Int32Array, targets: Int32Array, N: number, T: number): Promise<Float32Array> {
    return this.guarded(`scoring ${N} sequences × ${T} tokens`, async () => {
      const plans = this.trainPlans(N, T);
      writeArray(this.device, plans.inputs.tokens, tokens);
      writeArray(this.device, plans.inputs.targets, targets);
      const enc = this.device.createCommandEncoder();
      plans.logProbs.encode(enc);
      this.device.queue.submit([enc.finish()]);
      return readF32(this.device, plans.outputs.logp, N * T);
    });
  }

  syncReference(): Promise<void> {
    return this.guarded('copying the KL reference weights', () => this.copyReference());
  }

  private async copyReference(): Promise<void> {
    if (!this.refParams) {
      this.refParams = createStorage(this.device, this.model.P * 4, 'reference params');
      this.plans.clear(); // plans are rebuilt with the reference pass
    }
    const enc = this.device.createCommandEncoder();
    enc.copyBufferToBuffer(this.model.params, 0, this.refParams, 0, this.model.P * 4);
    this.device.queue.submit([enc.finish()]);
    await this.device.queue.onSubmittedWorkDone();
  }

  /**
   * The copy is recorded at the head of the engine's next command buffer (the train call's,
   * normally): one submit fewer per step. Until then nothing can change the state but the
   * engine's own writes, and those flush it first (flushCheckpoint).
   */
  async checkpointState(): Promise<void> {
    this.checkpointPending = true;
  }

  private encodePendingCheckpoint(enc: GPUCommandEncoder): void {
    if (!this.checkpointPending) return;
    this.checkpointPending = false;
    const bytes = this.model.P * 4;
    enc.copyBufferToBuffer(this.model.params, 0, this.backup, 0, bytes);
    enc.copyBufferToBuffer(this.model.m, 0, this.backup, bytes, bytes);
    enc.copyBufferToBuffer(this.model.v, 0, this.backup, 2 * bytes, bytes);
  }

  /** Submits a pending checkpoint copy before a queue write changes the state. */
  private flushCheckpoint(): void {
    if (!this.checkpointPending) return;
    const enc = this.device.createCommandEncoder({ label: 'checkpoint' });
    this.encodePendingCheckpoint(enc);
    this.device.queue.submit([enc.finish()]);
  }

  async restoreState(): Promise<void> {
    const bytes = this.model.P * 4;
    const enc = this.device.createCommandEncoder();
    this.encodePendingCheckpoint(enc);
    enc.copyBufferToBuffer(this.backup, 0, this.model.params, 0, bytes);
    enc.copyBufferToBuffer(this.backup, bytes, this.model.m, 0, bytes);
    enc.copyBufferToBuffer(this.backup, 2 * bytes, this.model.v, 0, bytes);
    this.device.queue.submit([enc.finish()]);
    await this.device.queue.onSubmittedWorkDone();
  }

  readParams(): Promise<Float32Array> {
    return this.model.readParams();
  }

  async loadParams(params: Float32Array): Promise<void> {
    this.flushCheckpoint();
    this.model.load(params);
  }

  async readOptimizerState(): Promise<OptimizerState> {
    const [m, v] = await Promise.all([
      readF32(this.device, this.model.m, this.model.P),
      readF32(this.device, this.model.v, this.model.P),
    ]);
    return { m, v };
  }

  async loadOptimizerState(state: OptimizerState): Promise<void> {
    checkOptimizerState(state, this.model.P);
    this.flushCheckpoint();
    writeArray(this.device, this.model.m, state.m);
    writeArray(this.device, this.model.v, state.v);
  }

  async readReference(): Promise<Float32Array | null> {
    return this.refParams ? readF32(this.device, this.refParams, this.model.P) : null;
  }

  async loadReference(params: Float32Array): Promise<void> {
    checkLength('loadReference', params, this.model.P);
    await this.copyReference(); // allocates the buffer and rebuilds the plans with a reference pass
    writeArray(this.device, this.refParams!, params);
  }

  async nonFiniteTensors(): Promise<string[]> {
    const [g, p] = await Promise.all([this.model.readGrads(), this.model.readParams()]);
    return nonFiniteSlots(this.layout, g, p);
  }

  destroy(): void {
    this.uncaptured.stop();
    this.model.destroy();
    this.refParams?.destroy();
    this.backup.destroy();
    this.preUpdate.destroy();
    this.weightNormsBuf.destroy();
    this.statsBuf?.destroy();
    this.staging?.destroy();
  }
}
