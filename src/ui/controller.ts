// The controller between the page and the training worker: UI actions become protocol
// commands, worker events become store updates (batched: at most one store update per
// animation frame), and it keeps what outlives a model: the last checkpoint (for a resume
// after a device loss), the sweep queue, the URL and the saved runs.
//
// The page's environment (animation frames, the URL, downloads) is injected, so the logic is
// tested in Node with a fake worker port.

import { diffLabel, pageSearch, findKnob, formatValue, mergeConfig, presetConfig, variantConfig, type RunConfig } from '../config';
import type { Command, Event } from '../worker/protocol';
import type { TrainerPort } from '../worker/client';
import type { AppStore } from '../store/store';
import type { EvalRecord, StepRecord } from '../rl/metrics';
import type { TrainingBatch } from '../store/runsSlice';
import { loadCheckpoint } from '../store/checkpointFile';
import { runFileName, runFromJson, runToCsv, runToJson } from '../store/runFiles';
import { nextRunName } from '../store/runs';
import { planSweep } from '../store/sweep';
import type { KeptCheckpoint } from '../store/archive';
import { adapterLabel } from '../gpu/device';
import { holdUnreadCode } from './code/gate';
import type { CodeKind } from '../config/custom-code';

export interface ControllerEnv {
  /** Calls `fn` before the next frame is painted (requestAnimationFrame in the page). */
  requestFrame(fn: () => void): void;
  /** Replaces the page's query string (history.replaceState). */
  replaceSearch(search: string): void;
  /** Offers bytes or text to the person as a file. */
  download(fileName: string, data: Uint8Array | string, mime: string): void;
  /** Fetches a file shipped with the page (a trained checkpoint). */
  fetchBytes?(path: string): Promise<Uint8Array>;
  /** Keeps the latest checkpoint of the run in training across a reload (IndexedDB). */
  keepCheckpoint?(ck: KeptCheckpoint): void;
}

/** How a new run begins: its label and what is drawn beside it. */
interface NewRunOptions {
  label?: string;
  importedFrom?: string;
  variant?: string;
  /** Runs overlaid on the charts beside the new one (default: the overlay as it is). */
  overlay?: string[];
}

/** Ask the worker for a checkpoint this often while training (and at every pause). */
export const CHECKPOINT_EVERY = 50;

export class PlaygroundController {
  private pending: TrainingBatch = { records: [], evals: [], rollout: null, phase: null };
  private flushScheduled = false;
  /** After an init, events of the previous model are dropped until 'ready'. */
  private awaitingReady = false;
  /** The next init begins a new run (created at its first step). */
  private newRun: { config: RunConfig; preset: string | undefined; label?: string; importedFrom?: string; variant?: string } | null = null;
  private checkpoint: { bytes: Uint8Array; step: number } | null = null;
  /** A checkpoint kept from before a reload, offered until it is taken or a new run starts. */
  private kept: KeptCheckpoint | null = null;
  private exportCheckpointWanted = false;
  private lastSearch: string | null = null;
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly store: AppStore,
    private readonly port: TrainerPort,
    private readonly env: ControllerEnv,
  ) {
    this.unsubscribe.push(port.onEvent((e) => this.onEvent(e)));
    this.unsubscribe.push(store.subscribe((s, prev) => {
      if (s.config !== prev.config || s.preset !== prev.preset || s.view !== prev.view || s.zoom !== prev.zoom) this.syncUrl();
    }));
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

  // ── URL ──────────────────────────────────────────────────────────────────────────────

  /** Writes the config (and preset, view, zoom) to the URL when they change. */
  syncUrl(): void {
    const { config, preset, view, zoom } = this.state;
    const search = pageSearch(config, preset, { view, zoom });
    if (search === this.lastSearch) return;
    this.lastSearch = search;
    this.env.replaceSearch(search);
  }

  // ── model lifecycle ──────────────────────────────────────────────────────────────────

  /** Builds a model in the worker. `newRun`: its steps go to a new run (made at its first step). */
  private init(config: RunConfig, options: { newRun: boolean; params?: Float32Array; resume?: { step: number; level: number } } & NewRunOptions): void {
    if (this.codeWaits(config)) return;
    this.discardPending();
    this.state.setCodeFailure(null);
    this.awaitingReady = true;
    this.checkpoint = null;
    this.state.setCheckpointStep(null);
    if (options.newRun) {
      this.kept = null;
      this.state.setKeptRun(null);
      const { label, importedFrom, variant } = options;
      this.newRun = { config, preset: this.state.preset, label, importedFrom, variant };
      // The numbers and charts of the previous run go at once; it stays in the runs list.
      this.state.detachActiveRun(options.overlay ?? this.state.overlay);
      this.state.setViewStep(null);
    } else {
      // The steps go to the active run, not to one a model built before this meant to begin.
      this.newRun = null;
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
    const s = this.state;
    if (s.status === 'running' || s.status === 'lost' || s.status === 'fault') return;
    if (this.needsModel() && this.codeWaits(s.config)) return;
    this.ensureModel();
    this.send({ type: 'start', delayMs: s.delayMs });
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
    const s = this.state;
    if (s.status === 'running' || s.status === 'lost' || s.status === 'fault') return;
    if (this.needsModel() && this.codeWaits(s.config)) return;
    this.ensureModel();
    this.send({ type: 'step' });
  }

  phase(): void {
    const s = this.state;
    if (s.status === 'running' || s.status === 'lost' || s.status === 'fault') return;
    if (this.needsModel() && this.codeWaits(s.config)) return;
    this.ensureModel();
    this.send({ type: 'phase' });
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
   * seed and step budget, overlaid on the preset's own run with that seed, and starts it.
   */
  runVariant(label: string | null): void {
    const s = this.state;
    const preset = s.preset;
    if (!preset || s.status === 'lost') return;
    const base = label === null ? presetConfig(preset) : variantConfig(preset, label);
    const config = mergeConfig(base, { seed: s.config.seed, steps: s.config.steps });
    const parent = [...s.runs].reverse().find(
      (r) => r.preset === preset && r.variant === undefined && r.config.seed === config.seed && r.points.length > 0,
    );
    const overlay = label !== null && parent && !s.overlay.includes(parent.id) ? [...s.overlay, parent.id] : s.overlay;
    if (this.codeWaits(config)) return;
    s.setSweep(null);
    s.setConfig(config, preset);
    this.init(config, { newRun: true, label: label ?? undefined, variant: label ?? undefined, overlay });
    this.send({ type: 'start', delayMs: s.delayMs });
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
    this.discardPending();
    this.awaitingReady = true;
    this.newRun = { config: s.config, preset: s.preset, label: `continued after the fault at step ${s.fault.step}${diff ? `: ${diff}` : ''}` };
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
    const saved = this.checkpoint;
    if (saved) {
      const ck = loadCheckpoint(saved.bytes);
      this.state.truncateActiveRun(ck.resume.step);
      this.init(config, { newRun: false, params: ck.params, resume: ck.resume });
      this.checkpoint = saved; // init forgets it; it is still the latest
      this.state.setCheckpointStep(saved.step);
    } else {
      this.state.truncateActiveRun(0);
      this.init(config, { newRun: false });
    }
  }

  /** At start-up: the checkpoint kept before a reload, if its run is still in the list. */
  offerKeptCheckpoint(ck: KeptCheckpoint): void {
    // A run that reached its step budget has nothing left to continue.
    const run = this.state.runs.find((r) => r.id === ck.runId);
    if (!run || run.points.length === 0 || (run.config.steps > 0 && ck.step >= run.config.steps)) return;
    this.kept = ck;
    this.state.setKeptRun({ runId: ck.runId, step: ck.step });
  }

  /** Continues the run whose checkpoint was kept across a reload: its weights, its steps up to the checkpoint. */
  continueKeptRun(): void {
    const s = this.state;
    const kept = this.kept;
    const run = kept && s.runs.find((r) => r.id === kept.runId);
    s.setKeptRun(null);
    this.kept = null;
    if (!kept || !run) return;
    try {
      const ck = loadCheckpoint(kept.bytes, `the checkpoint of run ${run.name}`);
      s.setSweep(null);
      s.setConfig(ck.config, run.preset);
      s.reattachRun(run.id, ck.resume.step);
      this.init(ck.config, { newRun: false, params: ck.params, resume: ck.resume });
      this.checkpoint = { bytes: kept.bytes, step: ck.resume.step };
      s.setCheckpointStep(ck.resume.step);
    } catch (e) {
      s.notify('error', `Could not continue run ${run.name}: ${(e as Error).message}`);
    }
  }

  /** Test hook: the worker destroys its device as if it were lost. */
  simulateDeviceLoss(): void {
    this.send({ type: 'loseDevice' });
  }

  // ── sweeps ───────────────────────────────────────────────────────────────────────────

  /** Runs `knob` over `values` on the current config and seed, `steps` steps each. Returns refused values. */
  startSweep(knob: string, values: string[], steps: number): string[] {
    const plan = planSweep(this.state.config, knob, values, steps);
    if (plan.configs.length === 0 || plan.configs.some((c) => this.codeWaits(c))) return plan.errors;
    this.state.setSweep({ knob, queue: plan.configs, total: plan.configs.length, running: true, runIds: [] });
    this.runNextSweepItem();
    return plan.errors;
  }

  private runNextSweepItem(): void {
    const sweep = this.state.sweep;
    if (!sweep || sweep.queue.length === 0) {
      this.state.setSweep(null);
      return;
    }
    const [config] = sweep.queue;
    this.state.setConfig(config, this.state.preset);
    // Labelled by the value chosen, and drawn over the sweep's earlier runs.
    const knob = findKnob(sweep.knob, config.task);
    const value = formatValue((config as unknown as Record<string, string | number | boolean>)[sweep.knob]);
    this.init(config, { newRun: true, label: `${knob?.label ?? sweep.knob} = ${value}`, overlay: sweep.runIds ?? [] });
    this.send({ type: 'start', delayMs: this.state.delayMs });
  }

  private onRunStopped(step: number): void {
    const sweep = this.state.sweep;
    const cfg = this.state.trainerConfig;
    if (sweep && cfg && cfg.steps > 0 && step >= cfg.steps) {
      this.state.setSweep({ ...sweep, queue: sweep.queue.slice(1) });
      this.runNextSweepItem();
    }
  }

  // ── files ────────────────────────────────────────────────────────────────────────────

  exportRun(id: string, format: 'csv' | 'json'): void {
    const run = this.state.runs.find((r) => r.id === id);
    if (!run) return;
    if (format === 'csv') this.env.download(runFileName(run, 'csv'), runToCsv(run), 'text/csv');
    else this.env.download(runFileName(run, 'json'), runToJson(run), 'application/json');
  }

  /** Saves the current model's weights as .safetensors (asks the worker for a fresh checkpoint). */
  exportCheckpoint(): void {
    if (!this.state.trainerConfig || this.state.status === 'lost') return;
    this.exportCheckpointWanted = true;
    this.send({ type: 'checkpoint' });
  }

  /** Imports a run (.json) or a checkpoint (.safetensors: weights + run config, training continues from it). */
  importFile(fileName: string, bytes: Uint8Array): void {
    const s = this.state;
    try {
      if (/\.json$/i.test(fileName) || bytes[0] === 0x7b /* { */) {
        const run = runFromJson(new TextDecoder().decode(bytes), fileName);
        s.addRun({ ...run, name: nextRunName(s.runs), label: `imported: ${run.label}` });
        s.notify('info', `Imported run ${run.name} from ${fileName} (${run.points.length} steps).`);
        return;
      }
      const ck = loadCheckpoint(bytes, fileName);
      s.setConfig(ck.config, undefined);
      // Its own code comes from elsewhere: it waits to be read.
      s.reviewCodeOf(ck.config, 'file');
      this.init(ck.config, { newRun: true, params: ck.params, resume: ck.resume, label: `from ${fileName}`, importedFrom: fileName });
      s.notify('info', `Loaded ${fileName}: weights and run config (step ${ck.resume.step}). Start to continue training it.`);
    } catch (e) {
      s.notify('error', `Could not import ${fileName}: ${(e as Error).message}`);
    }
  }

  /**
   * Loads a trained checkpoint shipped with the page (a lesson's "jump ahead"): its weights,
   * run config and step; the lesson and its guide stay. Resolves when the model is being built.
   */
  async loadLessonCheckpoint(file: string, label: string): Promise<void> {
    const s = this.state;
    const preset = s.preset;
    try {
      if (!this.env.fetchBytes) throw new Error('this page cannot fetch files');
      const bytes = await this.env.fetchBytes(file);
      const ck = loadCheckpoint(bytes, file);
      // The lesson's step budget, not the one of the run that made the checkpoint.
      const config = { ...ck.config, steps: s.config.steps };
      s.setSweep(null);
      s.setConfig(config, preset);
      this.init(config, { newRun: true, params: ck.params, resume: ck.resume, label: `trained: ${label}`, importedFrom: file, overlay: [] });
      s.notify('info', `Loaded the trained model (${label}, step ${ck.resume.step}). ▶ continues training it.`);
    } catch (e) {
      s.notify('error', `Could not load the trained model ${file}: ${(e as Error).message}`);
    }
  }

  // ── events ───────────────────────────────────────────────────────────────────────────

  private discardPending(): void {
    this.pending = { records: [], evals: [], rollout: null, phase: null };
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.env.requestFrame(() => this.flush());
  }

  /** Applies what arrived since the last frame to the store, in one update. */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.pending;
    this.discardPending();
    if (batch.records.length && this.newRun) {
      const { config, preset, label, importedFrom, variant } = this.newRun;
      this.newRun = null;
      const id = this.state.beginRun(config, preset, { label, importedFrom, variant });
      const sweep = this.state.sweep;
      if (sweep) this.state.setSweep({ ...sweep, runIds: [...(sweep.runIds ?? []), id] });
    }
    if (batch.records.length || batch.evals.length || batch.rollout || batch.phase) this.state.applyBatch(batch);
  }

  private onEvent(e: Event): void {
    // A continue whose code did not load answers with a fault (the run stays paused as it was).
    if (this.awaitingReady && e.type !== 'ready' && e.type !== 'error' && !(e.type === 'fault' && e.code)) return;
    switch (e.type) {
      case 'ready':
        this.awaitingReady = false;
        this.state.trainingReady(adapterLabel(e.adapter), e.numParams);
        // A model loaded with trained weights: show what it learned at once.
        if (this.state.step > 0) this.requestLearnedTableIfAny();
        return;
      case 'phase':
        this.pending.phase = { phase: e.phase, step: e.step };
        this.pending.rollout = e.rollout;
        this.scheduleFlush();
        return;
      case 'step':
        this.onStep(e.record);
        this.pending.rollout = e.rollout;
        this.scheduleFlush();
        return;
      case 'eval':
        this.onEval(e.record);
        return;
      case 'status':
        this.flush(); // the counter must agree with the status it comes with
        this.state.setRunning(e.running, e.step);
        if (!e.running && this.state.trainerConfig && e.step > 0) {
          this.send({ type: 'checkpoint' });
          this.requestLearnedTableIfAny();
          this.onRunStopped(e.step);
        }
        return;
      case 'checkpoint':
        this.checkpoint = { bytes: e.bytes, step: e.step };
        this.state.setCheckpointStep(e.step);
        if (this.state.activeRunId && e.step > 0) this.env.keepCheckpoint?.({ runId: this.state.activeRunId, step: e.step, bytes: e.bytes });
        if (this.exportCheckpointWanted) {
          this.exportCheckpointWanted = false;
          const c = this.state.trainerConfig;
          const name = c ? `rlvr-${c.task}-seed${c.seed}-step${e.step}.safetensors` : `rlvr-step${e.step}.safetensors`;
          this.env.download(name, e.bytes, 'application/octet-stream');
        }
        return;
      case 'learnedTable':
        this.state.setLearnedTable(e.table, e.step);
        return;
      case 'fault':
        this.flush();
        this.awaitingReady = false;
        this.state.setSweep(null);
        this.state.trainingFault({ step: e.step, message: e.message, tensors: e.tensors, check: e.check });
        if (e.code) this.state.setCodeFailure({ ...e.code, message: e.message, step: e.step });
        return;
      case 'error':
        this.flush();
        this.awaitingReady = false;
        this.state.setSweep(null);
        this.state.trainingError(e.kind, e.message);
        if (e.code) this.state.setCodeFailure({ ...e.code, message: e.message });
        return;
    }
  }

  private requestLearnedTableIfAny(): void {
    const c = this.state.trainerConfig;
    if (c && c.task === 'groupmul' && c['task.layout'] === 'interleaved') this.send({ type: 'learnedTable' });
  }

  private onStep(record: StepRecord): void {
    this.pending.records.push(record);
    if (record.step % CHECKPOINT_EVERY === 0) this.send({ type: 'checkpoint' });
  }

  /** Every held-out evaluation comes as its own event (also those inside a step record). */
  private onEval(record: EvalRecord): void {
    this.pending.evals.push(record);
    this.scheduleFlush();
  }
}
