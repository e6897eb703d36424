// The RLVR loop (docs/architecture.md, "One RL step, from a knob to a chart"): sample B
// prompts, sample G completions each on the engine, verify in JS, turn rewards into per-token
// advantages, and update the policy for μ epochs × minibatches. Everything the run does is
// decided by its RunConfig (src/config) and its seed, so the same config gives the same metrics.
//
// A step runs in phases (sample → verify → advantages → update) exposed as an async
// generator, so the page can step one phase at a time; `step()` runs them all. A run starts or
// continues in Trainer.create and goes on in run() (docs/architecture.md, "A run's lifecycle").
//
// The parts live beside it: the prompts (prompt-pool.ts), sampling and advantages
// (step-rollout.ts), the update (step-update.ts), rollback (rollback.ts), held-out evaluation
// (held-out.ts), timing (step-times.ts) and what goes in and out (trainer-types.ts).

import type { RunConfig } from '../config/config';
import { curriculumLevels, modelConfigOf, taskParamsAtLevel, taskParamsOf } from '../config/config';
import { checkpointRunConfig } from '../config/checkpoint-run';
import { makeRng, STREAM, type Rng } from '../core/random';
import { paramCount } from '../model/config';
import { initParams } from '../model/init';
import { buildLayout, type ParamLayout } from '../model/layout';
import { writeSafetensors } from '../model/safetensors';
import { CheckpointError } from '../model/safetensors-file';
import { getTask } from '../tasks/registry';
import type { Task, TaskInstance, TaskParams } from '../tasks/types';
import type { Split } from '../tasks/split';
import { disposeRunCode, loadRunCode, type RunCode } from './custom/custom-code';
import { DEFAULT_GUARD_LIMITS, DivergenceGuard } from './divergence';
import type { MakeEngine, PolicyEngine, TrainPass } from './engine';
import type { AdvantageOptions } from './estimators';
import { HeldOutEvaluator } from './held-out';
import { MappPosterior } from './mapp';
import {
  aggregateTaskMetrics,
  passMetrics,
  prefixKeys,
  stepMetrics,
  stepRecord,
  type EvalRecord,
  type StepRecord,
} from './metrics';
import { PromptPool } from './prompt-pool';
import { rollBackFaulty, type RollbackContext } from './rollback';
import { rolloutShape, sftArrays, verifyBatch } from './rollout';
import { advantageOptions, lossSettings, type LossSettings } from './settings';
import { advantagesFor, sampleBatch } from './step-rollout';
import { gpuCallScalars, now, StepTimes } from './step-times';
import { AdamSchedule, buildPasses, completionRatios, rlLearningRateKnob } from './step-update';
import type { ResumePoint, TrainerState } from './trainer-state';
import type { PhasedRunEvent, RolloutSnapshot, RunEvent, StepPhase, TrainerOptions } from './trainer-types';

export { TrainingFault } from './trainer-types';
export type {
  PhasedRunEvent,
  RolloutSnapshot,
  RunEvent,
  RunPosition,
  StepPhase,
  TrainerOptions,
  WarmStartSummary,
} from './trainer-types';

/** Options of run(): how far, when to stop, and what to report on the way. */
export interface RunOptions {
  /** Stop when stepCount reaches this (default the config's steps; 0 = no end). */
  steps?: number;
  /** Asked between steps (and between warm-start steps). */
  shouldStop?: () => boolean;
  onWarmStartStep?: (done: number, loss: number) => void;
  /** Yield every step's phases too, not only its record (the worker steps phase by phase). */
  phases?: boolean;
}

/** XORed into the seed of a preview's sampling, so that its tokens are not those a step of the run will draw. */
const PREVIEW_SEED_SALT = 0x9e3779b1;

export class Trainer {
  readonly task: Task;
  readonly layout: ParamLayout;
  readonly vocab: string[];
  private steps = 0;
  private readonly optimizer: AdamSchedule;
  private currentLevel: number;
  /** Entropy bonus α (moves when entropyTarget > 0). */
  alpha: number;
  private readonly prompts: PromptPool;
  private shuffleRng: Rng;
  private sftDone = 0;
  // RL starts from a trained model (a warm start, or weights given without a resume point): the
  // curriculum anchor then holds it from level 1 on, not only from the first advance.
  private startsTrained = false;
  private readonly guard: DivergenceGuard | null;
  private readonly rollback: RollbackContext;
  /** The config in the loss kernels' terms (the engine was built with its temperature and regulator). */
  private readonly settings: LossSettings;
  private readonly advantages: AdvantageOptions;
  /** Completion positions c < klLimit get the KL term. */
  private klLimit = Infinity;
  /** Steps since the last curriculum advance (or the start). */
  private sinceAdvance = 0;
  private readonly heldOut: HeldOutEvaluator;
  latest: RolloutSnapshot | null = null;
  /** Score the batch again after the update to get each token's importance ratio (one extra forward; the inspector turns it on). */
  collectRatios = false;
  /** The config's own estimator and reward shaping, loaded once (src/rl/custom). */
  private code: RunCode = {};

  private constructor(
    readonly config: RunConfig,
    readonly engine: PolicyEngine,
    layout: ParamLayout,
    settings: LossSettings,
    options: TrainerOptions,
  ) {
    this.task = getTask(config.task);
    this.settings = settings;
    this.advantages = advantageOptions(config);
    this.guard = options.guard === false ? null : new DivergenceGuard({ ...DEFAULT_GUARD_LIMITS, ...options.guard });
    this.layout = layout;
    this.vocab = this.task.vocab(taskParamsOf(config));
    this.currentLevel = curriculumLevels(config)[0];
    this.alpha = config.entropyAlpha;
    this.optimizer = new AdamSchedule(config);
    this.prompts = new PromptPool(this.task, config);
    this.shuffleRng = makeRng(config.seed, STREAM.minibatch);
    this.heldOut = new HeldOutEvaluator(config, this.task, engine, settings.invTemp);
    this.rollback = {
      engine,
      guard: this.guard,
      layout,
      weightCount: paramCount(layout.config),
      undoOptimizerSteps: (count) => {
        this.optimizer.step -= count;
      },
    };
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
    if (resume && 'state' in resume && !initial)
      throw new RangeError('a resume point needs the weights it was saved with (initial)');
    const needed = modelConfigOf(config);
    const layout = initial?.layout ?? buildLayout(needed);
    const have = layout.config;
    if (have.vocabSize < needed.vocabSize || have.nPositions < needed.nPositions) {
      throw new RangeError(
        `the model (vocab ${have.vocabSize}, positions ${have.nPositions}) is too small for this task configuration ` +
          `(vocab ${needed.vocabSize}, positions ${needed.nPositions})`,
      );
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
    t.prompts.drawMappPool(t.taskParams());
    try {
      if (resume && 'state' in resume) await t.resumeFrom(resume);
      else {
        // A checkpoint's weights, or its place in its run: the warm start is behind them.
        if (initial || resume) t.sftDone = config.sftSteps;
        t.startsTrained = config.sftSteps > 0 || Boolean(initial && !resume);
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

  /** SFT warm-start steps still to run (sftSteps, less those a resumed run has done). */
  get sftStepsRemaining(): number {
    return Math.max(0, this.config.sftSteps - this.sftStepsDone);
  }

  taskParams(level = this.level): TaskParams {
    return taskParamsAtLevel(this.config, level);
  }

  /** Restores a saved resume point (after the MaPP pool was drawn from the task stream). */
  private async resumeFrom(point: ResumePoint): Promise<void> {
    const s = point.state;
    const c = this.config;
    const [lo, hi] = curriculumLevels(c);
    if (s.level < lo || s.level > hi) {
      throw new CheckpointError(
        `trainer state: level ${s.level} is outside this config's levels [${lo}, ${hi}] (curriculumStart, task.${c.curriculumParam})`,
      );
    }
    if (s.stepCount > c.steps && c.steps > 0) {
      throw new CheckpointError(
        `trainer state: the run is at step ${s.stepCount}, past steps = ${c.steps}; raise --steps to continue it`,
      );
    }
    if ((c.estimator === 'mapp') !== (s.mapp !== null)) {
      throw new CheckpointError(
        `trainer state: saved ${s.mapp ? 'with' : 'without'} a MaPP posterior, but this config's estimator is ${c.estimator}; the estimator cannot change on resume`,
      );
    }
    await this.engine.loadOptimizerState(point.optimizer);
    if (point.reference && s.refReady) await this.engine.loadReference(point.reference);
    this.steps = s.stepCount;
    this.optimizer.step = s.optStep;
    this.sftDone = s.sftStepsDone;
    // Cut short in its warm start: RL has not begun, so its anchor is still to be taken.
    this.startsTrained = c.sftSteps > 0 && s.stepCount === 0;
    this.currentLevel = s.level;
    this.alpha = s.alpha;
    this.sinceAdvance = s.sinceAdvance;
    this.klLimit = s.klLimit ?? Infinity;
    this.heldOut.evalCount = s.evalCount;
    this.prompts.resumeStream(s.taskRng);
    this.shuffleRng = makeRng(c.seed, STREAM.minibatch, s.shuffleRng);
    const mapp = this.prompts.mapp;
    if (s.mapp && mapp) {
      // The posteriors saved; the options (mappBonus) of this config.
      try {
        this.prompts.mapp = MappPosterior.fromJSON({ options: mapp.options, posteriors: s.mapp.posteriors });
      } catch (e) {
        throw new CheckpointError(`trainer state: mapp: ${(e as Error).message}`);
      }
    }
    this.guard?.restore(s.guard);
  }

  /** Everything needed to continue this run later with the same results (with the weights: readParams). */
  async resumePoint(): Promise<ResumePoint> {
    const state: TrainerState = {
      stepCount: this.stepCount,
      optStep: this.optimizer.step,
      sftStepsDone: this.sftStepsDone,
      level: this.level,
      alpha: this.alpha,
      sinceAdvance: this.sinceAdvance,
      refReady: this.engine.hasReference,
      klLimit: Number.isFinite(this.klLimit) ? this.klLimit : null,
      evalCount: this.heldOut.evalCount,
      taskRng: this.prompts.rng.position(),
      shuffleRng: this.shuffleRng.position(),
      mapp: this.prompts.mapp ? this.prompts.mapp.toJSON() : null,
      guard: [...(this.guard?.recent ?? [])],
    };
    const [optimizer, reference] = await Promise.all([this.engine.readOptimizerState(), this.engine.readReference()]);
    return { state, optimizer, reference };
  }

  /**
   * The run from where it stands: the rest of the warm start (its summary yielded when it ran),
   * then RL steps until stepCount reaches `steps` (default the config's; 0 = no end), stopping
   * between steps when `shouldStop` says so; with `phases`, each step's phases come before its
   * record. Faults are thrown (TrainingFault, GpuError) with the weights from before the faulty
   * step kept.
   */
  run(opts: RunOptions & { phases: true }): AsyncGenerator<PhasedRunEvent>;
  run(opts?: RunOptions): AsyncGenerator<RunEvent>;
  async *run(opts: RunOptions = {}): AsyncGenerator<PhasedRunEvent> {
    const steps = opts.steps ?? this.config.steps;
    if (this.sftStepsRemaining > 0) {
      const losses = await this.warmStart({ shouldStop: opts.shouldStop, onStep: opts.onWarmStartStep });
      yield {
        warmStart: {
          steps: losses.length,
          done: this.sftDone,
          of: this.config.sftSteps,
          firstLoss: losses[0],
          lastLoss: losses[losses.length - 1],
        },
      };
    }
    while ((await yieldToEventLoop(), !opts.shouldStop?.()) && (steps <= 0 || this.steps < steps)) {
      if (opts.phases) yield* this.stepPhases();
      else yield { record: await this.step() };
    }
  }

  // ── SFT warm start ───────────────────────────────────────────────────────────────────

  /**
   * Supervised steps on the task's own correct completions; returns the mean loss per step.
   * `shouldStop` is asked before each step (Ctrl-C during a long warm start) and `onStep` told
   * after each (sftStepsDone, loss); the steps done are counted in sftStepsDone, so a saved run
   * continues the warm start where it stopped.
   */
  async warmStart(
    opts: { shouldStop?: () => boolean; onStep?: (done: number, loss: number) => void } = {},
  ): Promise<number[]> {
    const c = this.config;
    const losses: number[] = [];
    while (this.sftStepsRemaining > 0) {
      // The CPU engine's promises are already resolved: without a turn of the event loop a
      // signal handler (Ctrl-C) would never run during a long warm start.
      await yieldToEventLoop();
      if (opts.shouldStop?.()) break;
      const instances = this.prompts.warmStartInstances(c.batchPrompts * c.groupSize, this.taskParams());
      const s = rolloutShape(instances, 1);
      const data = sftArrays(instances, s);
      const count = data.mask.reduce((a, b) => a + b, 0);
      const passes: TrainPass[] = [
        { data, loss: { kind: 'sft', scale: count > 0 ? 1 / count : 0 }, adam: this.optimizer.next(c.sftLr) },
      ];
      await this.engine.checkpointState();
      const result = await this.engine.train(passes, s.N, s.T);
      await rollBackFaulty(
        this.rollback,
        { step: 0, where: `warm-start step ${this.sftStepsDone + 1}`, lrKnob: 'sftLr' },
        passes,
        result,
        s.N,
        s.T,
      );
      this.sftDone++;
      const loss = result.passes[0].seqLoss.reduce((a, b) => a + b, 0);
      losses.push(loss);
      opts.onStep?.(this.sftDone, loss);
    }
    return losses;
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
    const countsBefore = this.engine.callCounts?.() ?? null;
    if (c.klBeta > 0 && !this.engine.hasReference && (c.refSync !== 'curriculum' || this.startsTrained)) {
      // refSync none or every: the reference is the policy as RL begins (after any warm start).
      // refSync curriculum: from scratch there is nothing worth anchoring to before the first
      // advance; from a trained model (a base model that walks legally) level 1 is anchored to it.
      await this.engine.syncReference();
      this.klLimit = Infinity;
    }

    const snapshot = await sampleBatch(
      {
        config: c,
        engine: this.engine,
        task: this.task,
        vocab: this.vocab,
        prompts: this.prompts,
        settings: this.settings,
        params: this.taskParams(),
      },
      step,
      times,
    );
    this.latest = snapshot;
    yield { phase: 'sample', snapshot };

    snapshot.verified = times.add('verify', () =>
      verifyBatch(this.task, snapshot.instances, snapshot.tokens, snapshot.shape),
    );
    yield { phase: 'verify', snapshot };

    const { batch, trainAdv } = await times.addAsync('advantages', () =>
      advantagesFor(
        {
          config: c,
          prompts: this.prompts,
          code: this.code,
          options: this.advantages,
          settings: this.settings,
          alpha: this.alpha,
        },
        snapshot,
        step,
      ),
    );
    yield { phase: 'advantages', snapshot };

    const { shape } = snapshot;
    const started = now();
    const { passes, rows, N, klOn } = buildPasses(
      {
        config: c,
        step,
        settings: this.settings,
        shuffleRng: this.shuffleRng,
        optimizer: this.optimizer,
        klLimit: this.klLimit,
        hasReference: this.engine.hasReference,
        alpha: this.alpha,
      },
      snapshot,
      trainAdv,
    );
    await this.engine.checkpointState();
    const result = await this.engine.train(passes, N, shape.T);
    times.ms.update += now() - started;
    await rollBackFaulty(
      this.rollback,
      { step, where: `step ${step}`, lrKnob: rlLearningRateKnob(c, step) },
      passes,
      result,
      N,
      shape.T,
    );

    const m = stepMetrics(batch, snapshot.advantages!, snapshot.facts.truncated);
    const scalars: Record<string, number> = {
      ...m.scalars,
      ...passMetrics(result, klOn),
      entropy_alpha: this.alpha,
      level: this.level,
      ...times.scalars(),
      ...prefixKeys('grad_norm/', result.groupNorms),
    };
    if (this.collectRatios)
      snapshot.ratio = completionRatios(
        await this.engine.logProbs(rows.tokens, rows.targets, shape.N, shape.T),
        rows,
        shape,
      );
    Object.assign(scalars, prefixKeys('task/', aggregateTaskMetrics(snapshot.verified.groupMetrics)));
    // With your reward shaping, `reward` is what the estimator saw; this is what the verifier said.
    if (this.code.reward) scalars['reward/verifier'] = snapshot.verified.rewards.reduce((a, b) => a + b, 0) / shape.N;

    if (countsBefore) Object.assign(scalars, gpuCallScalars(countsBefore, this.engine.callCounts!()!));

    this.steps++;
    this.adaptAlpha(scalars.entropy);
    const record = stepRecord(this.stepCount, scalars, m);
    await this.maintain(record);
    yield { phase: 'update', snapshot };
    yield { record };
  }

  /**
   * One group sampled from the policy as it stands, verified and with advantages, and no
   * update: what a loaded model does, in one sampling pass. It draws from streams of its own
   * (the prompt from STREAM.preview at this step, the tokens under a salted sampling seed) and a
   * copy of MaPP's posterior, so the run's next step is the same with or without it. Run code
   * (reward shaping, estimator) is called once more, as a step would.
   */
  async preview(): Promise<RolloutSnapshot> {
    const c = this.config;
    const pool = this.prompts.detached(makeRng(c.seed, STREAM.preview, this.steps));
    const settings = this.settings;
    const previewConfig = { ...c, batchPrompts: 1, dynamicSampling: false, seed: (c.seed ^ PREVIEW_SEED_SALT) >>> 0 };
    const snapshot = await sampleBatch(
      {
        config: previewConfig,
        engine: this.engine,
        task: this.task,
        vocab: this.vocab,
        prompts: pool,
        settings,
        params: this.taskParams(),
      },
      this.steps + 1,
      new StepTimes(),
    );
    snapshot.verified = verifyBatch(this.task, snapshot.instances, snapshot.tokens, snapshot.shape);
    await advantagesFor(
      { config: c, prompts: pool, code: this.code, options: this.advantages, settings, alpha: this.alpha },
      snapshot,
      this.steps + 1,
    );
    return snapshot;
  }

  /** Adaptive entropy bonus: move α by a fixed step toward holding the mean entropy at the target. */
  private adaptAlpha(entropy: number): void {
    const c = this.config;
    if (c.entropyTarget > 0)
      this.alpha = Math.max(0, this.alpha + (entropy < c.entropyTarget ? c.entropyAlphaStep : -c.entropyAlphaStep));
  }

  /** Curriculum advance (with the reference re-sync it may trigger), periodic re-sync, eval. */
  private async maintain(record: StepRecord): Promise<void> {
    const c = this.config;
    const final = curriculumLevels(c)[1];
    this.sinceAdvance++;
    if (c.curriculum === 'pass-rate' && this.level < final && this.sinceAdvance >= c.curriculumWindow) {
      this.sinceAdvance = 0;
      // Greedy pass@1 on the level's check prompts, training instances (docs/methods.md, "The curriculum").
      const rate = await this.heldOut.greedyPassRate(this.level);
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

  // ── held-out evaluation (held-out.ts) ─────────────────────────────────────────────────

  /** Greedy pass@1 on the curriculum check's prompts of a level (training instances). */
  greedyPassRate(level = this.level): Promise<number> {
    return this.heldOut.greedyPassRate(level);
  }

  /** The fixed held-out prompts of a level (the first evalPrompts are always the same). */
  heldOutPrompts(level = this.level, count = this.config.evalPrompts): TaskInstance[] {
    return this.heldOut.heldOutPrompts(level, count);
  }

  /** The same, with the part of the split they came from ('train' where the level is too small to hold any out). */
  heldOutSet(level = this.level, count = this.config.evalPrompts): { instances: TaskInstance[]; split: Split } {
    return this.heldOut.heldOutSet(level, count);
  }

  /** [B] 1 where the greedy answer to instance b is correct (the decoding of the eval's greedy pass@1). */
  greedyCorrect(instances: readonly TaskInstance[]): Promise<Uint8Array> {
    return this.heldOut.greedyCorrect(instances);
  }

  /** Greedy pass@1 and sampled pass@k on the first `count` held-out prompts of a level. */
  evaluate(level = this.level, count = this.config.evalPrompts): Promise<EvalRecord> {
    return this.heldOut.evaluate(this.stepCount, level, count);
  }

  // ── checkpoints ──────────────────────────────────────────────────────────────────────

  /** The current weights [numParams], in the layout's order. */
  readParams(): Promise<Float32Array> {
    return this.engine.readParams();
  }

  /** The weights (read from the engine unless given) as a .safetensors file with the run config. */
  async checkpoint(params?: Float32Array): Promise<Uint8Array> {
    params ??= await this.engine.readParams();
    return writeSafetensors(
      this.layout,
      params,
      this.vocab,
      checkpointRunConfig(this.config, { trainedSteps: this.steps, level: this.currentLevel }),
    );
  }

  destroy(): void {
    disposeRunCode(this.code);
    this.code = {};
    this.engine.destroy();
  }
}

/** One turn of the event loop (setImmediate where there is one), so that signal handlers and timers run between steps. */
function yieldToEventLoop(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
  return new Promise((resolve) => (immediate ? immediate(resolve) : setTimeout(resolve, 0)));
}
