// The RLVR loop (docs/architecture.md, "One RL step, from a knob to a chart"): sample B
// prompts, sample G completions each on the engine, verify in JS, turn rewards into per-token
// advantages, and update the policy for μ epochs × minibatches. Everything the run does is
// decided by its RunConfig (src/config) and its seed, so the same config gives the same metrics.
//
// A step runs in phases (sample → verify → advantages → update) exposed as an async
// generator, so the page can step one phase at a time; `step()` runs them all. A run starts or
// continues in Trainer.create and goes on in run() (docs/architecture.md, "A run's lifecycle").
//
// The parts live beside it: the start and resume checks (trainer-start.ts), the run loop
// (run-loop.ts), the warm start's step (warm-start.ts), the prompts (prompt-pool.ts), sampling
// and advantages (step-rollout.ts), the update's passes (step-update.ts), the update and the
// record's scalars (step-finish.ts), rollback (rollback.ts), the curriculum and its KL anchor
// (curriculum.ts), held-out evaluation (held-out.ts), timing (step-times.ts) and what goes in and
// out (trainer-types.ts).

import type { RunConfig } from '../config/config';
import { taskParamsAtLevel, taskParamsOf } from '../config/config';
import { checkpointRunConfig } from '../config/checkpoint-run';
import { makeRng, STREAM, type Rng } from '../core/random';
import { paramCount } from '../model/model-config';
import type { ParamLayout } from '../model/layout';
import { writeSafetensors } from '../model/safetensors';
import { getTask } from '../tasks/registry';
import type { Task, TaskInstance, TaskParams } from '../tasks/types';
import type { Split } from '../tasks/split';
import { disposeRunCode, type RunCode } from './custom/custom-code';
import { DEFAULT_GUARD_LIMITS, DivergenceGuard } from './divergence';
import type { MakeEngine, PolicyEngine } from './engine';
import type { AdvantageOptions } from './estimators';
import { Curriculum } from './curriculum';
import { HeldOutEvaluator } from './held-out';
import { stepRecord, type EvalRecord, type StepRecord } from './step-metrics';
import { PromptPool } from './prompt-pool';
import { runTrainer, yieldToEventLoop, type RunOptions } from './run-loop';
import type { RollbackContext } from './rollback';
import { verifyBatch } from './rollout';
import { advantageOptions, type LossSettings } from './settings';
import { advantagesFor, sampleBatch, type AdvantageContext, type SampleContext } from './step-rollout';
import { stepScalars, updatePolicy } from './step-finish';
import { StepTimes } from './step-times';
import { AdamSchedule } from './step-update';
import { checkResumable, restoredMapp, startEngine } from './trainer-start';
import type { ResumePoint, TrainerState } from './trainer-state';
import type { PhasedRunEvent, RolloutSnapshot, RunEvent, StepPhase, TrainerOptions } from './trainer-types';
import { warmStartStep } from './warm-start';

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

/** XORed into the seed of a preview's sampling, so that its tokens are not those a step of the run will draw. */
const PREVIEW_SEED_SALT = 0x9e3779b1;

export class Trainer {
  readonly task: Task;
  readonly layout: ParamLayout;
  readonly vocab: string[];
  private steps = 0;
  private readonly optimizer: AdamSchedule;
  /** Entropy bonus α (moves when entropyTarget > 0). */
  alpha: number;
  private readonly prompts: PromptPool;
  private shuffleRng: Rng;
  private sftDone = 0;
  private readonly guard: DivergenceGuard | null;
  private readonly rollback: RollbackContext;
  /** The config in the loss kernels' terms (the engine was built with its temperature and regulator). */
  private readonly settings: LossSettings;
  private readonly advantages: AdvantageOptions;
  private readonly heldOut: HeldOutEvaluator;
  /** The level, its advance, and when the KL reference is taken (curriculum.ts). */
  private readonly curriculum: Curriculum;
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
    this.alpha = config.entropyAlpha;
    this.optimizer = new AdamSchedule(config);
    this.prompts = new PromptPool(this.task, config);
    this.shuffleRng = makeRng(config.seed, STREAM.minibatch);
    this.heldOut = new HeldOutEvaluator(config, this.task, engine, settings.invTemp);
    this.curriculum = new Curriculum(config, this.task, engine, this.heldOut);
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
    const { layout, settings, code, engine } = await startEngine(config, makeEngine, options);
    const t = new Trainer(config, engine, layout, settings, options);
    t.code = code;
    t.prompts.drawMappPool(t.taskParams());
    try {
      if (resume && 'state' in resume) await t.resumeFrom(resume);
      else {
        // A checkpoint's weights, or its place in its run: the warm start is behind them.
        if (initial || resume) t.sftDone = config.sftSteps;
        t.curriculum.startsTrained = config.sftSteps > 0 || Boolean(initial && !resume);
        if (resume) [t.steps, t.curriculum.level] = [resume.step, resume.level];
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
    return this.curriculum.level;
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
    checkResumable(c, s);
    await this.engine.loadOptimizerState(point.optimizer);
    if (point.reference && s.refReady) await this.engine.loadReference(point.reference);
    this.steps = s.stepCount;
    this.optimizer.step = s.optStep;
    this.sftDone = s.sftStepsDone;
    // Cut short in its warm start: RL has not begun, so its anchor is still to be taken.
    this.curriculum.startsTrained = c.sftSteps > 0 && s.stepCount === 0;
    this.curriculum.level = s.level;
    this.alpha = s.alpha;
    this.curriculum.sinceAdvance = s.sinceAdvance;
    this.curriculum.klLimit = s.klLimit ?? Infinity;
    this.heldOut.evalCount = s.evalCount;
    this.prompts.resumeStream(s.taskRng);
    this.shuffleRng = makeRng(c.seed, STREAM.minibatch, s.shuffleRng);
    const mapp = this.prompts.mapp;
    if (s.mapp && mapp) this.prompts.mapp = restoredMapp(mapp, s.mapp);
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
      sinceAdvance: this.curriculum.sinceAdvance,
      refReady: this.engine.hasReference,
      klLimit: Number.isFinite(this.curriculum.klLimit) ? this.curriculum.klLimit : null,
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
  run(opts: RunOptions = {}): AsyncGenerator<PhasedRunEvent> {
    return runTrainer(this, opts);
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
    const ctx = {
      config: this.config,
      engine: this.engine,
      prompts: this.prompts,
      optimizer: this.optimizer,
      rollback: this.rollback,
    };
    const losses: number[] = [];
    while (this.sftStepsRemaining > 0) {
      // The CPU engine's promises are already resolved: without a turn of the event loop a
      // signal handler (Ctrl-C) would never run during a long warm start.
      await yieldToEventLoop();
      if (opts.shouldStop?.()) break;
      const loss = await warmStartStep(ctx, this.taskParams(), this.sftStepsDone);
      this.sftDone++;
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
    await this.curriculum.anchorAsRlBegins();

    const snapshot = await sampleBatch(this.sampleContext(c, this.prompts), step, times);
    this.latest = snapshot;
    yield { phase: 'sample', snapshot };

    snapshot.verified = times.add('verify', () =>
      verifyBatch(this.task, snapshot.instances, snapshot.tokens, snapshot.shape),
    );
    yield { phase: 'verify', snapshot };

    const { batch, trainAdv } = await times.addAsync('advantages', () =>
      advantagesFor(this.advantageContext(c, this.prompts), snapshot, step),
    );
    yield { phase: 'advantages', snapshot };

    const update = await updatePolicy(
      {
        config: c,
        step,
        settings: this.settings,
        shuffleRng: this.shuffleRng,
        optimizer: this.optimizer,
        klLimit: this.curriculum.klLimit,
        hasReference: this.engine.hasReference,
        alpha: this.alpha,
        engine: this.engine,
        rollback: this.rollback,
      },
      snapshot,
      trainAdv,
      times,
    );
    const { m, scalars } = await stepScalars(
      {
        engine: this.engine,
        code: this.code,
        alpha: this.alpha,
        level: this.level,
        collectRatios: this.collectRatios,
      },
      batch,
      snapshot,
      update,
      times,
      countsBefore,
    );

    this.steps++;
    this.adaptAlpha(scalars.entropy);
    const record = stepRecord(this.stepCount, scalars, m);
    await this.maintain(record);
    yield { phase: 'update', snapshot };
    yield { record };
  }

  /** What sampling needs of the trainer, with this config (a preview's own) and prompt pool. */
  private sampleContext(config: RunConfig, prompts: PromptPool): SampleContext {
    return {
      config,
      engine: this.engine,
      task: this.task,
      vocab: this.vocab,
      prompts,
      settings: this.settings,
      params: this.taskParams(),
    };
  }

  /** What the advantages need of the trainer, with this prompt pool (a preview's own). */
  private advantageContext(config: RunConfig, prompts: PromptPool): AdvantageContext {
    return {
      config,
      prompts,
      code: this.code,
      options: this.advantages,
      settings: this.settings,
      alpha: this.alpha,
    };
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
    const previewConfig = { ...c, batchPrompts: 1, dynamicSampling: false, seed: (c.seed ^ PREVIEW_SEED_SALT) >>> 0 };
    const snapshot = await sampleBatch(this.sampleContext(previewConfig, pool), this.steps + 1, new StepTimes());
    snapshot.verified = verifyBatch(this.task, snapshot.instances, snapshot.tokens, snapshot.shape);
    await advantagesFor(this.advantageContext(c, pool), snapshot, this.steps + 1);
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
    await this.curriculum.afterStep(this.stepCount, record);
    const c = this.config;
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
      checkpointRunConfig(this.config, { trainedSteps: this.steps, level: this.curriculum.level }),
    );
  }

  destroy(): void {
    disposeRunCode(this.code);
    this.code = {};
    this.engine.destroy();
  }
}
