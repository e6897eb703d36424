// The typed messages between the page and the training worker (docs/architecture.md: the UI
// never touches the trainer's GPU objects; it sends commands and receives plain data).

import type { RunConfig } from '../config/config';
import type { EvalRecord, Phase, StepRecord } from '../rl/step-metrics';
import type { RolloutShape } from '../rl/rollout';
import type { TaskInstance } from '../tasks/types';
import type { AdapterDescription } from '../gpu/device';
import type { LearnedTable } from '../rl/learned-table';
import type { CodeLocation } from '../rl/custom/custom-code-errors';

export type { LearnedTable };

// ── page → worker ─────────────────────────────────────────────────────────────────────────

export type Command =
  /**
   * Build the model and trainer for this config (seeded init, or the given weights). With
   * `resume` (weights from a checkpoint of a run that had trained), the step counter and the
   * curriculum level continue from there instead of starting at 0.
   */
  | { type: 'init'; config: RunConfig; params?: Float32Array; resume?: { step: number; level: number } }
  /**
   * Rebuild the trainer with this config from the current one's state — weights, AdamW moments,
   * KL reference, step, level, random streams — so a run that faulted (its weights are those from
   * before the faulty step) continues with new settings, e.g. a lower learning rate.
   */
  | { type: 'continue'; config: RunConfig }
  /** Train continuously; `delayMs` between steps sets the speed (0 = as fast as possible). */
  | { type: 'start'; delayMs: number }
  | { type: 'pause' }
  /** Exactly one whole step. */
  | { type: 'step' }
  /** Advance one phase of the current step (sample → verify → advantages → update). */
  | { type: 'phase' }
  | { type: 'setSpeed'; delayMs: number }
  /** Held-out evaluation now. */
  | { type: 'eval' }
  /** Ask for the checkpoint (.safetensors bytes). */
  | { type: 'checkpoint' }
  /**
   * One group sampled from the current model, verified and with advantages, and no update: what
   * a loaded model does, at once. Neither the step nor any random stream of the run moves, so
   * the run after it is the same as without it.
   */
  | { type: 'preview' }
  /** Ask for the policy's learned table, when the task has one (Task.tableProbe: groupmul's interleaved layout). */
  | { type: 'learnedTable' }
  /** Test hook: destroy the device as if the GPU were lost (exercises the recovery path). */
  | { type: 'loseDevice' }
  | { type: 'dispose' };

// ── worker → page ─────────────────────────────────────────────────────────────────────────

/** The latest step's rollouts, as plain data for the inspector and task views. */
export interface RolloutView {
  step: number;
  /** A group sampled from the model at `step` without an update (the 'preview' command). */
  preview?: boolean;
  /** The phase this view is after; before 'verify' the rewards are still zeros. Absent: a whole step. */
  phase?: Phase;
  shape: RolloutShape;
  instances: TaskInstance[];
  vocab: string[];
  /** [N,T] */
  tokens: Int32Array;
  /** [N·Lc] completion-space: 1 where the policy sampled a trained token */
  mask: Float32Array;
  /** [N·Lc] entropy of the distribution each token was sampled from */
  entropy: Float32Array;
  /** [N·Lc] log π_old of each sampled token */
  logp: Float32Array;
  /** [N] */
  rewards: Float64Array;
  correct: Uint8Array;
  /** [N·Lc] per-token advantage (present from the advantages phase on) */
  advantages?: Float32Array;
  /** [N] response-level advantage */
  seqAdvantages?: Float64Array;
  /** [N·Lc] importance ratio π_new/π_old of each trained token after the update (1 where untrained) */
  ratio?: Float32Array;
}

export type Event =
  | { type: 'ready'; adapter: AdapterDescription; numParams: number; vocab: string[] }
  /** Progress of the supervised warm start that runs before 'ready' (a few a second at most). */
  | { type: 'warmStart'; done: number; of: number; loss: number }
  | { type: 'phase'; phase: Phase; step: number; rollout: RolloutView }
  | { type: 'step'; record: StepRecord; rollout: RolloutView }
  | { type: 'eval'; record: EvalRecord }
  | { type: 'status'; running: boolean; step: number }
  | { type: 'checkpoint'; bytes: Uint8Array; step: number }
  | { type: 'learnedTable'; table: LearnedTable | null; step: number }
  /** The 'preview' group (rollout.preview is true; rollout.step is the model's step). */
  | { type: 'preview'; rollout: RolloutView }
  /** A training fault: the run is paused, weights from before `step` are kept. `code`: the run's own code failed, there. */
  | { type: 'fault'; step: number; message: string; tensors: string[]; check: string; code?: CodeLocation }
  /** WebGPU missing, device lost, or a bad config: the message is for a person. `code`: the run's own code cannot load. */
  | { type: 'error'; kind: 'no-webgpu' | 'device-lost' | 'config' | 'internal'; message: string; code?: CodeLocation };
