// The RLVR loop (DESIGN.md "Data flow of one RL step"): sample B prompts, sample G
// completions each on the engine, verify in JS, turn rewards into per-token advantages, and
// update the policy for μ epochs × minibatches. Everything the run does is decided by its
// RunConfig (src/config) and its seed, so the same config gives the same metrics.
//
// A step runs in phases (sample → verify → advantages → update) exposed as an async
// generator, so the UI can step one phase at a time; `step()` runs them all.

import type { RunConfig } from '../config/config';
import { modelConfigOf, taskParamsAtLevel, taskParamsOf } from '../config/config';
import { buildLayout, type ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { writeSafetensors } from '../model/safetensors';
import { makeRng, STREAM, type Rng } from '../core/random';
import { getTask } from '../tasks/registry';
import type { Task, TaskInstance, TaskParams } from '../tasks/types';
import type { MakeEngine, PolicyEngine, TrainPass } from './engine';
import { computeAdvantages, type AdvantageResult, type RolloutBatch } from './estimators';
import { advantageOptions, lossSettings, type LossSettings } from './settings';
import { MappPosterior } from './mapp';
import { aggregateTaskMetrics, passAtKCurve, stepMetrics, type Histogram } from './metrics';
import { applyOverlongShaping, informativeGroups } from './shaping';
import { unbiasedPassAtK } from './estimators-base';
import {
  buildTemplate, completionFacts, rolloutShape, rowArrays, sftArrays, sliceMinibatch, verifyBatch,
  type CompletionFacts, type RolloutShape, type VerifiedBatch,
} from './rollout';
import { DEFAULT_GUARD_LIMITS, DivergenceGuard, type FaultCheck, type GuardLimits, type UpdateObservation } from './divergence';
import type { ResumePoint, TrainerState } from './trainer-state';
import { levelRange } from '../config/checkpoint-run';
import { paramCount } from '../model/config';
import { CheckpointError } from '../model/safetensors-file';
import { PG_STAT, PG_STATS, type PgLossParams, type SampleResult } from '../core/abi';

export type Phase = 'sample' | 'verify' | 'advantages' | 'update';

/**
 * A fault the run cannot continue through: the weights (and optimiser state) from before the
 * step are kept. `check` says which check fired (src/rl/divergence.ts); `step` is 0 during the
 * SFT warm start.
 */
export class TrainingFault extends Error {
  constructor(readonly step: number, readonly tensors: string[], message: string, readonly check: FaultCheck = 'non-finite') {
    super(message);
    this.name = 'TrainingFault';
  }
}

export interface TrainerOptions {
  /** The divergence guard's limits; false turns it off (NaN/Inf faults are always caught). */
  guard?: Partial<GuardLimits> | false;
}

/** What the UI's rollout inspector shows of the latest step. */
export interface RolloutSnapshot {
  shape: RolloutShape;
  instances: TaskInstance[];
  /** [N,T] */
  tokens: Int32Array;
  /** [N·Lc] completion-space facts */
  facts: CompletionFacts;
  verified: VerifiedBatch;
  advantages?: AdvantageResult;
  /** [N·Lc] importance ratio π_new/π_old of each trained token after the update (1 where untrained); with collectRatios */
  ratio?: Float32Array;
  vocab: string[];
}

/** One line of metrics.jsonl. Scalars are TRL-named (METHODS.md); arrays are per position / histogram. */
export interface StepRecord {
  step: number;
  scalars: Record<string, number>;
  entropy_by_pos: number[];
  advantage_histogram: { counts: number[]; edges: number[] };
  /** Curriculum level (the value of curriculumParam) this step trained on. */
  level: number;
  eval?: EvalRecord;
}

export interface EvalRecord {
  step: number;
  level: number;
  prompts: number;
  /** Greedy (top-1) decoding. */
  'eval/pass@1_greedy': number;
  /** Unbiased pass@k over G samples at the training temperature, k = evalK. */
  'eval/pass@k': number;
  'eval/pass@1_sampled': number;
  k: number;
  /** Task metrics of the greedy completions (e.g. cot_alignment_prefix). */
  taskMetrics: Record<string, number>;
}

export interface StepPhase {
  phase: Phase;
  /** The partial snapshot after this phase (for phase-stepping views). */
  snapshot: RolloutSnapshot;
}

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class Trainer {
  readonly task: Task;
  readonly layout: ParamLayout;
  readonly vocab: string[];
  /** RL steps completed. */
  stepCount = 0;
  /** Optimiser updates applied (for AdamW bias correction and warm-up). */
  private optStep = 0;
  /** Current curriculum level (value of curriculumParam). */
  level: number;
  /** Entropy bonus α (moves when entropyTarget > 0). */
  alpha: number;
  private taskRng: Rng;
  private shuffleRng: Rng;
  /** SFT warm-start steps completed (a resumed run continues the warm start). */
  sftStepsDone = 0;
  private readonly guard: DivergenceGuard | null;
  /** Weights in the model (no padding): the scale of the divergence checks. */
  private readonly weightCount: number;
  private mapp: MappPosterior | null;
  private mappPool: TaskInstance[] = [];
  /** The config in the loss kernels' terms (the engine was built with its temperature and regulator). */
  private readonly settings: LossSettings;
  /** Completion positions c < klLimit get the KL term. */
  private klLimit = Infinity;
  /** Steps since the last curriculum advance (or the start). */
  private sinceAdvance = 0;
  private readonly heldOut = new Map<number, TaskInstance[]>();
  private evalCount = 0;
  latest: RolloutSnapshot | null = null;
  /** Score the batch again after the update to get each token's importance ratio (one extra forward; the inspector turns it on). */
  collectRatios = false;

  private constructor(readonly config: RunConfig, readonly engine: PolicyEngine, layout: ParamLayout, options: TrainerOptions) {
    this.task = getTask(config.task);
    this.settings = lossSettings(config);
    this.guard = options.guard === false ? null : new DivergenceGuard({ ...DEFAULT_GUARD_LIMITS, ...options.guard });
    this.weightCount = paramCount(layout.config);
    this.layout = layout;
    this.vocab = this.task.vocab(taskParamsOf(config));
    this.level = config.curriculum === 'off' ? Number(config[`task.${config.curriculumParam}`]) : config.curriculumStart;
    this.alpha = config.entropyAlpha;
    this.taskRng = makeRng(config.seed, STREAM.tasks);
    this.shuffleRng = makeRng(config.seed, STREAM.minibatch);
    this.mapp = config.estimator === 'mapp' ? new MappPosterior({ uncertaintyBonus: config.mappBonus }) : null;
  }

  /**
   * Builds the model from the config (seeded init), or takes given weights (a checkpoint),
   * and the engine that runs it. With `initial.resume` (weights, AdamW's moments, the KL
   * reference, step, level, random-stream positions: src/rl/trainer-state.ts) the run continues
   * where it stopped; the config may differ in its optimiser and loss knobs (lower lr after a fault).
   */
  static async create(
    config: RunConfig,
    makeEngine: MakeEngine,
    initial?: { layout: ParamLayout; params: Float32Array; resume?: ResumePoint },
    options: TrainerOptions = {},
  ): Promise<Trainer> {
    const needed = modelConfigOf(config);
    const layout = initial?.layout ?? buildLayout(needed);
    const have = layout.config;
    if (have.vocabSize < needed.vocabSize || have.nPositions < needed.nPositions) {
      throw new RangeError(
        `the model (vocab ${have.vocabSize}, positions ${have.nPositions}) is too small for this task configuration ` +
        `(vocab ${needed.vocabSize}, positions ${needed.nPositions})`);
    }
    const params = initial?.params ?? initParams(layout, config.seed);
    const engine = await makeEngine(layout, params, lossSettings(config));
    const t = new Trainer(config, engine, layout, options);
    await t.start();
    if (initial?.resume) {
      try {
        await t.resumeFrom(initial.resume);
      } catch (e) {
        engine.destroy();
        throw e;
      }
    }
    return t;
  }

  /** Restores a saved resume point (after start(), which drew the MaPP pool from the task stream). */
  private async resumeFrom(point: ResumePoint): Promise<void> {
    const s = point.state;
    const c = this.config;
    const [lo, hi] = levelRange(c);
    if (s.level < lo || s.level > hi) {
      throw new CheckpointError(`trainer state: level ${s.level} is outside this config's levels [${lo}, ${hi}] (curriculumStart, task.${c.curriculumParam})`);
    }
    if (s.stepCount > c.steps && c.steps > 0) {
      throw new CheckpointError(`trainer state: the run is at step ${s.stepCount}, past steps = ${c.steps}; raise --steps to continue it`);
    }
    if ((c.estimator === 'mapp') !== (s.mapp !== null)) {
      throw new CheckpointError(`trainer state: saved ${s.mapp ? 'with' : 'without'} a MaPP posterior, but this config's estimator is ${c.estimator}; the estimator cannot change on resume`);
    }
    await this.engine.loadOptimizerState(point.optimizer);
    if (point.reference && s.refReady) await this.engine.loadReference(point.reference);
    this.stepCount = s.stepCount;
    this.optStep = s.optStep;
    this.sftStepsDone = s.sftStepsDone;
    this.level = s.level;
    this.alpha = s.alpha;
    this.sinceAdvance = s.sinceAdvance;
    this.klLimit = s.klLimit ?? Infinity;
    this.evalCount = s.evalCount;
    this.taskRng = makeRng(c.seed, STREAM.tasks, s.taskRng);
    this.shuffleRng = makeRng(c.seed, STREAM.minibatch, s.shuffleRng);
    if (s.mapp && this.mapp) {
      // The posteriors saved; the options (mappBonus) of this config.
      try {
        this.mapp = MappPosterior.fromJSON({ options: this.mapp.options, posteriors: s.mapp.posteriors });
      } catch (e) {
        throw new CheckpointError(`trainer state: mapp: ${(e as Error).message}`);
      }
    }
    this.guard?.restore(s.guard);
  }

  /** Everything needed to continue this run later with the same results (with the weights: readParams). */
  async resumePoint(): Promise<ResumePoint> {
    const state: TrainerState = {
      stepCount: this.stepCount, optStep: this.optStep, sftStepsDone: this.sftStepsDone, level: this.level,
      alpha: this.alpha, sinceAdvance: this.sinceAdvance, refReady: this.engine.hasReference,
      klLimit: Number.isFinite(this.klLimit) ? this.klLimit : null, evalCount: this.evalCount,
      taskRng: this.taskRng.position(), shuffleRng: this.shuffleRng.position(),
      mapp: this.mapp ? this.mapp.toJSON() : null, guard: [...(this.guard?.recent ?? [])],
    };
    const [optimizer, reference] = await Promise.all([this.engine.readOptimizerState(), this.engine.readReference()]);
    return { state, optimizer, reference };
  }

  /** SFT warm-start steps still to run (sftSteps, less those a resumed run has done). */
  get sftStepsRemaining(): number {
    return Math.max(0, this.config.sftSteps - this.sftStepsDone);
  }

  private async start(): Promise<void> {
    const c = this.config;
    // The KL reference is taken lazily: at the first RL step for refSync 'none' (the initial or
    // warm-started weights) and 'every' (then re-synced), at each advance for 'curriculum'.
    if (this.mapp) {
      const params = this.taskParams();
      for (let i = 0; i < c.mappPool; i++) this.mappPool.push(this.task.sample(this.taskRng, params));
    }
  }

  taskParams(level = this.level): TaskParams {
    return this.config.curriculum === 'off' ? taskParamsOf(this.config) : taskParamsAtLevel(this.config, level);
  }

  private lrAt(optStep: number, base: number): number {
    const w = this.config.warmupSteps;
    return w > 0 ? base * Math.min(1, optStep / w) : base;
  }

  // ── prompts ──────────────────────────────────────────────────────────────────────────

  private samplePrompts(B: number): TaskInstance[] {
    if (this.mapp) {
      const keys = this.mappPool.map((_, i) => String(i));
      return this.mapp.selectPrompts(this.taskRng, Math.min(B, keys.length), keys).map((k) => this.mappPool[Number(k)]);
    }
    const params = this.taskParams();
    return Array.from({ length: B }, () => this.task.sample(this.taskRng, params));
  }

  private promptKey(inst: TaskInstance): string {
    if (this.mapp) return String(this.mappPool.indexOf(inst));
    return inst.promptText;
  }

  // ── SFT warm start ───────────────────────────────────────────────────────────────────

  /**
   * Supervised steps on the task's own correct completions; returns the mean loss per step.
   * `shouldStop` is asked before each step (Ctrl-C during a long warm start) and `onStep` told
   * after each (sftStepsDone, loss); the steps done are counted in sftStepsDone, so a saved run
   * continues the warm start where it stopped.
   */
  async warmStart(
    steps = this.sftStepsRemaining,
    opts: { shouldStop?: () => boolean; onStep?: (done: number, loss: number) => void } = {},
  ): Promise<number[]> {
    const c = this.config;
    const losses: number[] = [];
    for (let i = 0; i < steps; i++) {
      if (opts.shouldStop?.()) break;
      const instances = this.samplePrompts(c.batchPrompts * c.groupSize);
      const s = rolloutShape(instances, 1);
      const data = sftArrays(instances, s);
      const count = data.mask.reduce((a, b) => a + b, 0);
      this.optStep++;
      const lr = this.lrAt(this.optStep, c.sftLr);
      const where = `warm-start step ${this.sftStepsDone + 1}`;
      await this.engine.checkpointState();
      const res = await this.engine.train([{
        data,
        loss: { kind: 'sft', scale: count > 0 ? 1 / count : 0 },
        adam: this.adamParams(lr),
      }], s.N, s.T);
      const p = res.passes[0];
      if (p.nonFinite || !p.seqLoss.every(Number.isFinite)) {
        const tensors = await this.engine.nonFiniteTensors();
        await this.engine.restoreState();
        this.optStep--;
        throw new TrainingFault(0, tensors, `${where}: non-finite ${p.nonFinite ? 'gradient' : 'loss'}` +
          (tensors.length ? ` (tensors: ${tensors.slice(0, 4).join(', ')}${tensors.length > 4 ? ', …' : ''})` : '') +
          '; the weights from before this step are kept. Lower sftLr and continue.');
      }
      await this.guardUpdate({ updateNorm: res.updateNorm, weightNorm: res.weightNorm, lrSum: lr, count: this.weightCount }, 0, where, 1, 'sftLr');
      this.sftStepsDone++;
      const loss = p.seqLoss.reduce((a, b) => a + b, 0);
      losses.push(loss);
      opts.onStep?.(this.sftStepsDone, loss);
    }
    return losses;
  }

  /**
   * Runs the divergence checks on an update that has been applied; on a failure rolls it back
   * (the engine's checkpointState from before it) and throws the fault, naming the tensors that
   * moved most. `lrKnob` names the knob to lower in the message.
   */
  private async guardUpdate(o: UpdateObservation, step: number, where: string, passes: number, lrKnob: 'lr' | 'sftLr'): Promise<void> {
    if (!this.guard) return;
    const verdict = this.guard.check(o);
    if (!verdict) {
      this.guard.accept(o);
      return;
    }
    const after = await this.engine.readParams();
    await this.engine.restoreState();
    this.optStep -= passes;
    const before = await this.engine.readParams();
    const moved = this.layout.slots
      .map((sl) => {
        let d = 0;
        for (let i = sl.offset; i < sl.offset + sl.size; i++) d += (after[i] - before[i]) ** 2;
        return { name: sl.name, d: Number.isFinite(d) ? d : Infinity };
      })
      .sort((a, b) => b.d - a.d)
      .slice(0, 4)
      .map((x) => x.name);
    throw new TrainingFault(step, moved,
      `${where}: divergence (${verdict.check}): ${verdict.detail} (tensors that moved most: ${moved.join(', ')}); ` +
      `the weights from before this step are kept. Lower the learning rate (${lrKnob}) and continue from the last good checkpoint.`,
      verdict.check);
  }

  private adamParams(lr: number) {
    const c = this.config;
    return { lr, beta1: c.beta1, beta2: c.beta2, eps: c.adamEps, weightDecay: c.weightDecay, step: this.optStep, maxGradNorm: c.maxGradNorm };
  }

  // ── one RL step, in phases ───────────────────────────────────────────────────────────

  /** Runs one whole step and returns its metrics. */
  async step(): Promise<StepRecord> {
    let record: StepRecord | undefined;
    for await (const p of this.stepPhases()) if ('record' in p) record = p.record;
    return record!;
  }

  async *stepPhases(): AsyncGenerator<StepPhase | { record: StepRecord }> {
    const c = this.config;
    const G = c.groupSize;
    const stepIndex = this.stepCount;
    const t0 = now();
    if (c.klBeta > 0 && !this.engine.hasReference && c.refSync !== 'curriculum') {
      await this.engine.syncReference();
      this.klLimit = Infinity;
    }

    // sample (with DAPO dynamic sampling: keep informative groups, resample up to a bound)
    const tries = c.dynamicSampling ? c.dynamicMaxTries : 1;
    let kept: { inst: TaskInstance; sample: SampleResult; shape: RolloutShape; b: number }[] = [];
    let spare: typeof kept = [];
    let sampledTokens = 0;
    let verifyMs = 0;
    let sampleMs = 0;
    for (let attempt = 0; attempt < tries && kept.length < c.batchPrompts; attempt++) {
      const instances = this.samplePrompts(c.batchPrompts);
      const shape = rolloutShape(instances, G);
      const ts = now();
      const sample = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
        seed: c.seed >>> 0, step: (stepIndex * tries + attempt) >>> 0, invTemp: this.settings.invTemp, topK: c.topK,
      });
      sampleMs += now() - ts;
      sampledTokens += shape.N * (shape.T - 1);
      if (!c.dynamicSampling) {
        kept = instances.map((inst, b) => ({ inst, sample, shape, b }));
        break;
      }
      const tv = now();
      const v = verifyBatch(this.task, instances, sample.tokens, shape);
      verifyMs += now() - tv;
      const informative = informativeGroups(v.rewards, shape.B, G);
      instances.forEach((inst, b) => (informative[b] ? kept : spare).push({ inst, sample, shape, b }));
    }
    while (kept.length < c.batchPrompts && spare.length) kept.push(spare.shift()!);
    kept = kept.slice(0, c.batchPrompts);
    const instances = kept.map((k) => k.inst);
    const shape = rolloutShape(instances, G);
    // Gather the kept groups' rows into one batch.
    const tokens = new Int32Array(shape.N * shape.T);
    const logp = new Float32Array(shape.N * shape.T);
    const entropy = new Float32Array(shape.N * shape.T);
    kept.forEach((k, b) => {
      const from = k.b * G * shape.T, len = G * shape.T, to = b * G * shape.T;
      tokens.set(k.sample.tokens.subarray(from, from + len), to);
      logp.set(k.sample.logp.subarray(from, from + len), to);
      entropy.set(k.sample.entropy.subarray(from, from + len), to);
    });
    const sample = { tokens, logp, entropy };
    if (!logp.every(Number.isFinite) || !entropy.every(Number.isFinite)) {
      const tensors = await this.engine.nonFiniteTensors();
      throw new TrainingFault(stepIndex + 1, tensors,
        `step ${stepIndex + 1}: non-finite log-probabilities while sampling` +
        (tensors.length ? ` (non-finite weights in ${tensors.slice(0, 4).join(', ')}${tensors.length > 4 ? ', …' : ''})` : '') +
        '; the weights from before this step are kept. Load a checkpoint or reset, and lower the learning rate (lr).');
    }
    const facts = completionFacts(sample, instances, shape, c.maskTruncated);
    const snapshot: RolloutSnapshot = {
      shape, instances, tokens, facts, vocab: this.vocab,
      verified: { rewards: new Float64Array(shape.N), correct: new Uint8Array(shape.N), signatures: [], errorSignatures: [], groupMetrics: [] },
    };
    this.latest = snapshot;
    yield { phase: 'sample', snapshot };

    // verify
    const tv = now();
    const verified = verifyBatch(this.task, instances, tokens, shape);
    verifyMs += now() - tv;
    snapshot.verified = verified;
    yield { phase: 'verify', snapshot };

    // advantages
    const ta = now();
    let rewards = verified.rewards;
    if (c.overlongBuffer > 0) rewards = applyOverlongShaping(rewards, facts.lengths, shape.Lc, c.overlongBuffer);
    const batch: RolloutBatch = {
      B: shape.B, G, T: shape.Lc, rewards, correct: verified.correct, mask: facts.mask, entropy: facts.entropy,
      lengths: facts.lengths, signatures: verified.signatures, errorSignatures: verified.errorSignatures,
      promptKeys: instances.map((i) => this.promptKey(i)),
    };
    const adv = computeAdvantages(batch, advantageOptions(c), this.mapp ?? undefined);
    this.mapp?.observeBatch(batch.promptKeys, batch.correct, G);
    // The "sampled" entropy regulator: a REINFORCE estimate of the entropy gradient, i.e. add
    // α·(−log π(y_t)) to each trained token's advantage (METHODS.md, entropy regulators).
    const trainAdv = adv.adv.slice();
    if (this.settings.alphaIn === 'advantages' && this.alpha !== 0) {
      for (let j = 0; j < trainAdv.length; j++) if (adv.tokenMask[j]) trainAdv[j] += this.alpha * -facts.logp[j];
    }
    snapshot.advantages = adv;
    const advMs = now() - ta;
    yield { phase: 'advantages', snapshot };

    // update: μ epochs × minibatches over the N sequences, shuffled per epoch
    const tu = now();
    const klLimit = Math.min(this.klLimit, shape.Lc);
    const all = rowArrays(tokens, shape, trainAdv, adv.tokenMask, facts.logp, klLimit);
    const mbCount = c.minibatches;
    const mbSize = Math.floor(shape.N / mbCount);
    const passes: TrainPass[] = [];
    const useRef = c.klBeta > 0 && this.engine.hasReference;
    for (let e = 0; e < c.epochs; e++) {
      const order = shuffle(this.shuffleRng, shape.N);
      for (let m = 0; m < mbCount; m++) {
        const data = sliceMinibatch(all, shape.T, order, m * mbSize, (m + 1) * mbSize);
        const tokensInMb = data.mask.reduce((a, b) => a + b, 0);
        const { epsLow, epsHigh, dualClip, klKind, aggregation, klBeta, alphaIn } = this.settings;
        const loss: PgLossParams = {
          epsLow, epsHigh, dualClip, klKind, aggregation,
          beta: useRef ? klBeta : 0,
          alpha: alphaIn === 'loss' ? this.alpha : 0,
          maxLen: shape.Lc,
          totalTokens: Math.max(1, tokensInMb), totalSeqs: mbSize,
        };
        this.optStep++;
        passes.push({ data, loss: { kind: 'pg', params: loss }, adam: this.adamParams(this.lrAt(this.optStep, c.lr)) });
      }
    }
    await this.engine.checkpointState();
    const result = await this.engine.train(passes, mbSize, shape.T);
    const updateMs = now() - tu;

    // faults: a non-finite gradient or loss rolls the step back and stops the run
    const badPass = result.passes.findIndex((p) => p.nonFinite || !p.seqLoss.every(Number.isFinite));
    if (badPass >= 0) {
      // Replay up to the faulty pass to read its gradient and name the tensors, then roll back.
      await this.engine.restoreState();
      await this.engine.train(passes.slice(0, badPass + 1), mbSize, shape.T);
      const tensors = await this.engine.nonFiniteTensors();
      await this.engine.restoreState();
      this.optStep -= passes.length;
      throw new TrainingFault(stepIndex + 1, tensors,
        `step ${stepIndex + 1}: non-finite ${result.passes[badPass].nonFinite ? 'gradient' : 'loss'} in pass ${badPass + 1}` +
        (tensors.length ? ` (tensors: ${tensors.slice(0, 4).join(', ')}${tensors.length > 4 ? ', …' : ''})` : '') +
        '; the weights from before this step are kept. Lower the learning rate (lr) and continue.');
    }
    const lrSum = passes.reduce((a, p) => a + p.adam.lr, 0);
    await this.guardUpdate({ updateNorm: result.updateNorm, weightNorm: result.weightNorm, lrSum, count: this.weightCount },
      stepIndex + 1, `step ${stepIndex + 1}`, passes.length, 'lr');

    // metrics
    const m = stepMetrics(batch, adv, facts.truncated);
    const scalars: Record<string, number> = { ...m.scalars };
    let loss = 0, count = 0, clipLow = 0, clipHigh = 0, ratioSum = 0, ratioMax = 0, kl = 0, dual = 0;
    for (const p of result.passes) {
      loss += p.seqLoss.reduce((a, b) => a + b, 0);
      for (let n = 0; n < mbSize; n++) {
        const s = p.stats.subarray(n * PG_STATS, (n + 1) * PG_STATS);
        count += s[PG_STAT.count]; clipLow += s[PG_STAT.clippedLow]; clipHigh += s[PG_STAT.clippedHigh];
        ratioSum += s[PG_STAT.sumRatio]; ratioMax = Math.max(ratioMax, s[PG_STAT.maxRatio]);
        kl += s[PG_STAT.sumKl]; dual += s[PG_STAT.dualClipped];
      }
    }
    const per = (x: number) => (count > 0 ? x / count : 0);
    Object.assign(scalars, {
      loss: loss / result.passes.length,
      // The kernel sums k3 against whatever refLogp holds; without a reference that is no KL.
      kl: useRef ? per(kl) : 0,
      'clip_ratio/low_mean': per(clipLow),
      'clip_ratio/high_mean': per(clipHigh),
      'clip_ratio/region_mean': per(clipLow + clipHigh),
      'clip_ratio/dual_mean': per(dual),
      'ratio/mean': per(ratioSum),
      'ratio/max': ratioMax,
      grad_norm: result.passes[result.passes.length - 1].gradNorm,
      update_norm: result.updateNorm,
      weight_norm: result.weightNorm,
      entropy_alpha: this.alpha,
      level: this.level,
      'time/sample_ms': sampleMs,
      'time/verify_ms': verifyMs,
      'time/advantages_ms': advMs,
      'time/update_ms': updateMs,
      'time/step_ms': now() - t0,
      'tokens_per_s': sampledTokens / Math.max(1e-9, sampleMs / 1000),
    });
    for (const [g, v] of Object.entries(result.groupNorms)) scalars[`grad_norm/${g}`] = v;
    if (this.collectRatios) {
      const newLogp = await this.engine.logProbs(all.tokens, all.targets, shape.N, shape.T);
      snapshot.ratio = completionRatios(newLogp, all, shape);
    }
    Object.assign(scalars, prefixKeys('task/', aggregateTaskMetrics(verified.groupMetrics)));

    this.stepCount++;
    this.afterStep(scalars);
    const record: StepRecord = {
      step: this.stepCount,
      scalars,
      entropy_by_pos: Array.from(m.entropy_by_pos),
      advantage_histogram: histToJson(m.advantage_histogram),
      level: Number(scalars.level),
    };
    await this.maintain(record);
    yield { phase: 'update', snapshot };
    yield { record };
  }

  /** Adaptive entropy bonus: move α by a fixed step toward holding the mean entropy at the target. */
  private afterStep(s: Record<string, number>): void {
    const c = this.config;
    if (c.entropyTarget > 0) {
      this.alpha = Math.max(0, this.alpha + (s.entropy < c.entropyTarget ? c.entropyAlphaStep : -c.entropyAlphaStep));
    }
  }

  /** Curriculum advance (with the reference re-sync it may trigger), periodic re-sync, eval. */
  private async maintain(record: StepRecord): Promise<void> {
    const c = this.config;
    const final = Number(c[`task.${c.curriculumParam}`]);
    this.sinceAdvance++;
    if (c.curriculum === 'pass-rate' && this.level < final && this.sinceAdvance >= c.curriculumWindow) {
      this.sinceAdvance = 0;
      // The probe's criterion: greedy pass@1 on the level's held-out prompts.
      const rate = await this.greedyPassRate(this.level);
      record.scalars['curriculum/greedy_pass@1'] = rate;
      if (rate >= c.curriculumTarget) {
        const prevLc = this.task.shape(this.taskParams()).completionLength;
        this.level++;
        record.scalars['curriculum/advanced'] = 1;
        if (c.refSync === 'curriculum' && c.klBeta > 0) {
          // Anchor: snapshot the policy that solved the previous level; leave the positions the
          // new level added (completion positions ≥ the old EOS position) free of KL.
          await this.engine.syncReference();
          this.klLimit = c.klMaskNew ? prevLc - 1 : Infinity;
        }
      }
    }
    if (c.refSync === 'every' && c.klBeta > 0 && c.refSyncEvery > 0 && this.stepCount % c.refSyncEvery === 0) {
      await this.engine.syncReference();
    }
    if (c.evalEvery > 0 && this.stepCount % c.evalEvery === 0) record.eval = await this.evaluate();
  }

  /** Greedy pass@1 on the held-out prompts of a level. */
  async greedyPassRate(level = this.level): Promise<number> {
    const instances = this.heldOutPrompts(level);
    const shape = rolloutShape(instances, 1);
    const greedy = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T,
      { seed: this.config.seed >>> 0, step: 0x7fffffff, invTemp: 1, topK: 1 });
    const v = verifyBatch(this.task, instances, greedy.tokens, shape);
    return v.correct.reduce((a, b) => a + b, 0) / instances.length;
  }

  // ── held-out evaluation ──────────────────────────────────────────────────────────────

  /**
   * The fixed held-out prompts of a level (their own random stream, never trained on by design).
   * A larger `count` extends the same list: the first evalPrompts prompts are always the same.
   */
  heldOutPrompts(level = this.level, count = this.config.evalPrompts): TaskInstance[] {
    let set = this.heldOut.get(level);
    if (!set || set.length < count) {
      const rng = makeRng(this.config.seed, STREAM.heldOut + 1000 * level);
      const params = this.taskParams(level);
      set = Array.from({ length: count }, () => this.task.sample(rng, params));
      this.heldOut.set(level, set);
    }
    return set.length === count ? set : set.slice(0, count);
  }

  /**
   * Greedy pass@1 and sampled pass@k (k = evalK over G samples) on the first `count` held-out
   * prompts of a level.
   */
  async evaluate(level = this.level, count = this.config.evalPrompts): Promise<EvalRecord> {
    const c = this.config;
    const instances = this.heldOutPrompts(level, count);
    const key = (0x40000000 + this.evalCount++) >>> 0;
    const greedyShape = rolloutShape(instances, 1);
    const greedy = await this.engine.sample(buildTemplate(instances, greedyShape), greedyShape.N, greedyShape.T,
      { seed: c.seed >>> 0, step: key, invTemp: 1, topK: 1 });
    const gv = verifyBatch(this.task, instances, greedy.tokens, greedyShape);
    const G = c.groupSize;
    const shape = rolloutShape(instances, G);
    const sampled = await this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T,
      { seed: c.seed >>> 0, step: key, invTemp: this.settings.invTemp, topK: c.topK });
    const sv = verifyBatch(this.task, instances, sampled.tokens, shape);
    const k = Math.min(c.evalK, G);
    let passK = 0;
    for (let b = 0; b < shape.B; b++) {
      let correct = 0;
      for (let g = 0; g < G; g++) correct += sv.correct[b * G + g];
      passK += unbiasedPassAtK(G, correct, k);
    }
    const curve = passAtKCurve(sv.correct, shape.B, G);
    return {
      step: this.stepCount, level, prompts: instances.length,
      'eval/pass@1_greedy': gv.correct.reduce((a, b) => a + b, 0) / instances.length,
      'eval/pass@k': passK / shape.B,
      'eval/pass@1_sampled': curve[0],
      k,
      taskMetrics: aggregateTaskMetrics(gv.groupMetrics),
    };
  }

  // ── checkpoints ──────────────────────────────────────────────────────────────────────

  /** The current weights [numParams], in the layout's order. */
  readParams(): Promise<Float32Array> {
    return this.engine.readParams();
  }

  /** The weights (read from the engine unless given) as a .safetensors file with the run config. */
  async checkpoint(params?: Float32Array): Promise<Uint8Array> {
    params ??= await this.engine.readParams();
    return writeSafetensors(this.layout, params, this.vocab, { ...this.config, trainedSteps: this.stepCount, level: this.level });
  }

  destroy(): void {
    this.engine.destroy();
  }
}

/** π_new/π_old per completion position [N·Lc] from row-space log-probs; 1 where not trained. */
export function completionRatios(newLogp: Float32Array, rows: { oldLogp: Float32Array; mask: Float32Array }, s: RolloutShape): Float32Array {
  const ratio = new Float32Array(s.N * s.Lc).fill(1);
  for (let n = 0; n < s.N; n++) {
    for (let c = 0; c < s.Lc; c++) {
      const r = n * s.T + s.Lp + c - 1;
      if (rows.mask[r]) ratio[n * s.Lc + c] = Math.exp(newLogp[r] - rows.oldLogp[r]);
    }
  }
  return ratio;
}

function shuffle(rng: Rng, n: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function prefixKeys(prefix: string, o: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(o)) out[prefix + k] = v;
  return out;
}

function histToJson(h: Histogram): { counts: number[]; edges: number[] } {
  return { counts: Array.from(h.counts), edges: Array.from(h.edges) };
}
