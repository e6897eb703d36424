// The checkpoints the page holds: the latest of the model in training (for a resume after a
// device loss, and kept across a reload), the one kept from before a reload until it is taken,
// and a download the person asked for.

import type { KeptCheckpoint } from '../../store/archive';
import type { ControllerHost } from './host';

export class CheckpointKeeper {
  /** The latest checkpoint of the model in training. */
  latest: { bytes: Uint8Array; step: number } | null = null;
  /** A checkpoint kept from before a reload, offered until it is taken or a new run starts. */
  kept: KeptCheckpoint | null = null;
  private exportWanted = false;

  constructor(private readonly host: ControllerHost) {}

  private get state() {
    return this.host.store.getState();
  }

  /** A new model: its checkpoints are still to come. */
  forget(): void {
    this.latest = null;
    this.state.setCheckpointStep(null);
  }

  /** Holds `ck` as the latest (a model built from it). */
  hold(ck: { bytes: Uint8Array; step: number }): void {
    this.latest = ck;
    this.state.setCheckpointStep(ck.step);
  }

  /** Saves the current model's weights as .safetensors (asks the worker for a fresh checkpoint). */
  requestExport(): void {
    if (!this.state.trainerConfig || this.state.status === 'lost') return;
    this.exportWanted = true;
    this.host.send({ type: 'checkpoint' });
  }

  /** The worker's checkpoint: held, kept across a reload, and downloaded when asked for. */
  received(bytes: Uint8Array, step: number): void {
    this.hold({ bytes, step });
    const s = this.state;
    if (s.activeRunId && step > 0) this.host.env.keepCheckpoint?.({ runId: s.activeRunId, step, bytes });
    if (!this.exportWanted) return;
    this.exportWanted = false;
    const c = s.trainerConfig;
    const name = c ? `rlvr-${c.task}-seed${c.seed}-step${step}.safetensors` : `rlvr-step${step}.safetensors`;
    this.host.env.download(name, bytes, 'application/octet-stream');
  }

  /** At start-up: the checkpoint kept before a reload, if its run is still in the list. */
  offer(ck: KeptCheckpoint): void {
    // A run that reached its step budget has nothing left to continue.
    const run = this.state.runs.find((r) => r.id === ck.runId);
    if (!run || run.points.length === 0 || (run.config.steps > 0 && ck.step >= run.config.steps)) return;
    this.kept = ck;
    this.state.setKeptRun({ runId: ck.runId, step: ck.step });
  }

  /** The kept checkpoint, taken (it is offered no more). */
  take(): KeptCheckpoint | null {
    const kept = this.kept;
    this.kept = null;
    this.state.setKeptRun(null);
    return kept;
  }
}
