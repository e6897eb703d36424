// The controller between the page and the training worker: UI actions become protocol
// commands, worker events become store updates, and it keeps what outlives a model. Its parts
// (src/ui/control/): the event batching (batcher.ts: at most one store update per animation
// frame), the checkpoints (checkpoints.ts: the latest, for a resume after a device loss, and the
// one kept across a reload), the sweep queue (sweeps.ts), run files (files.ts) and a lesson's
// variants (variants.ts); the URL is here.
//
// The page's environment (animation frames, the URL, downloads) is injected, so the logic is
// tested in Node with a fake worker port.

import { diffLabel, type RunConfig } from '../config';
import { pageSearch } from '../lessons';
import type { Command, Event } from '../worker/protocol';
import type { TrainerPort } from '../worker/client';
import type { AppStore } from '../store/store';
import { loadCheckpoint } from '../store/checkpointFile';
import type { KeptCheckpoint } from '../store/archive';
import { adapterLabel } from '../gpu/device';
import { holdUnreadCode } from './code/gate';
import type { CodeKind } from '../config/user-code';
import { EventBatcher } from './control/batcher';
import { CheckpointKeeper } from './control/kept-checkpoints';
import { RunFiles } from './control/page-files';
import type { ControllerEnv, ControllerHost, InitOptions } from './control/host';
import { SweepQueue } from './control/sweeps';
import { LessonVariants } from './control/variants';
import { hasTableProbe } from '../rl/learned-table';

export type { ControllerEnv } from './control/host';

/**
 * Ask the worker for a checkpoint this often while training (and at every pause): a reload or a
 * lost device loses at most this many steps less one. 10: the weights and AdamW moments of the
 * lessons' models are a few hundred KB, a small cost every 10 steps.
 */
export const CHECKPOINT_EVERY = 10;

export class PlaygroundController {
  private readonly batcher: EventBatcher;
  private readonly checkpoints: CheckpointKeeper;
  private readonly sweeps: SweepQueue;
  private readonly files: RunFiles;
  private readonly variants: LessonVariants;
  /** After an init, events of the previous model are dropped until 'ready'. */
  private awaitingReady = false;
  /** A model built from given weights for a new run (a trained model, a checkpoint): a preview group follows 'ready'. */
  private previewWanted = false;
  private lastSearch: string | null = null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly store: AppStore,
    private readonly port: TrainerPort,
    private readonly env: ControllerEnv,
  ) {
    const host: ControllerHost = {
      store,
      env,
      send: (cmd) => this.send(cmd),
      init: (config, options) => this.init(config, options),
      codeWaits: (config) => this.codeWaits(config),
    };
    this.batcher = new EventBatcher(store, (fn) => env.requestFrame(fn));
    this.checkpoints = new CheckpointKeeper(host);
    this.sweeps = new SweepQueue(host);
    this.files = new RunFiles(host);
    this.variants = new LessonVariants(host, this.files);
    this.unsubscribe.push(port.onEvent((e) => this.onEvent(e)));
    this.unsubscribe.push(
      store.subscribe((s, prev) => {
        if (
          s.config !== prev.config ||
          s.preset !== prev.preset ||
          s.view !== prev.view ||
          s.zoom !== prev.zoom ||
          s.jump !== prev.jump
        )
          this.syncUrl();
      }),
    );
  }

  dispose(): void {
    for (const u of this.unsubscribe) u();
    this.port.send({ type: 'dispose' });
    this.port.terminate();
  }

  private get state() {
    return this.store.getState();
  }

  private send(cmd: Command): void {
    this.port.send(cmd);
  }

  /** Writes the config (and preset, view, zoom) to the URL when they change. */
  syncUrl(): void {
    const { config, preset, view, zoom, jump } = this.state;
    // A loaded trained model of this lesson is part of the link, so the link opens on it.
    const trained = jump?.label !== undefined && jump.preset === preset ? jump.label : undefined;
    const search = pageSearch(config, preset, { view, zoom, trained });
    if (search === this.lastSearch) return;
    this.lastSearch = search;
    this.env.replaceSearch(search);
  }

  // ── model lifecycle ──────────────────────────────────────────────────────────────────

  /** Builds a model in the worker. `newRun`: its steps go to a new run (made at its first step). */
  private init(config: RunConfig, options: InitOptions): void {
    if (this.codeWaits(config)) return;
    this.batcher.discard();
    this.state.setCodeFailure(null);
    this.awaitingReady = true;
    this.checkpoints.forget();
    this.previewWanted = options.newRun && options.params !== undefined;
    if (options.newRun) {
      this.state.setJump(options.jump ?? null);
      this.checkpoints.take();
      const { label, importedFrom, variant } = options;
      this.batcher.newRun = { config, preset: this.state.preset, label, importedFrom, variant };
      // The numbers and charts of the previous run go at once; it stays in the runs list.
      this.state.detachActiveRun(options.overlay ?? this.state.overlay);
      this.state.setViewStep(null);
    } else {
      // The steps go to the active run, not to one a model built before this meant to begin.
      this.batcher.newRun = null;
    }
    this.state.trainingStarting(config, options.resume?.step ?? 0);
    const cmd: Command = { type: 'init', config };
    if (options.params) cmd.params = options.params;
    if (options.resume) cmd.resume = options.resume;
    this.send(cmd);
  }

  /** The model for the current config at its seeded initial weights (page load). */
  prepare(): void {
    this.init(this.state.config, { newRun: true });
  }

  /**
   * Whether the next start needs a new model: none yet, or the config was edited before the
   * current model took a step (an edit after that waits for Reset, which starts a new run).
   */
  private needsModel(): boolean {
    const s = this.state;
    if (!s.trainerConfig || s.status === 'error' || s.status === 'lost') return true;
    return s.step === 0 && s.trainerConfig !== s.config && JSON.stringify(s.trainerConfig) !== JSON.stringify(s.config);
  }

  private ensureModel(): void {
    if (this.needsModel()) this.init(this.state.config, { newRun: true });
  }

  /**
   * Whether `config` would run code from outside (a link, a file) that the person has not read:
   * then nothing is sent, and the code panel opens to show it (docs/custom-estimators.md).
   */
  private codeWaits(config: RunConfig): boolean {
    return holdUnreadCode(this.state, config);
  }

  /**
   * Run: the person has read the code of this kind (a link's is approved by this), it is turned
   * on (estimator = custom, rewardShaping = custom), and a new run starts with it.
   */
  runWithCode(kind: CodeKind): void {
    const s = this.state;
    if (s.status === 'lost') return;
    s.approveCode();
    const key = kind === 'estimator' ? 'estimator' : 'rewardShaping';
    if ((s.config as unknown as Record<string, unknown>)[key] !== 'custom') s.setKnob(key, 'custom');
    s.setSweep(null);
    this.init(this.state.config, { newRun: true });
    this.send({ type: 'start', delayMs: s.delayMs });
  }

  start(): void {
    this.whenStopped({ type: 'start', delayMs: this.state.delayMs });
  }

  pause(): void {
    if (this.state.sweep) this.state.setSweep(null);
    this.state.pauseRequested();
    this.send({ type: 'pause' });
  }

  /** Space: start when stopped, pause when running. */
  togglePlay(): void {
    if (this.state.status === 'running') this.pause();
    else this.start();
  }

  step(): void {
    this.whenStopped({ type: 'step' });
  }

  phase(): void {
    this.whenStopped({ type: 'phase' });
  }

  /** Start, step or phase: only while stopped (not after a fault or a loss), on a model for the config. */
  private whenStopped(cmd: Command): void {
    const s = this.state;
    if (s.status === 'running' || s.status === 'lost' || s.status === 'fault') return;
    if (this.needsModel() && this.codeWaits(s.config)) return;
    this.ensureModel();
    this.send(cmd);
  }

  setSpeed(delayMs: number): void {
    this.state.setDelay(delayMs);
    this.send({ type: 'setSpeed', delayMs });
  }

  /** A new run from the seeded initial weights of the current config (edits included). */
  reset(): void {
    this.state.setSweep(null);
    this.init(this.state.config, { newRun: true });
  }

  /**
   * Picks a preset (undefined: the plain defaults): its config, its guide from the first step,
   * and a new run — a preset never continues the run of another.
   */
  choosePreset(name: string | undefined): void {
    const s = this.state;
    s.setSweep(null);
    s.choosePreset(name);
    s.setGuideStep(0);
    s.setGroupIndex(0);
    this.init(this.state.config, { newRun: true, overlay: [] });
  }

  /**
   * Runs one of the preset's comparison variants (null: the preset itself) with the current
   * seed and step budget, overlaid on the preset's own run with that seed, and starts it
   * (control/variants.ts).
   */
  runVariant(label: string | null): void | Promise<void> {
    return this.variants.run(label);
  }

  /**
   * After a fault: the same run goes on from the weights kept from before the faulty step (and
   * its optimiser state, step and level), with the settings as they are now — e.g. a lower lr.
   * The continuation is a run of its own, drawn over the one that faulted.
   */
  continueAfterFault(): void {
    const s = this.state;
    if (s.status !== 'fault' || !s.trainerConfig || !s.fault) return;
    if (this.codeWaits(s.config)) return;
    s.setCodeFailure(null);
    const diff = diffLabel(s.trainerConfig, s.config, { max: 4 });
    const faulted = s.activeRunId;
    this.batcher.discard();
    this.awaitingReady = true;
    this.batcher.newRun = {
      config: s.config,
      preset: s.preset,
      label: `continued after the fault at step ${s.fault.step}${diff ? `: ${diff}` : ''}`,
    };
    s.detachActiveRun(faulted && !s.overlay.includes(faulted) ? [...s.overlay, faulted] : s.overlay);
    s.trainingStarting(s.config, s.step);
    this.send({ type: 'continue', config: s.config });
  }

  /** Reset with a fresh random seed. */
  resetWithNewSeed(seed = 1 + Math.floor(Math.random() * 999_999)): void {
    this.state.setKnob('seed', seed);
    this.reset();
  }

  evaluate(): void {
    this.send({ type: 'eval' });
  }

  requestLearnedTable(): void {
    if (this.state.trainerConfig) this.send({ type: 'learnedTable' });
  }

  /** After a device loss: a new device, the weights of the last checkpoint, the same run. */
  resume(): void {
    const config = this.state.trainerConfig ?? this.state.config;
    const saved = this.checkpoints.latest;
    if (saved) {
      const ck = loadCheckpoint(saved.bytes);
      this.state.truncateActiveRun(ck.resume.step);
      this.init(config, { newRun: false, params: ck.params, resume: ck.resume });
      this.checkpoints.hold(saved); // init forgets it; it is still the latest
    } else {
      this.state.truncateActiveRun(0);
      this.init(config, { newRun: false });
    }
  }

  /** At start-up: the checkpoint kept before a reload, if its run is still in the list. */
  offerKeptCheckpoint(ck: KeptCheckpoint): void {
    this.checkpoints.offer(ck);
  }

  /** Continues the run whose checkpoint was kept across a reload: its weights, its steps up to the checkpoint. */
  continueKeptRun(): void {
    const s = this.state;
    const kept = this.checkpoints.take();
    const run = kept && s.runs.find((r) => r.id === kept.runId);
    if (!kept || !run) return;
    try {
      const ck = loadCheckpoint(kept.bytes, `the checkpoint of run ${run.name}`);
      s.setSweep(null);
      s.setConfig(ck.config, run.preset);
      s.reattachRun(run.id, ck.resume.step);
      this.init(ck.config, { newRun: false, params: ck.params, resume: ck.resume });
      this.checkpoints.hold({ bytes: kept.bytes, step: ck.resume.step });
    } catch (e) {
      s.notify('error', `Could not continue run ${run.name}: ${(e as Error).message}`);
    }
  }

  /** Test hook: the worker destroys its device as if it were lost. */
  simulateDeviceLoss(): void {
    this.send({ type: 'loseDevice' });
  }

  // ── sweeps and files (control/sweeps.ts, control/files.ts) ────────────────────────────

  /** Runs `knob` over `values` on the current config and seed, `steps` steps each. Returns refused values. */
  startSweep(knob: string, values: string[], steps: number): string[] {
    return this.sweeps.start(knob, values, steps);
  }

  exportRun(id: string, format: 'csv' | 'json'): void {
    this.files.exportRun(id, format);
  }

  /** Saves the current model's weights as .safetensors (asks the worker for a fresh checkpoint). */
  exportCheckpoint(): void {
    this.checkpoints.requestExport();
  }

  /** Imports a run (.json) or a checkpoint (.safetensors: weights + run config, training continues from it). */
  importFile(fileName: string, bytes: Uint8Array): void {
    this.files.importFile(fileName, bytes);
  }

  /** Loads a trained checkpoint shipped with the page (a lesson's "jump ahead"). */
  loadLessonCheckpoint(file: string, label: string): Promise<void> {
    return this.files.loadLessonCheckpoint(file, label);
  }

  // ── events ───────────────────────────────────────────────────────────────────────────

  /** Applies what arrived since the last frame to the store, in one update. */
  flush(): void {
    this.batcher.flush();
  }

  private onEvent(e: Event): void {
    // A continue whose code did not load answers with a fault (the run stays paused as it was).
    if (
      this.awaitingReady &&
      e.type !== 'ready' &&
      e.type !== 'error' &&
      e.type !== 'warmStart' &&
      !(e.type === 'fault' && e.code)
    )
      return;
    switch (e.type) {
      case 'warmStart':
        this.state.setWarmStart({ done: e.done, of: e.of, loss: e.loss });
        return;
      case 'ready':
        this.awaitingReady = false;
        this.state.trainingReady(adapterLabel(e.adapter), e.numParams);
        // A model loaded with trained weights: show what it learned at once, and what it does
        // (one group sampled from it, no update).
        if (this.state.step > 0) this.requestLearnedTableIfAny();
        if (this.previewWanted) this.send({ type: 'preview' });
        this.previewWanted = false;
        return;
      case 'preview':
        this.state.setPreviewRollout(e.rollout);
        return;
      case 'phase':
        this.batcher.phase({ phase: e.phase, step: e.step }, e.rollout);
        return;
      case 'step':
        if (e.record.step % CHECKPOINT_EVERY === 0) this.send({ type: 'checkpoint' });
        this.batcher.step(e.record, e.rollout);
        return;
      case 'eval':
        this.batcher.eval(e.record);
        return;
      case 'status':
        this.flush(); // the counter must agree with the status it comes with
        this.state.setRunning(e.running, e.step);
        if (!e.running && this.state.trainerConfig && e.step > 0) {
          this.send({ type: 'checkpoint' });
          this.requestLearnedTableIfAny();
          this.sweeps.onRunStopped(e.step);
        }
        return;
      case 'checkpoint':
        this.checkpoints.received(e.bytes, e.step);
        return;
      case 'learnedTable':
        this.state.setLearnedTable(e.table, e.step);
        return;
      case 'fault':
      case 'error':
        this.flush();
        this.awaitingReady = false;
        this.state.setSweep(null);
        if (e.type === 'fault')
          this.state.trainingFault({ step: e.step, message: e.message, tensors: e.tensors, check: e.check });
        else this.state.trainingError(e.kind, e.message);
        if (e.code)
          this.state.setCodeFailure({ ...e.code, message: e.message, ...(e.type === 'fault' ? { step: e.step } : {}) });
        return;
    }
  }

  private requestLearnedTableIfAny(): void {
    const c = this.state.trainerConfig;
    if (c && hasTableProbe(c)) this.send({ type: 'learnedTable' });
  }
}
