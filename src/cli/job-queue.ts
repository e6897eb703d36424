// A queue of jobs run at most `parallel` at a time, in order; stop() starts nothing more and asks
// the running jobs to stop. No scheduler: one machine, a fixed number of slots.

export interface RunningJob {
  /** Resolves with the job's exit code. */
  done: Promise<number>;
  /** Asks the job to stop (it still resolves `done`). */
  stop(): void;
}

export interface JobResult {
  /** The exit code; null for a job never started (the queue was stopped first). */
  code: number | null;
  seconds: number;
}

export class JobQueue<T> {
  private readonly running = new Set<RunningJob>();
  private stopped = false;

  constructor(
    private readonly items: readonly T[],
    private readonly parallel: number,
    private readonly start: (item: T, index: number) => RunningJob,
  ) {
    if (!Number.isInteger(parallel) || parallel < 1)
      throw new RangeError(`parallel must be a positive integer, got ${parallel}`);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Runs every job (or until stop()); results in the items' order. */
  async run(): Promise<JobResult[]> {
    const results: JobResult[] = this.items.map(() => ({ code: null, seconds: 0 }));
    let next = 0;
    const worker = async () => {
      while (!this.stopped && next < this.items.length) {
        const i = next++;
        const t0 = Date.now();
        const job = this.start(this.items[i], i);
        this.running.add(job);
        try {
          results[i] = { code: await job.done, seconds: (Date.now() - t0) / 1000 };
        } finally {
          this.running.delete(job);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.parallel, this.items.length) }, worker));
    return results;
  }

  /** Starts nothing more; asks each running job to stop. Calling it again asks again. */
  stop(): void {
    this.stopped = true;
    for (const job of this.running) job.stop();
  }
}
