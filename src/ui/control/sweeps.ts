// The page's sweep queue: one knob over several values on the same config and seed, each value
// a run of its own, started when the one before reaches its step budget.

import { findKnob, formatValue } from '../../config';
import { planSweep } from '../../store/sweep';
import type { ControllerHost } from './host';

export class SweepQueue {
  constructor(private readonly host: ControllerHost) {}

  private get state() {
    return this.host.store.getState();
  }

  /** Runs `knob` over `values` on the current config and seed, `steps` steps each. Returns refused values. */
  start(knob: string, values: string[], steps: number): string[] {
    const plan = planSweep(this.state.config, knob, values, steps);
    if (plan.configs.length === 0 || plan.configs.some((c) => this.host.codeWaits(c))) return plan.errors;
    this.state.setSweep({ knob, queue: plan.configs, total: plan.configs.length, running: true, runIds: [] });
    this.runNext();
    return plan.errors;
  }

  /** A run stopped at `step`: when it finished its budget, the next value's run starts. */
  onRunStopped(step: number): void {
    const sweep = this.state.sweep;
    const cfg = this.state.trainerConfig;
    if (sweep && cfg && cfg.steps > 0 && step >= cfg.steps) {
      this.state.setSweep({ ...sweep, queue: sweep.queue.slice(1) });
      this.runNext();
    }
  }

  private runNext(): void {
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
    this.host.init(config, {
      newRun: true,
      label: `${knob?.label ?? sweep.knob} = ${value}`,
      overlay: sweep.runIds ?? [],
    });
    this.host.send({ type: 'start', delayMs: this.state.delayMs });
  }
}
