// What a run needs besides its weights to continue exactly where it stopped: AdamW's moments,
// the KL reference weights, and the trainer's counters and random-stream positions. Saved next
// to a checkpoint as `<name>.state.safetensors` (tensors optimizer.m, optimizer.v, reference;
// the counters as JSON in the metadata), so a resumed run gives the metrics the uninterrupted
// run would have given.

import type { MappSnapshot } from '../estimators/mapp';
import type { OptimizerState, PolicyEngine } from './engine';
import {
  CheckpointError,
  readingFile,
  readF32Tensor,
  readSafetensorsFile,
  writeSafetensorsFile,
  type SafetensorsFile,
  type TensorToWrite,
} from '../model/safetensors-file';

export const TRAINER_STATE_FORMAT = 'rlvr-trainer-state';
export const TRAINER_STATE_VERSION = 1;

export interface TrainerState {
  /** RL steps completed. */
  stepCount: number;
  /** Optimiser updates applied (AdamW's bias correction and the lr warm-up count them). */
  optStep: number;
  /** SFT warm-start steps completed. */
  sftStepsDone: number;
  level: number;
  /** The entropy bonus α (it moves with entropyTarget). */
  alpha: number;
  /** Steps since the last curriculum advance. */
  sinceAdvance: number;
  /** Whether the KL reference has been taken. */
  refReady: boolean;
  /** Completion positions below this get the KL term; null = all. */
  klLimit: number | null;
  /** Held-out evaluations so far (part of their sampling key). */
  evalCount: number;
  /** Draws made from the task and minibatch-shuffle streams. */
  taskRng: number;
  shuffleRng: number;
  mapp: MappSnapshot | null;
  /** The divergence guard's recent update norms. */
  guard: number[];
}

export interface ResumePoint {
  state: TrainerState;
  optimizer: OptimizerState;
  /** The KL reference weights, when the run has taken them. */
  reference: Float32Array | null;
}

const COUNTERS = [
  'stepCount',
  'optStep',
  'sftStepsDone',
  'sinceAdvance',
  'evalCount',
  'taskRng',
  'shuffleRng',
] as const;

/** Checks the shape of a saved state; every error names the field. Ranges that depend on the config are the trainer's. */
export function parseTrainerState(raw: unknown, where = 'trainer state'): TrainerState {
  const fail = (field: string, why: string): never => {
    throw new CheckpointError(`${where}: ${field} ${why}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('', 'must be a JSON object');
  const r = raw as Record<string, unknown>;
  for (const k of COUNTERS) {
    if (!Number.isSafeInteger(r[k]) || (r[k] as number) < 0)
      fail(k, `must be a non-negative integer, got ${JSON.stringify(r[k])}`);
  }
  if (!Number.isSafeInteger(r.level)) fail('level', `must be an integer, got ${JSON.stringify(r.level)}`);
  if (typeof r.alpha !== 'number' || !Number.isFinite(r.alpha) || r.alpha < 0)
    fail('alpha', `must be a finite number ≥ 0, got ${JSON.stringify(r.alpha)}`);
  if (typeof r.refReady !== 'boolean') fail('refReady', `must be true or false, got ${JSON.stringify(r.refReady)}`);
  if (r.klLimit !== null && (!Number.isSafeInteger(r.klLimit) || (r.klLimit as number) < 0)) {
    fail('klLimit', `must be null or a non-negative integer, got ${JSON.stringify(r.klLimit)}`);
  }
  if (
    !Array.isArray(r.guard) ||
    r.guard.length > 1000 ||
    !r.guard.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0)
  ) {
    fail('guard', 'must be a list of at most 1000 finite numbers ≥ 0');
  }
  let mapp: MappSnapshot | null = null;
  if (r.mapp !== null && r.mapp !== undefined) {
    const m = r.mapp as Record<string, unknown>;
    const posteriors = m?.posteriors as Record<string, { alpha: unknown; beta: unknown }> | undefined;
    if (
      typeof m !== 'object' ||
      typeof m.options !== 'object' ||
      m.options === null ||
      typeof posteriors !== 'object' ||
      posteriors === null
    ) {
      fail('mapp', 'must be null or {options, posteriors}');
    }
    for (const [k, v] of Object.entries(posteriors!)) {
      if (
        typeof v !== 'object' ||
        v === null ||
        !(Number(v.alpha) > 0) ||
        !(Number(v.beta) > 0) ||
        !Number.isFinite(Number(v.alpha)) ||
        !Number.isFinite(Number(v.beta))
      ) {
        fail(`mapp.posteriors["${k}"]`, 'must be {alpha, beta}, finite numbers > 0');
      }
    }
    mapp = m as unknown as MappSnapshot;
  }
  return {
    stepCount: r.stepCount as number,
    optStep: r.optStep as number,
    sftStepsDone: r.sftStepsDone as number,
    level: r.level as number,
    alpha: r.alpha as number,
    sinceAdvance: r.sinceAdvance as number,
    refReady: r.refReady as boolean,
    klLimit: r.klLimit as number | null,
    evalCount: r.evalCount as number,
    taskRng: r.taskRng as number,
    shuffleRng: r.shuffleRng as number,
    mapp,
    guard: (r.guard as number[]).slice(),
  };
}

/**
 * FNV-1a over the weights' bytes: ties a state file to the checkpoint it was saved with (the two
 * files are written one after the other, so a crash between them must not pair the wrong ones).
 */
export function weightsChecksum(params: Float32Array): string {
  const bytes = new Uint8Array(params.buffer, params.byteOffset, params.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * The state file's bytes for a resume point saved with weights `params`; `engine` (when given)
 * records which engine trained them, so that a resumed run continues on the same one.
 */
export function writeTrainerStateFile(
  point: ResumePoint,
  params: Float32Array,
  engine?: PolicyEngine['kind'],
): Uint8Array {
  const P = params.length;
  const tensors: TensorToWrite[] = [
    { name: 'optimizer.m', shape: [P], values: point.optimizer.m },
    { name: 'optimizer.v', shape: [P], values: point.optimizer.v },
  ];
  if (point.reference) tensors.push({ name: 'reference', shape: [P], values: point.reference });
  return writeSafetensorsFile(tensors, {
    format: TRAINER_STATE_FORMAT,
    version: String(TRAINER_STATE_VERSION),
    weights_checksum: weightsChecksum(params),
    state: JSON.stringify(point.state),
    ...(engine ? { engine } : {}),
  });
}

/** A resume point as read from its file, with the engine that wrote it (null: not recorded, as in older files). */
export interface SavedResumePoint extends ResumePoint {
  engine: PolicyEngine['kind'] | null;
}

/**
 * Reads a state file saved with the weights `params` (the checkpoint's, in the parameter
 * buffer's layout); refuses one saved with other weights. Errors name the file's part at fault.
 */
export function readTrainerStateFile(bytes: Uint8Array, params: Float32Array, where = 'state file'): SavedResumePoint {
  const file: SafetensorsFile = readingFile(where, () => readSafetensorsFile(bytes));
  const meta = file.metadata;
  if (meta.format !== TRAINER_STATE_FORMAT) {
    throw new CheckpointError(
      `${where}: not a trainer state file (__metadata__.format must be "${TRAINER_STATE_FORMAT}", got ${JSON.stringify(meta.format)})`,
    );
  }
  if (meta.version !== String(TRAINER_STATE_VERSION)) {
    throw new CheckpointError(
      `${where}: version ${JSON.stringify(meta.version)}; this playground reads version ${TRAINER_STATE_VERSION}`,
    );
  }
  if (meta.weights_checksum !== weightsChecksum(params)) {
    throw new CheckpointError(
      `${where}: saved with other weights than the checkpoint beside it (weights checksum ${JSON.stringify(meta.weights_checksum)}, ` +
        `the checkpoint's is "${weightsChecksum(params)}"); the two were not written together`,
    );
  }
  let rawState: unknown;
  try {
    rawState = JSON.parse(meta.state ?? '');
  } catch {
    throw new CheckpointError(`${where}: __metadata__.state is not valid JSON`);
  }
  const state = parseTrainerState(rawState, `${where}: state`);
  const P = params.length;
  const tensor = (name: string, required: boolean): Float32Array | null => {
    const e = file.tensors.get(name);
    if (!e) {
      if (required) throw new CheckpointError(`${where}: missing tensor "${name}" (shape [${P}])`);
      return null;
    }
    if (e.shape.length !== 1 || e.shape[0] !== P)
      throw new CheckpointError(`${where}: tensor "${name}": shape [${e.shape}], expected [${P}]`);
    const values = readF32Tensor(file, e);
    if (!values.every(Number.isFinite)) throw new CheckpointError(`${where}: tensor "${name}" holds non-finite values`);
    return values;
  };
  const m = tensor('optimizer.m', true)!;
  const v = tensor('optimizer.v', true)!;
  const reference = tensor('reference', false);
  for (const name of file.tensors.keys()) {
    if (!['optimizer.m', 'optimizer.v', 'reference'].includes(name))
      throw new CheckpointError(`${where}: unexpected tensor "${name}"`);
  }
  if (state.refReady && !reference)
    throw new CheckpointError(`${where}: state.refReady is true but the tensor "reference" is missing`);
  const engine = meta.engine ?? null;
  if (engine !== null && engine !== 'gpu' && engine !== 'cpu')
    throw new CheckpointError(`${where}: __metadata__.engine must be "gpu" or "cpu", got ${JSON.stringify(engine)}`);
  return { state, optimizer: { m, v }, reference, engine };
}
