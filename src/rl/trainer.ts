// The RLVR loop (docs/architecture.md, "One RL step, from a knob to a chart"): sample B
// prompts, sample G completions each on the engine, verify in JS, turn rewards into per-token
// advantages, and update the policy for μ epochs × minibatches. Everything the run does is
// decided by its RunConfig (src/config) and its seed, so the same config gives the same metrics.
//
// A step runs in phases (sample → verify → advantages → update) exposed as an async
// generator, so the page can step one phase at a time; `step()` runs them all. A run starts or
// continues in Trainer.create and goes on in run() (docs/architecture.md, "A run's lifecycle").

import type { RunConfig } from '../config/config';
import { curriculumLevels, modelConfigOf, taskParamsAtLevel, taskParamsOf } from '../config/config';
import { buildLayout, type ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { writeSafetensors } from '../model/safetensors';
import { makeRng, STREAM, type Rng } from '../core/random';
import { getTask } from '../tasks/registry';
import type { Task, TaskInstance, TaskParams } from '../tasks/types';
import type { MakeEngine, MinibatchData, PolicyEngine, TrainPass, TrainResult } from './engine';
import { advantagesFromBase, computeAdvantages, type AdvantageOptions, type AdvantageResult, type RolloutBatch } from './estimators';
import { disposeRunCode, loadRunCode, type RunCode } from './custom/custom-code';
import { CustomCodeError, type CodeLocation } from './custom/errors';
import { estimatorInput, estimatorLengths, rewardFacts, rewardInput } from './custom/interface';
import type { SandboxFactory } from './custom/sandbox';
import { advantageOptions, lossSettings, type LossSettings } from './settings';
import { MappPosterior } from './mapp';
import {
  aggregateTaskMetrics, passAtKCurve, passMetrics, prefixKeys, stepMetrics, stepRecord, type EvalRecord, type Phase, type StepRecord,
} from './metrics';
import { applyOverlongShaping, informativeGroups } from './shaping';
import { unbiasedPassAtK } from './estimators-base';
import {
  buildTemplate, completionFacts, gatherGroups, rolloutShape, rowArrays, sftArrays, sliceMinibatch, verifyBatch,
  type CompletionFacts, type RolloutShape, type SampledGroup, type VerifiedBatch,
} from './rollout';
import { DEFAULT_GUARD_LIMITS, DivergenceGuard, type FaultCheck, type GuardLimits } from './divergence';
import type { ResumePoint, TrainerState } from './trainer-state';
import { checkpointRunConfig } from '../config/checkpoint-run';
import { paramCount } from '../model/config';
import { CheckpointError } from '../model/safetensors-file';
import type { AdamwParams, PgLossParams } from '../core/abi';

/**
 * A fault the run cannot continue through: the weights (and optimiser state) from before the
 * step are kept. `check` says which check fired (src/rl/divergence.ts); `step` is 0 during the
 * SFT warm start.
 */
export class TrainingFault extends Error {
  constructor(
    readonly step: number, readonly tensors: string[], message: string, readonly check: FaultCheck | 'custom-code' = 'non-finite',
    /** For a fault of the run's own code: which code, and the line to mark. */
    readonly code?: CodeLocation,
  ) {
    super(message);
    this.name = 'TrainingFault';
  }
}

/** Where a run stands when its checkpoint carries no trainer state: the page's checkpoints (weights and run config). */
export interface RunPosition {
  /** RL steps the weights have been trained for. */
  step: number;
  level: number;
}

/** How a trainer starts: fresh from the config's seed, or from given weights, continuing a run. */
export interface TrainerOptions {
  /** Weights to start from (a checkpoint) instead of the config's seeded init. */
  initial?: { layout: ParamLayout; params: Float32Array };
  /**
   * The run `initial` belongs to: a resume point (AdamW's moments, the KL reference, counters and
   * random streams: src/rl/trainer-state.ts), and the run goes on exactly as if it had not
   * stopped; or only its position, and the run goes on from that step and level with a fresh
   * optimiser. Weights given without a resume point, or with a position, are past the warm start.
   */
  resume?: ResumePoint | RunPosition;
  /** The divergence guard's limits; false turns it off (NaN/Inf faults are always caught). */
  guard?: Partial<GuardLimits> | false;
  /** Where the config's own code runs (src/rl/custom); needed only when it has some. */
  sandbox?: SandboxFactory;
}

/** What the warm start did (the line rlvr train writes to metrics.jsonl before step 1's). */
export interface WarmStartSummary {
  /** Steps run now. */
  steps: number;
  /** Steps done in all (a resumed warm start counts the earlier ones). */
  done: number;
  of: number;
  firstLoss: number | undefined;
  lastLoss: number | undefined;
}

/** What run() yields: the warm start once (when it ran), then every step's record. */
export type RunEvent = { warmStart: WarmStartSummary } | { record: StepRecord };

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
  private steps = 0;
  /** Optimiser updates applied (for AdamW bias correction and warm-up). */
  private optStep = 0;
  private currentLevel: number;
  /** Entropy bonus α (moves when entropyTarget > 0). */
  alpha: number;
  private taskRng: Rng;
  private shuffleRng: Rng;
  private sftDone = 0;
  private readonly guard: DivergenceGuard | null;
  /** Weights in the model (no padding): the scale of the divergence checks. */
  private readonly weightCount: number;
  private mapp: MappPosterior | null;
  private mappPool: TaskInstance[] = [];
  /** The config in the loss kernels' terms (the engine was built with its temperature and regulator). */
  private readonly settings: LossSettings;
  private readonly advantages: AdvantageOptions;
  /** Completion positions c < klLimit get the KL term. */
  private klLimit = Infinity;
  /** Steps since the last curriculum advance (or the start). */
  private sinceAdvance = 0;
  private readonly heldOut = new Map<number, TaskInstance[]>();
  private evalCount = 0;
  latest: RolloutSnapshot | null = null;
  /** Score the batch again after the update to get each token's importance ratio (one extra forward; the inspector turns it on). */
  collectRatios = false;
  /** The config's own estimator and reward shaping, loaded once (src/rl/custom). */
  private code: RunCode = {};

  private constructor(readonly config: RunConfig, readonly engine: PolicyEngine, layout: ParamLayout, settings: LossSettings, options: TrainerOptions) {
    this.task = getTask(config.task);
    this.settings = settings;
    this.advantages = advantageOptions(config);
    this.guard = options.guard === false ? null : new DivergenceGuard({ ...DEFAULT_GUARD_LIMITS, ...options.guard });
    this.weightCount = paramCount(layout.config);
    this.layout = layout;
    this.vocab = this.task.vocab(taskParamsOf(config));
    this.currentLevel = curriculumLevels(config)[0];
    this.alpha = config.entropyAlpha;
    this.taskRng = makeRng(config.seed, STREAM.tasks);
    this.shuffleRng = makeRng(config.seed, STREAM.minibatch);
    this.mapp = config.estimator === 'mapp' ? new MappPosterior({ uncertaintyBonus: config.mappBonus }) : null;
  }

  /**
   * The one way a run starts or continues (the CLI, the worker and the bench all come here):
   * builds the model from the config's seed or takes `initial` weights, makes the engine that
   * runs it, and restores where the run stands (`resume`). A resumed config may differ from the
   * saved one in its optimiser and loss knobs (a lower lr after a fault), not in its seed, task
   * or model. What is left of the warm start is sftStepsRemaining; run() or warmStart() does it.
   */
  static async create(config: RunConfig, makeEngine: MakeEngine, options: TrainerOptions = {}): Promise<Trainer> {
    const { initial, resume } = options;
    if (resume && 'state' in resume && !initial) throw new RangeError('a resume point needs the weights it was saved with (initial)');
    const needed = modelConfigOf(config);
    const layout = initial?.layout ?? buildLayout(needed);
    const have = layout.config;
    if (have.vocabSize < needed.vocabSize || have.nPositions < needed.nPositions) {
      throw new RangeError(
        `the model (vocab ${have.vocabSize}, positions ${have.nPositions}) is too small for this task configuration ` +
        `(vocab ${needed.vocabSize}, positions ${needed.nPositions})`);
    }
    const params = initial?.params ?? initParams(layout, config.seed);
    const settings = lossSettings(config);
    // The run's own code first: a syntax error is refused before any GPU memory is taken.
    const code = await loadRunCode(config, options.sandbox);
    let engine: PolicyEngine;
    try {
      engine = await makeEngine(layout, params, settings);
    } catch (e) {
      disposeRunCode(code);
      throw e;
    }
    const t = new Trainer(config, engine, layout, settings, options);
    t.code = code;
    t.drawMappPool();
    try {
      if (resume && 'state' in resume) await t.resumeFrom(resume);
      else {
        // A checkpoint's weights, or its place in its run: the warm start is behind them.
        if (initial || resume) t.sftDone = config.sftSteps;
        if (resume) [t.steps, t.currentLevel] = [resume.step, resume.level];
      }
    } catch (e) {
      t.destroy();
      throw e;
    }
    return t;
  }

  /** RL steps completed. */
  get stepCount(): number {
    return this.steps;
  }

  /** The curriculum level the next step trains on (the value of curriculumParam). */
  get level(): number {
    return this.currentLevel;
  }

  /** SFT warm-start steps completed (a resumed run continues the warm start). */
  get sftStepsDone(): number {
    return this.sftDone;
  }

  /** Restores a saved resume point (after the MaPP pool was drawn from the task stream). */
  private async resumeFrom(point: ResumePoint): Promise<void> {
    const s = point.state;
    const c = this.config;
    const [lo, hi] = curriculumLevels(c);
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
    this.steps = s.stepCount;
    this.optStep = s.optStep;
    this.sftDone = s.sftStepsDone;
    this.currentLevel = s.level;
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

  /** MaPP's finite prompt pool, the first draws of the task stream (a resumed run draws it again, then moves the stream on). */
  private drawMappPool(): void {
    if (!this.mapp) return;
    const params = this.taskParams();
    for (let i = 0; i < this.config.mappPool; i++) this.mappPool.push(this.task.sample(this.taskRng, params));
  }

  taskParams(level = this.level): TaskParams {
    return taskParamsAtLevel(this.config, level);
  }

  /**
   * The run from where it stands: the rest of the warm start (its summary yielded when it ran),
   * then RL steps until stepCount reaches `steps` (default the config's; 0 = no end), stopping
   * between steps when `shouldStop` says so. Faults are thrown (TrainingFault, GpuError) with
   * the weights from before the faulty step kept.
   */
  async *run(opts: { steps?: number; shouldStop?: () => boolean; onWarmStartStep?: (done: number, loss: number) => void } = {}): AsyncGenerator<RunEvent> {
    const steps = opts.steps ?? this.config.steps;
    if (this.sftStepsRemaining > 0) {
      const losses = await this.warmStart({ shouldStop: opts.shouldStop, onStep: opts.onWarmStartStep });
      yield { warmStart: { steps: losses.length, done: this.sftDone, of: this.config.sftSteps, firstLoss: losses[0], lastLoss: losses[losses.length - 1] } };
    }
    while (!opts.shouldStop?.() && (steps <= 0 || this.steps < steps)) yield { record: await this.step() };
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
  async warmStart(opts: { shouldStop?: () => boolean; onStep?: (done: number, loss: number) => void } = {}): Promise<number[]> {
    const c = this.config;
    const losses: number[] = [];
    while (this.sftStepsRemaining > 0) {
      if (opts.shouldStop?.()) break;
      const instances = this.warmStartInstances(c.batchPrompts * c.groupSize);
      const s = rolloutShape(instances, 1);
      const data = sftArrays(instances, s);
      const count = data.mask.reduce((a, b) => a + b, 0);
      const passes: TrainPass[] = [{ data, loss: { kind: 'sft', scale: count > 0 ? 1 / count : 0 }, adam: this.adamParams(this.lrAt(++this.optStep, c.sftLr)) }];
      await this.engine.checkpointState();
      const result = await this.engine.train(passes, s.N, s.T);
      await this.rollBack({ step: 0, where: `warm-start step ${this.sftStepsDone + 1}`, lrKnob: 'sftLr' }, passes, result, s.N, s.T);
      this.sftDone++;
      const loss = result.passes[0].seqLoss.reduce((a, b) => a + b, 0);
      losses.push(loss);
      opts.onStep?.(this.sftDone, loss);
    }
    return losses;
  }

  /** n fresh prompts, each with what the warm start trains on as its answer (sftData). */
  private warmStartInstances(n: number): TaskInstance[] {
    const instances = this.samplePrompts(n);
    if (this.config.sftData !== 'base') return instances;
    // Checked with the config: sftData = base needs a task that defines base completions.
    return instances.map((inst) => ({ ...inst, answerTokens: this.task.baseCompletion!(this.taskRng, inst) }));
  }

  // ── one RL step, in phases ───────────────────────────────────────────────────────────

  /** Runs one whole step and returns its metrics. */
  async step(): Promise<StepRecord> {
    let record: StepRecord | undefined;
    for await (const p of this.stepPhases()) if ('record' in p) record = p.record;
    return record!;
  }

  /**
   * One RL step: sample, verify, advantages, update, each yielded with the rollout snapshot so
   * far (the page steps through them one at a time), then the step's record.
   */
  async *stepPhases(): AsyncGenerator<StepPhase | { record: StepRecord }> {
    const c = this.config;
    const step = this.stepCount + 1;
    const times = new StepTimes();
    if (c.klBeta > 0 && !this.engine.hasReference && c.refSync !== 'curriculum') {
      // refSync none or every: the reference is the policy as RL begins (after any warm start).
      await this.engine.syncReference();
      this.klLimit = Infinity;
    }

    const snapshot = await this.sampleBatch(step, times);
    this.latest = snapshot;
    yield { phase: 'sample', snapshot };

    snapshot.verified = times.add('verify', () => verifyBatch(this.task, snapshot.instances, snapshot.tokens, snapshot.shape));
    yield { phase: 'verify', snapshot };

    const { batch, trainAdv } = await times.addAsync('advantages', () => this.advantagesFor(snapshot, step));
    yield { phase: 'advantages', snapshot };

    const { shape } = snapshot;
    const started = now();
    const { passes, rows, N, klOn } = this.buildPasses(snapshot, trainAdv);
    await this.engine.checkpointState();
    const result = await this.engine.train(passes, N, shape.T);
    times.ms.update += now() - started;
    await this.rollBack({ step, where: `step ${step}`, lrKnob: 'lr' }, passes, result, N, shape.T);

    const m = stepMetrics(batch, snapshot.advantages!, snapshot.facts.truncated);
    const scalars: Record<string, number> = {
      ...m.scalars, ...passMetrics(result, klOn), entropy_alpha: this.alpha, level: this.level,
      ...times.scalars(), ...prefixKeys('grad_norm/', result.groupNorms),
    };
    if (this.collectRatios) snapshot.ratio = completionRatios(await this.engine.logProbs(rows.tokens, rows.targets, shape.N, shape.T), rows, shape);
    Object.assign(scalars, prefixKeys('task/', aggregateTaskMetrics(snapshot.verified.groupMetrics)));
    // With your reward shaping, `reward` is what the estimator saw; this is what the verifier said.
    if (this.code.reward) scalars['reward/verifier'] = snapshot.verified.rewards.reduce((a, b) => a + b, 0) / shape.N;

    this.steps++;
    this.adaptAlpha(scalars.entropy);
    const record = stepRecord(this.stepCount, scalars, m);
    await this.maintain(record);
    yield { phase: 'update', snapshot };
    yield { record };
  }

  /**
   * Phase 1: B prompts and G completions each. With dynamic sampling (DAPO) the groups whose
   * rewards are all equal (no signal) are set aside and more prompts are sampled, up to
   * dynamicMaxTries rounds; a batch still short is filled with the set-aside groups.
   */
  private async sampleBatch(step: number, times: StepTimes): Promise<RolloutSnapshot> {
    const c = this.config;
    const G = c.groupSize;
    const tries = c.dynamicSampling ? c.dynamicMaxTries : 1;
    let kept: SampledGroup[] = [];
    const spare: SampledGroup[] = [];
    for (let attempt = 0; attempt < tries && kept.length < c.batchPrompts; attempt++) {
      const instances = this.samplePrompts(c.batchPrompts);
      const shape = rolloutShape(instances, G);
      const sample = await times.addAsync('sample', () => this.engine.sample(buildTemplate(instances, shape), shape.N, shape.T, {
        seed: c.seed >>> 0, step: ((step - 1) * tries + attempt) >>> 0, invTemp: this.settings.invTemp, topK: c.topK,
      }));
      times.sampledTokens += shape.N * (shape.T - 1);
      const groups = instances.map((inst, b) => ({ inst, sample, shape, b }));
      if (!c.dynamicSampling) {
        kept = groups;
        break;
      }
      const v = times.add('verify', () => verifyBatch(this.task, instances, sample.tokens, shape));
      const informative = informativeGroups(v.rewards, shape.B, G);
      for (const g of groups) (informative[g.b] ? kept : spare).push(g);
    }
    while (kept.length < c.batchPrompts && spare.length) kept.push(spare.shift()!);
    const { instances, shape, sample } = gatherGroups(kept.slice(0, c.batchPrompts), G);
    if (!sample.logp.every(Number.isFinite) || !sample.entropy.every(Number.isFinite)) {
      const tensors = await this.engine.nonFiniteTensors();
      throw new TrainingFault(step, tensors, `step ${step}: non-finite log-probabilities while sampling${namedTensors(tensors, 'non-finite weights in')}` +
        '; the weights from before this step are kept. Load a checkpoint or reset, and lower the learning rate (lr).');
    }
    return {
      shape, instances, tokens: sample.tokens, facts: completionFacts(sample, instances, shape, c.maskTruncated), vocab: this.vocab,
      verified: { rewards: new Float64Array(shape.N), correct: new Uint8Array(shape.N), signatures: [], errorSignatures: [], groupMetrics: [] },
    };
  }

  /**
   * Phase 3: rewards (with DAPO's overlong shaping) → per-token advantages (docs/estimators.md).
   * Returns the batch the metrics read and the advantages the loss trains on: with the sampled
   * regulator, α·(−log π(y_t)) is added to each trained token's (a REINFORCE estimate of the
   * entropy's gradient).
   */
  private async advantagesFor(s: RolloutSnapshot, step: number): Promise<{ batch: RolloutBatch; trainAdv: Float32Array }> {
    const c = this.config;
    const { shape, facts, verified } = s;
    const promptKeys = s.instances.map((i) => this.promptKey(i));
    const { reward: shaping, estimator } = this.code;
    let batch: RolloutBatch;
    let adv: AdvantageResult;
    try {
      let rewards = verified.rewards;
      if (shaping) rewards = await shaping.call(rewardInput(rewardFacts(s, promptKeys, step)), [{ length: shape.N, meaning: 'N, one per completion' }]);
      if (c.overlongBuffer > 0) rewards = applyOverlongShaping(rewards, facts.lengths, shape.Lc, c.overlongBuffer);
      batch = {
        B: shape.B, G: shape.G, T: shape.Lc, rewards, correct: verified.correct, mask: facts.mask, entropy: facts.entropy,
        lengths: facts.lengths, signatures: verified.signatures, errorSignatures: verified.errorSignatures, promptKeys,
      };
      adv = estimator
        ? advantagesFromBase(batch, this.advantages, await estimator.call(estimatorInput(batch, step), estimatorLengths(batch)))
        : computeAdvantages(batch, this.advantages, this.mapp ?? undefined);
    } catch (e) {
      if (!(e instanceof CustomCodeError)) throw e;
      throw new TrainingFault(step, [], `step ${step}: ${e.message.replace(/\.$/, '')}. Nothing was trained on this step: the weights from before it are kept; fix the code and continue, or reset.`, 'custom-code', e.location);
    }
    this.mapp?.observeBatch(batch.promptKeys, batch.correct, shape.G);
    const trainAdv = adv.adv.slice();
    if (this.settings.alphaIn === 'advantages' && this.alpha !== 0) {
      for (let j = 0; j < trainAdv.length; j++) if (adv.tokenMask[j]) trainAdv[j] += this.alpha * -facts.logp[j];
    }
    s.advantages = adv;
    return { batch, trainAdv };
  }

  /**
   * Phase 4's passes: epochs × minibatches over the N sequences, shuffled per epoch, each with the
   * run's loss constants and this step's β (on once the KL reference is taken), α, lengths and
   * normalisers. Returns them with their rows, the minibatch size N and whether the KL is on.
   */
  private buildPasses(s: RolloutSnapshot, trainAdv: Float32Array): { passes: TrainPass[]; rows: MinibatchData; N: number; klOn: boolean } {
    const c = this.config;
    const { shape } = s;
    const rows = rowArrays(s.tokens, shape, trainAdv, s.advantages!.tokenMask, s.facts.logp, Math.min(this.klLimit, shape.Lc));
    const N = Math.floor(shape.N / c.minibatches);
    const klOn = c.klBeta > 0 && this.engine.hasReference;
    const { epsLow, epsHigh, dualClip, klKind, aggregation, klBeta, alphaIn } = this.settings;
    const passes: TrainPass[] = [];
    for (let e = 0; e < c.epochs; e++) {
      const order = shuffle(this.shuffleRng, shape.N);
      for (let m = 0; m < c.minibatches; m++) {
        const data = sliceMinibatch(rows, shape.T, order, m * N, (m + 1) * N);
        const params: PgLossParams = {
          epsLow, epsHigh, dualClip, klKind, aggregation, beta: klOn ? klBeta : 0, alpha: alphaIn === 'loss' ? this.alpha : 0,
          maxLen: shape.Lc, totalTokens: Math.max(1, data.mask.reduce((a, b) => a + b, 0)), totalSeqs: N,
        };
        passes.push({ data, loss: { kind: 'pg', params }, adam: this.adamParams(this.lrAt(++this.optStep, c.lr)) });
      }
    }
    return { passes, rows, N, klOn };
  }

  /**
   * A faulty update is rolled back to the engine's checkpointState and thrown as a
   * TrainingFault: a non-finite gradient or loss (its tensors named by replaying up to the faulty
   * pass), or a divergence the guard sees (the tensors that moved most). The optimiser's step
   * count goes back with it.
   */
  private async rollBack(
    at: { step: number; where: string; lrKnob: 'lr' | 'sftLr' }, passes: TrainPass[], result: TrainResult, N: number, T: number,
  ): Promise<void> {
    const bad = result.passes.findIndex((p) => p.nonFinite || !p.seqLoss.every(Number.isFinite));
    if (bad >= 0) {
      await this.engine.restoreState();
      await this.engine.train(passes.slice(0, bad + 1), N, T);
      const tensors = await this.engine.nonFiniteTensors();
      await this.engine.restoreState();
      this.optStep -= passes.length;
      const pass = passes.length > 1 || at.lrKnob === 'lr' ? ` in pass ${bad + 1}` : '';
      throw new TrainingFault(at.step, tensors, `${at.where}: non-finite ${result.passes[bad].nonFinite ? 'gradient' : 'loss'}${pass}${namedTensors(tensors, 'tensors:')}` +
        `; the weights from before this step are kept. ${at.lrKnob === 'lr' ? 'Lower the learning rate (lr)' : 'Lower sftLr'} and continue.`);
    }
    if (!this.guard) return;
    const o = { updateNorm: result.updateNorm, weightNorm: result.weightNorm, lrSum: passes.reduce((a, p) => a + p.adam.lr, 0), count: this.weightCount };
    const verdict = this.guard.check(o);
    if (!verdict) {
      this.guard.accept(o);
      return;
    }
    const after = await this.engine.readParams();
    await this.engine.restoreState();
    this.optStep -= passes.length;
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
    throw new TrainingFault(at.step, moved,
      `${at.where}: divergence (${verdict.check}): ${verdict.detail} (tensors that moved most: ${moved.join(', ')}); ` +
      `the weights from before this step are kept. Lower the learning rate (${at.lrKnob}) and continue from the last good checkpoint.`,
      verdict.check);
  }

  private adamParams(lr: number): AdamwParams {
    const c = this.config;
    return { lr, beta1: c.beta1, beta2: c.beta2, eps: c.adamEps, weightDecay: c.weightDecay, step: this.optStep, maxGradNorm: c.maxGradNorm };
  }

  /** Adaptive entropy bonus: move α by a fixed step toward holding the mean entropy at the target. */
  private adaptAlpha(entropy: number): void {
    const c = this.config;
    if (c.entropyTarget > 0) this.alpha = Math.max(0, this.alpha + (entropy < c.entropyTarget ? c.entropyAlphaStep : -c.entropyAlphaStep));
  }

  /** Curriculum advance (with the reference re-sync it may trigger), periodic re-sync, eval. */
  private async maintain(record: StepRecord): Promise<void> {
    const c = this.config;
    const final = curriculumLevels(c)[1];
    this.sinceAdvance++;
    if (c.curriculum === 'pass-rate' && this.level < final && this.sinceAdvance >= c.curriculumWindow) {
      this.sinceAdvance = 0;
      // Greedy pass@1 on the level's held-out prompts (docs/methods.md, "The curriculum").
      const rate = await this.greedyPassRate(this.level);
      record.scalars['curriculum/greedy_pass@1'] = rate;
      if (rate >= c.curriculumTarget) {
        const prevLc = this.task.shape(this.taskParams()).completionLength;
        this.currentLevel++;
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
    return writeSafetensors(this.layout, params, this.vocab, checkpointRunConfig(this.config, { trainedSteps: this.steps, level: this.currentLevel }));
  }

  destroy(): void {
    disposeRunCode(this.code);
    this.code = {};
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

/** " (label a, b, c, d, …)" naming up to four tensors, or nothing. */
function namedTensors(tensors: string[], label: string): string {
  return tensors.length ? ` (${label} ${tensors.slice(0, 4).join(', ')}${tensors.length > 4 ? ', …' : ''})` : '';
}

/** Wall-clock time of a step's parts: the time/* scalars and tokens_per_s. */
class StepTimes {
  private readonly start = now();
  readonly ms = { sample: 0, verify: 0, advantages: 0, update: 0 };
  sampledTokens = 0;

  add<T>(part: keyof StepTimes['ms'], f: () => T): T {
    const t = now();
    const r = f();
    this.ms[part] += now() - t;
    return r;
  }

  async addAsync<T>(part: keyof StepTimes['ms'], f: () => Promise<T>): Promise<T> {
    const t = now();
    const r = await f();
    this.ms[part] += now() - t;
    return r;
  }

  scalars(): Record<string, number> {
    return {
      'time/sample_ms': this.ms.sample,
      'time/verify_ms': this.ms.verify,
      'time/advantages_ms': this.ms.advantages,
      'time/update_ms': this.ms.update,
      'time/step_ms': now() - this.start,
      'tokens_per_s': this.sampledTokens / Math.max(1e-9, this.ms.sample / 1000),
    };
  }
}
