// Runs an ablation in the page: every (cell, seed) of the spec is a job, trained K at once, each
// in its own training worker (and so on its own GPU device: the trainers never wait on each
// other's submissions). A worker takes the next queued job when its run reaches the step budget.
// Each job writes into a kept run (labelled "cell · seed N"), so the runs can be overlaid,
// exported and survive a reload like any other; the statistics are computed from them
// (src/ablation/), the same way `rlvr sweep` computes them from its run folders.
//
// Step records are batched and written to the store at most once per animation frame.

import { ablationRunConfig, type AblationSpec } from '../../ablation/spec';
import { ablationCells } from '../../ablation/spec';
import type { EvalRecord, StepRecord } from '../../rl/step-metrics';
import type { AppStore } from '../../store/store';
import type { AblationJob } from '../../store/ablationSlice';
import { makeRun } from '../../store/kept-runs';
import type { TrainerPort } from '../../worker/client';
import type { Event } from '../../worker/protocol';

export interface RunnerEnv {
  /** A new training worker. */
  makePort(): TrainerPort;
  /** Calls `fn` before the next frame is painted. */
  requestFrame(fn: () => void): void;
  now(): number;
}

/** Runs at once by default: enough to keep a GPU busy, few enough for a laptop's memory. */
export const DEFAULT_CONCURRENCY = 2;
export const MAX_CONCURRENCY = 8;

interface Worker {
  port: TrainerPort;
  job: AblationJob | null;
  unsubscribe: () => void;
}

export class AblationRunner {
  private workers: Worker[] = [];
  private queue: AblationJob[] = [];
  private steps = 0;
  /** The weights every run starts from (the spec's init, fetched by the caller); undefined: random. */
  private initParams: Float32Array | undefined;
  private pending = new Map<string, { records: StepRecord[]; evals: EvalRecord[]; step: number }>();
  private flushScheduled = false;

  constructor(
    private readonly store: AppStore,
    private readonly env: RunnerEnv,
  ) {}

  /**
   * Starts an ablation: its runs are made at once (empty), then trained `concurrency` at a time,
   * each from `initParams` when the spec has an init (its checkpoint's weights), else from random
   * weights.
   */
  start(spec: AblationSpec, concurrency: number, initParams?: Float32Array): void {
    if (spec.init !== null && !initParams)
      throw new Error(`its runs start from ${spec.init}, whose weights were not given`);
    this.stop();
    this.initParams = spec.init !== null ? initParams : undefined;
    const s = this.store.getState();
    const cells = ablationCells(spec);
    const jobs: AblationJob[] = [];
    for (const cell of cells) {
      for (const seed of spec.seeds) {
        const config = ablationRunConfig(spec, cell, seed); // throws a named ConfigError before anything runs
        const run = makeRun(this.store.getState().runs, config, spec.preset, {
          label: `${cell.label} · seed ${seed}`,
          ...(cell.variant ? { variant: cell.variant } : {}),
        });
        s.addRun(run);
        jobs.push({ cell: cell.label, seed, runId: run.id, status: 'queued', step: 0 });
      }
    }
    this.steps = spec.steps;
    this.queue = [...jobs];
    const k = Math.max(1, Math.min(MAX_CONCURRENCY, concurrency, jobs.length));
    s.setAblation({ spec, cells, jobs, concurrency: k, startedAt: this.env.now(), finishedAt: null });
    for (let i = 0; i < k; i++) this.addWorker();
  }

  /** Stops every worker; runs in progress keep the steps they made and are marked failed ("stopped"). */
  stop(): void {
    this.flush();
    for (const w of this.workers) {
      w.unsubscribe();
      w.port.terminate();
      if (w.job) this.store.getState().updateAblationJob(w.job.runId, { status: 'failed', message: 'stopped' });
    }
    for (const job of this.queue)
      this.store.getState().updateAblationJob(job.runId, { status: 'failed', message: 'stopped' });
    const a = this.store.getState().ablation;
    if (a && this.workers.length > 0 && a.finishedAt === null) this.store.getState().finishAblation(this.env.now());
    this.workers = [];
    this.queue = [];
  }

  get running(): boolean {
    return this.workers.some((w) => w.job !== null);
  }

  private addWorker(): void {
    const port = this.env.makePort();
    const worker: Worker = { port, job: null, unsubscribe: () => {} };
    worker.unsubscribe = port.onEvent((e) => this.onEvent(worker, e));
    this.workers.push(worker);
    this.next(worker);
  }

  /** Gives the worker the next queued job, or lets it go when there is none. */
  private next(worker: Worker): void {
    const job = this.queue.shift();
    if (!job) {
      worker.job = null;
      worker.unsubscribe();
      worker.port.send({ type: 'dispose' });
      worker.port.terminate();
      this.workers = this.workers.filter((w) => w !== worker);
      if (this.workers.length === 0) {
        this.flush();
        this.store.getState().finishAblation(this.env.now());
      }
      return;
    }
    const a = this.store.getState().ablation!;
    const cell = a.cells.find((c) => c.label === job.cell)!;
    worker.job = job;
    this.store.getState().updateAblationJob(job.runId, { status: 'running' });
    worker.port.send({
      type: 'init',
      config: ablationRunConfig(a.spec, cell, job.seed),
      ...(this.initParams ? { params: this.initParams } : {}),
    });
  }

  private onEvent(worker: Worker, e: Event): void {
    const job = worker.job;
    if (!job) return;
    switch (e.type) {
      case 'ready':
        worker.port.send({ type: 'start', delayMs: 0 });
        return;
      case 'step':
        this.pendingOf(job.runId).records.push(e.record);
        this.pendingOf(job.runId).step = e.record.step;
        this.scheduleFlush();
        return;
      case 'eval':
        // Evaluations inside a step come with its record too; the standalone event is the one kept.
        this.pendingOf(job.runId).evals.push(e.record);
        this.scheduleFlush();
        return;
      case 'status':
        if (!e.running && e.step >= this.steps) this.finish(worker, job, { status: 'done', step: e.step });
        return;
      case 'fault':
        this.finish(worker, job, {
          status: 'failed',
          step: e.step - 1,
          message: `fault at step ${e.step}: ${e.message}`,
        });
        return;
      case 'error':
        this.finish(worker, job, { status: 'failed', message: e.message });
        return;
      default:
        return;
    }
  }

  private finish(
    worker: Worker,
    job: AblationJob,
    patch: Partial<Pick<AblationJob, 'status' | 'step' | 'message'>>,
  ): void {
    this.flush();
    this.store.getState().updateAblationJob(job.runId, patch);
    this.next(worker);
  }

  private pendingOf(runId: string) {
    let p = this.pending.get(runId);
    if (!p) this.pending.set(runId, (p = { records: [], evals: [], step: 0 }));
    return p;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    this.env.requestFrame(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const s = this.store.getState();
    for (const [runId, p] of this.pending) {
      s.appendToRun(runId, p.records, p.evals);
      if (p.step > 0) s.updateAblationJob(runId, { step: p.step });
    }
    this.pending.clear();
  }
}
