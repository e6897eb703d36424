// When a headless run is asked to stop: Ctrl-C (SIGINT), a kill (SIGTERM), a closed terminal
// (SIGHUP), or, for a run that `rlvr sweep` started, that sweep gone (killed outright it cannot
// stop its runs, and they would train on as orphans into folders the next sweep reuses). Each
// ends the run after its current step, with its checkpoint; a second signal quits at once.

/** The signals that ask a run or a sweep to stop. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Set by rlvr sweep in its runs' environment: the sweep's process id. */
export const SWEEP_PID_ENV = 'RLVR_SWEEP_PID';

/** The reason a run stopped early: a signal's name, or "sweep-gone". */
export type StopReason = (typeof STOP_SIGNALS)[number] | 'sweep-gone';

export class StopRequests {
  private reason: StopReason | null = null;
  private at = 0;
  private readonly sweepPid = Number(process.env[SWEEP_PID_ENV]);
  private readonly onSignal = (sig: NodeJS.Signals) => {
    if (this.reason) {
      // A terminal's Ctrl-C reaches `npm run` and this process both, and npm may relay it: a
      // repeat within a second is the same request.
      if (Date.now() - this.at < 1000) return;
      this.quit();
    }
    this.stop(
      sig as StopReason,
      `\n${sig}: stopping after this step and writing the checkpoint (again to quit at once)`,
    );
  };

  constructor(
    private readonly err: (s: string) => void,
    private readonly quit: () => never,
  ) {}

  install(): this {
    for (const s of STOP_SIGNALS) process.on(s, this.onSignal);
    return this;
  }

  uninstall(): void {
    for (const s of STOP_SIGNALS) process.off(s, this.onSignal);
  }

  /** Why the run should stop, or null to go on (checked between steps). */
  get stopReason(): StopReason | null {
    if (!this.reason && Number.isInteger(this.sweepPid) && this.sweepPid > 0 && process.ppid !== this.sweepPid) {
      this.stop(
        'sweep-gone',
        `the sweep that started this run (process ${this.sweepPid}) is gone: stopping after this step and writing the checkpoint`,
      );
    }
    return this.reason;
  }

  private stop(reason: StopReason, message: string): void {
    this.reason = reason;
    this.at = Date.now();
    this.err(message);
  }
}
