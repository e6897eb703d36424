// The worker's side of the protocol: one training session that turns commands into trainer
// calls and trainer results into events. GPU access and the trainer are injected (SessionDeps),
// so this logic is tested in Node with a fake trainer.
//
// Commands that touch the trainer run one at a time, in arrival order (`serial`). `pause` and
// `setSpeed` act at once: the run loop checks them between steps. Steps come from the trainer's
// own loop, `run({ phases: true })` (the warm start, then steps phase by phase): a step or phase
// asked for by hand and the running loop both advance that one stream of events.

import { ConfigError, validateConfig, type RunConfig } from '../config/config';
import { TrainingFault, type PhasedRunEvent, type RolloutSnapshot, type RunPosition } from '../rl/trainer';
import type { RunOptions } from '../rl/run-loop';
import type { EvalRecord, Phase, StepRecord } from '../rl/step-metrics';
import type { AdapterDescription } from '../gpu/device';
import type { ResumePoint } from '../rl/trainer-state';
import type { Command, Event, LearnedTable } from './protocol';
import { rolloutView } from './rolloutView';
import { CustomCodeError } from '../rl/custom/custom-code-errors';

/** What the session needs of a Trainer (the real one satisfies it). */
export interface SessionTrainer {
  readonly stepCount: number;
  readonly level: number;
  readonly vocab: string[];
  readonly layout: { numParams: number };
  latest: RolloutSnapshot | null;
  /** Warm-start steps still to run (none for a checkpoint's weights or a resumed run). */
  readonly sftStepsRemaining: number;
  /** One group from the policy as it stands, verified, with advantages, no update (Trainer.preview). */
  preview(): Promise<RolloutSnapshot>;
  /** The run from where it stands: the rest of the warm start, then steps, phase by phase. */
  run(opts: RunOptions & { phases: true }): AsyncGenerator<PhasedRunEvent>;
  evaluate(): Promise<EvalRecord>;
  checkpoint(): Promise<Uint8Array>;
  /** The weights, and everything else a run needs to continue (for a rebuild with new settings). */
  readParams(): Promise<Float32Array>;
  resumePoint(): Promise<ResumePoint>;
  destroy(): void;
}

export interface SessionDeps {
  /** Opens the GPU once (throws NoWebGpuError when there is none); `onLost` fires if it goes. */
  openGpu(onLost: (message: string) => void): Promise<{ adapter: AdapterDescription; lose(): void }>;
  /**
   * Builds a trainer on the opened GPU (Trainer.create; throws RangeError / ConfigError for a
   * config that cannot run); with `resume` it continues that run, from its whole state or from
   * a checkpoint's step and level.
   */
  createTrainer(config: RunConfig, params?: Float32Array, resume?: ResumePoint | RunPosition): Promise<SessionTrainer>;
  /** The learned table of the trainer's policy, or null when the task has none. */
  learnedTable(trainer: SessionTrainer, config: RunConfig): Promise<LearnedTable | null>;
  post(event: Event, transfer?: Transferable[]): void;
  sleep(ms: number): Promise<void>;
}

/** Below this delay a running session does not report each phase (it would only flood the page). */
export const PHASE_EVENTS_MIN_DELAY_MS = 100;

export class TrainingSession {
  private gpu: { adapter: AdapterDescription; lose(): void } | null = null;
  private trainer: SessionTrainer | null = null;
  private config: RunConfig | null = null;
  /** The trainer's run (no end of its own: the session stops it), its current step in progress. */
  private events: AsyncGenerator<PhasedRunEvent> | null = null;
  /** The step in progress (0: none). */
  private phaseStep = 0;
  private running = false;
  private looping = false;
  private delayMs = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private lost = false;

  constructor(private readonly deps: SessionDeps) {}

  handle(cmd: Command): void {
    switch (cmd.type) {
      case 'pause':
        this.running = false;
        if (!this.looping) this.postStatus();
        return;
      case 'setSpeed':
        this.delayMs = Math.max(0, cmd.delayMs);
        return;
      case 'start':
        this.delayMs = Math.max(0, cmd.delayMs);
        this.running = true;
        if (!this.looping) void this.loop();
        return;
      case 'init':
        this.running = false;
        void this.serial(() => this.init(cmd.config, cmd.params, cmd.resume));
        return;
      case 'continue':
        this.running = false;
        void this.serial(() => this.continueWith(cmd.config));
        return;
      case 'step':
        if (!this.running) void this.serial(() => this.manually(() => this.wholeStep()));
        return;
      case 'phase':
        if (!this.running) void this.serial(() => this.manually(() => this.onePhase()));
        return;
      case 'eval':
        void this.serial(() => this.evaluate());
        return;
      case 'checkpoint':
        void this.serial(() => this.checkpoint());
        return;
      case 'learnedTable':
        void this.serial(() => this.learnedTable());
        return;
      case 'preview':
        if (!this.running) void this.serial(() => this.preview());
        return;
      case 'loseDevice':
        this.gpu?.lose();
        return;
      case 'dispose':
        this.running = false;
        void this.serial(async () => {
          this.dropTrainer();
          this.gpu = null;
        });
        return;
    }
  }

  /** Runs `fn` after every earlier trainer command; errors become events, never rejections. */
  private serial<T>(fn: () => Promise<T>): Promise<T | undefined> {
    const next = this.queue.then(fn).catch((e: unknown) => {
      this.fail(e);
      return undefined;
    });
    this.queue = next;
    return next;
  }

  private fail(e: unknown): void {
    this.running = false;
    // A fault ends the trainer's run generator; the next step starts a new one where it stands.
    this.endRun();
    if (this.lost) return; // already reported as device-lost
    if (e instanceof TrainingFault) {
      this.deps.post({
        type: 'fault',
        step: e.step,
        message: e.message,
        tensors: e.tensors,
        check: e.check,
        ...(e.code ? { code: e.code } : {}),
      });
    } else if (e instanceof CustomCodeError) {
      this.deps.post({
        type: 'error',
        kind: 'config',
        message: `${e.message}. Nothing ran; fix the code and run again.`,
        code: e.location,
      });
    } else if (e instanceof ConfigError || e instanceof RangeError) {
      this.deps.post({ type: 'error', kind: 'config', message: e.message });
    } else if (e instanceof Error && e.name === 'NoWebGpuError') {
      this.deps.post({ type: 'error', kind: 'no-webgpu', message: e.message });
    } else {
      this.deps.post({ type: 'error', kind: 'internal', message: e instanceof Error ? e.message : String(e) });
    }
  }

  private postStatus(): void {
    this.deps.post({ type: 'status', running: this.running, step: this.trainer?.stepCount ?? 0 });
  }

  private dropTrainer(): void {
    this.endRun();
    try {
      this.trainer?.destroy();
    } catch {
      // a lost device may refuse to destroy its buffers; nothing to keep
    }
    this.trainer = null;
  }

  private async init(raw: RunConfig, params?: Float32Array, resume?: RunPosition): Promise<void> {
    this.dropTrainer();
    const config = validateConfig(raw);
    if (!this.gpu) {
      this.lost = false;
      this.gpu = await this.deps.openGpu((message) => this.onLost(message));
    }
    const trainer = await this.deps.createTrainer(config, params, resume);
    // The warm start is the run's first event: done before the page hears 'ready'.
    let posted = 0;
    const events = trainer.run({
      steps: 0,
      phases: true,
      onWarmStartStep: (done, loss) => {
        // A long warm start ("the base model learns to walk") is a phase the page shows: at most 4 updates a second.
        const now = Date.now();
        if (now - posted < 250 && done < config.sftSteps) return;
        posted = now;
        this.deps.post({ type: 'warmStart', done, of: config.sftSteps, loss });
      },
    });
    if (trainer.sftStepsRemaining > 0) await events.next();
    this.trainer = trainer;
    this.events = events;
    this.config = config;
    this.deps.post({
      type: 'ready',
      adapter: this.gpu.adapter,
      numParams: trainer.layout.numParams,
      vocab: trainer.vocab,
    });
    this.postStatus();
  }

  /** The current run, rebuilt with `raw` from its own state (weights, optimiser, step, level, streams). */
  private async continueWith(raw: RunConfig): Promise<void> {
    const old = this.need();
    const config = validateConfig(raw);
    const [params, point] = await Promise.all([old.readParams(), old.resumePoint()]);
    this.endRun();
    let trainer: SessionTrainer;
    try {
      trainer = await this.deps.createTrainer(config, params, point);
    } catch (e) {
      // Code that still does not load: the run stays paused where it was, to be fixed again.
      if (!(e instanceof CustomCodeError)) throw e;
      this.deps.post({
        type: 'fault',
        step: old.stepCount + 1,
        message: `${e.message}. The run was not continued: it is still paused with its weights; fix the code and continue.`,
        tensors: [],
        check: 'custom-code',
        code: e.location,
      });
      return;
    }
    // Only now: a config the new trainer refuses leaves the old one in place.
    old.destroy();
    this.trainer = trainer;
    this.config = config;
    this.deps.post({
      type: 'ready',
      adapter: this.gpu!.adapter,
      numParams: trainer.layout.numParams,
      vocab: trainer.vocab,
    });
    this.postStatus();
  }

  private onLost(message: string): void {
    this.lost = true;
    this.running = false;
    this.gpu = null;
    this.dropTrainer();
    this.deps.post({ type: 'error', kind: 'device-lost', message });
  }

  private need(): SessionTrainer {
    if (!this.trainer) throw new Error(this.lost ? 'the GPU device was lost' : 'no model yet: send init first');
    return this.trainer;
  }

  /** Whether the run has reached its configured number of steps (0 = no limit). */
  private finished(): boolean {
    const steps = this.config?.steps ?? 0;
    return steps > 0 && (this.trainer?.stepCount ?? 0) >= steps;
  }

  private async loop(): Promise<void> {
    this.looping = true;
    try {
      // A start sent right behind an init (a sweep's next run) must see the new trainer, not
      // the old one that has already finished its steps: wait for the commands queued before.
      await this.queue;
      // The init before it failed (its error was posted): there is nothing to run.
      if (!this.trainer) return;
      this.postStatus();
      while (this.running && !this.finished()) {
        const showPhases = this.delayMs >= PHASE_EVENTS_MIN_DELAY_MS;
        const ok = await this.serial(async () =>
          this.trainer ? this.wholeStep(showPhases ? this.delayMs / 4 : -1) : false,
        );
        if (!ok) break;
        if (this.running) await this.deps.sleep(this.delayMs);
      }
    } finally {
      this.running = false;
      this.looping = false;
      this.postStatus();
    }
  }

  /**
   * Finishes the step in progress (or runs a new one). With `phaseDelayMs` ≥ 0 each phase is
   * reported and followed by that pause. Returns true when a step completed.
   */
  private async wholeStep(phaseDelayMs = -1): Promise<boolean> {
    for (;;) {
      const phase = await this.advance(phaseDelayMs >= 0);
      if (phase === 'done') return true;
      if (phaseDelayMs > 0 && this.running) await this.deps.sleep(phaseDelayMs);
    }
  }

  private async onePhase(): Promise<boolean> {
    return (await this.advance(true)) === 'done';
  }

  /** A step or phase asked for by hand: a completed step is followed by a status (paused at n). */
  private async manually(fn: () => Promise<boolean>): Promise<void> {
    if (await fn()) this.postStatus();
  }

  /** Advances the step in progress by one phase; 'done' once its record has been posted. */
  private async advance(reportPhase: boolean): Promise<Phase | 'done'> {
    const trainer = this.need();
    this.events ??= trainer.run({ steps: 0, phases: true });
    if (!this.phaseStep) this.phaseStep = trainer.stepCount + 1;
    let value = await this.nextEvent();
    // A warm start cut short by a fault goes on first (init runs it whole otherwise).
    while (value && 'warmStart' in value) value = await this.nextEvent();
    if (!value) return 'done';
    if ('record' in value) {
      this.postStep(trainer, value.record);
      return 'done';
    }
    if (reportPhase) {
      this.deps.post({
        type: 'phase',
        phase: value.phase,
        step: this.phaseStep,
        rollout: rolloutView(value.snapshot, this.phaseStep, value.phase),
      });
    }
    if (value.phase === 'update') {
      // The record follows the update at once: finish the step so the counter moves with it.
      const last = await this.nextEvent();
      if (last && 'record' in last) this.postStep(trainer, last.record);
      return 'done';
    }
    return value.phase;
  }

  /** Forgets the trainer's run (and the step in progress). */
  private endRun(): void {
    this.events = null;
    this.phaseStep = 0;
  }

  /** The run's next event; a step's record (or the run's end) closes the step in progress. */
  private async nextEvent(): Promise<PhasedRunEvent | null> {
    const next = await this.events!.next();
    if (next.done) this.events = null;
    if (next.done || 'record' in next.value) this.phaseStep = 0;
    return next.done ? null : next.value;
  }

  private postStep(trainer: SessionTrainer, record: StepRecord): void {
    const snapshot = trainer.latest;
    if (!snapshot) return;
    this.deps.post({ type: 'step', record, rollout: rolloutView(snapshot, record.step) });
    if (record.eval) this.deps.post({ type: 'eval', record: record.eval });
  }

  private async evaluate(): Promise<void> {
    const record = await this.need().evaluate();
    this.deps.post({ type: 'eval', record });
  }

  private async checkpoint(): Promise<void> {
    const trainer = this.need();
    const bytes = await trainer.checkpoint();
    this.deps.post({ type: 'checkpoint', bytes, step: trainer.stepCount }, [bytes.buffer as ArrayBuffer]);
  }

  /** A preview between steps only: a step in progress (phase by phase) would be shown out of order. */
  private async preview(): Promise<void> {
    const trainer = this.need();
    if (this.phaseStep) return;
    const snapshot = await trainer.preview();
    this.deps.post({ type: 'preview', rollout: { ...rolloutView(snapshot, trainer.stepCount), preview: true } });
  }

  private async learnedTable(): Promise<void> {
    const trainer = this.need();
    const table = await this.deps.learnedTable(trainer, this.config!);
    this.deps.post({ type: 'learnedTable', table, step: trainer.stepCount });
  }
}
