// GPU builders of the training kernels (docs/engine.md): the logits' statistics and backward,
// the policy-gradient and cross-entropy losses with their uniform blocks, the gradient and
// update norms, and AdamW. The conventions are those of ops.ts.

import { createStorage, groups1d, uniformFrom } from './buffers';
import { makeDispatch, type Buf, type Dispatch } from './dispatch';
import * as work from './kernel-work';
import {
  ADAMW_BLOCK,
  CE_BLOCK,
  GRAD_NORM_WG,
  gradNormGroups,
  PG_BLOCK,
  PG_STATS,
  REGULATOR,
  type AdamwParams,
  type CeLossParams,
  type GradNormOptions,
  type LogitsShape,
  type PgLossParams,
} from '../core/abi';
import {
  bindBlock,
  grid,
  need,
  needAll,
  positiveInts,
  rowWorkgroup,
  u32Uniform,
  WG,
  blockBuffers,
} from './op-plumbing';

// ─── logits ─────────────────────────────────────────────────────────────────────────────────

/**
 * logp[R] (=), entropy[R] (=) of softmax(logits·invTemp); with regulator = REGULATOR.uniform the
 * second output is U = mean_j log p_j instead of H. One workgroup per row.
 */
export function logitsStatsOp(
  device: GPUDevice,
  logp: Buf, // [R]
  entropy: Buf, // [R] H (or U)
  logits: Buf, // [R, V]
  targets: Buf, // [R] i32
  shape: LogitsShape,
): Dispatch[] {
  const { R, V } = shape;
  const op = 'logitsStats';
  positiveInts(op, { R, V });
  needAll(op, { logp, entropy, targets }, R);
  need(op, 'logits', logits, R * V);
  const bindings = [logp, entropy, logits, targets];
  return logitsRowsOp(device, op, 'logits_stats', bindings, shape, work.logitsStatsWork(R, V));
}

/** dlogits[R,V] (=) for L = Σ dlogp·logp + dent·reg (reg: H, or U for REGULATOR.uniform). One workgroup per row. */
export function logitsBackwardOp(
  device: GPUDevice,
  dlogits: Buf, // [R, V]
  logits: Buf, // [R, V]
  targets: Buf, // [R] i32
  dlogp: Buf, // [R]
  dent: Buf, // [R]
  shape: LogitsShape,
): Dispatch[] {
  const { R, V } = shape;
  const op = 'logitsBackward';
  positiveInts(op, { R, V });
  needAll(op, { dlogits, logits }, R * V);
  needAll(op, { targets, dlogp, dent }, R);
  const bindings = [dlogits, logits, targets, dlogp, dent];
  return logitsRowsOp(device, op, 'logits_backward', bindings, shape, work.logitsBackwardWork(R, V));
}

/** The one dispatch of a logits kernel: a workgroup per row of V logits; the uniform (R, V, invTemp, regulator). */
function logitsRowsOp(
  device: GPUDevice,
  op: string,
  kernel: string,
  bindings: Buf[],
  { R, V, invTemp, regulator = REGULATOR.entropy }: LogitsShape,
  kernelWork: work.KernelWork,
): Dispatch[] {
  return [
    makeDispatch(device, {
      kernel,
      bindings,
      uniform: uniformFrom(
        device,
        [
          [R, 'u32'],
          [V, 'u32'],
          [invTemp, 'f32'],
          [regulator, 'u32'],
        ],
        op,
      ),
      overrides: { WG: rowWorkgroup(V) },
      workgroups: grid(R, 1),
      work: kernelWork,
    }),
  ];
}

// ─── losses ─────────────────────────────────────────────────────────────────────────────────

/** A uniform buffer for pgLossOp's parameters (rewrite it with writePgLossParams). */
export const { create: createPgLossParams, write: writePgLossParams } = blockBuffers<PgLossParams>(PG_BLOCK);

/**
 * Policy-gradient loss: dlogp, dent (=) per token, seqLoss, stats (=) per sequence.
 * Two dispatches (per token, then per sequence); allocates its [N·T,4] scratch here.
 */
export function pgLossOp(
  device: GPUDevice,
  dlogp: Buf, // [N·T]
  dent: Buf, // [N·T]
  seqLoss: Buf, // [N]
  stats: Buf, // [N, 8]
  logp: Buf, // [N·T]
  oldLogp: Buf, // [N·T]
  refLogp: Buf, // [N·T]
  adv: Buf, // [N·T]
  mask: Buf, // [N·T]
  klMask: Buf, // [N·T]
  entropy: Buf, // [N·T]
  N: number,
  T: number,
  params: PgLossParams | GPUBuffer,
): Dispatch[] {
  const op = 'pgLoss';
  positiveInts(op, { N, T });
  const R = N * T;
  need(op, 'dlogp', dlogp, R);
  need(op, 'dent', dent, R);
  need(op, 'seqLoss', seqLoss, N);
  need(op, 'stats', stats, N * PG_STATS);
  const inputs = { logp, oldLogp, refLogp, adv, mask, klMask, entropy };
  needAll(op, inputs, R);
  const uniform = bindBlock(device, params, PG_BLOCK, [N, T]);
  const scratch = createStorage(device, R * 16, 'pg_loss per-token scratch');
  return [
    makeDispatch(device, {
      kernel: 'pg_loss',
      entryPoint: 'per_token',
      bindings: [null, null, null, null, logp, oldLogp, refLogp, null, null, klMask, entropy, scratch],
      uniform,
      workgroups: grid(R, WG),
      work: work.pgLossPerTokenWork(N, T),
    }),
    makeDispatch(device, {
      kernel: 'pg_loss',
      entryPoint: 'per_sequence',
      bindings: [dlogp, dent, seqLoss, stats, null, null, null, adv, mask, null, null, scratch],
      uniform,
      workgroups: [groups1d(N, WG), 1, 1],
      work: work.pgLossPerSequenceWork(N, T),
    }),
  ];
}

export const { create: createCeLossParams, write: writeCeLossParams } = blockBuffers<CeLossParams>(CE_BLOCK);

/** SFT loss: dlogp (=) = −scale·mask, seqLoss[n] (=) = −scale·Σ_t mask·logp. */
export function ceLossOp(
  device: GPUDevice,
  dlogp: Buf, // [N·T]
  seqLoss: Buf, // [N]
  logp: Buf, // [N·T]
  mask: Buf, // [N·T]
  N: number,
  T: number,
  scale: number | GPUBuffer,
): Dispatch[] {
  const op = 'ceLoss';
  positiveInts(op, { N, T });
  need(op, 'dlogp', dlogp, N * T);
  need(op, 'seqLoss', seqLoss, N);
  need(op, 'logp', logp, N * T);
  need(op, 'mask', mask, N * T);
  const uniform = bindBlock(device, typeof scale === 'number' ? { scale } : scale, CE_BLOCK, [N, T]);
  return [
    makeDispatch(device, {
      kernel: 'ce_loss',
      bindings: [dlogp, seqLoss, logp, mask],
      uniform,
      workgroups: [groups1d(N, WG), 1, 1],
      work: work.ceLossWork(N, T),
    }),
  ];
}

// ─── optimiser ──────────────────────────────────────────────────────────────────────────────

/**
 * out[0] (=) sqrt(Σ g²), out[1] (=) 1 if any g is not finite. A fixed-order two-stage
 * reduction: two dispatches; allocates its partials here.
 */
export function gradNormOp(
  device: GPUDevice,
  out: Buf, // [2]
  grads: Buf, // [P]
  P: number,
  opts: GradNormOptions = {},
): Dispatch[] {
  return normDispatches(device, 'gradNorm', out, grads, null, P, opts);
}

/**
 * out[0] (=) sqrt(Σ (a − b)²), out[1] (=) 1 if any a − b is not finite: how far an update moved
 * the weights (a the new weights, b a copy from before). Two dispatches, as gradNormOp.
 */
export function diffNormOp(
  device: GPUDevice,
  out: Buf, // [2]
  a: Buf, // [P]
  b: Buf, // [P]
  P: number,
  opts: GradNormOptions = {},
): Dispatch[] {
  return normDispatches(device, 'diffNorm', out, a, b, P, opts);
}

function normDispatches(
  device: GPUDevice,
  op: string,
  out: Buf,
  grads: Buf,
  base: Buf | null,
  P: number,
  opts: GradNormOptions,
): Dispatch[] {
  positiveInts(op, { P });
  need(op, 'out', out, 2);
  need(op, base ? 'a' : 'grads', grads, P);
  if (base) need(op, 'b', base, P);
  const wg = opts.workgroupSize ?? GRAD_NORM_WG;
  if (!Number.isInteger(Math.log2(wg))) throw new RangeError(`${op}: workgroupSize must be a power of two, got ${wg}`);
  const G = opts.groups ?? gradNormGroups(P, wg);
  positiveInts(op, { groups: G });
  if (G > 65535) throw new RangeError(`${op}: groups must be ≤ 65535, got ${G}`);
  const partials = createStorage(device, G * 8, `${op} partials`);
  const uniform = u32Uniform(device, [P, G], op);
  return [
    makeDispatch(device, {
      kernel: 'grad_norm',
      entryPoint: base ? 'partial_diff' : 'partial',
      bindings: [null, grads, partials, base],
      uniform,
      overrides: { WG: wg },
      workgroups: [G, 1, 1],
      work: work.gradNormPartialWork(P, G, base ? 2 : 1),
    }),
    makeDispatch(device, {
      kernel: 'grad_norm',
      entryPoint: 'finish',
      bindings: [out, null, partials, null],
      uniform,
      overrides: { WG: wg },
      workgroups: [1, 1, 1],
      work: work.gradNormFinishWork(P, G),
    }),
  ];
}

/** A uniform buffer for adamwOp's hyperparameters; rewrite it each step with writeAdamwParams. */
export const { create: createAdamwParams, write: writeAdamwParams } = blockBuffers<AdamwParams>(ADAMW_BLOCK);

/** One AdamW step over P parameters, in place; does nothing when norm[1] ≠ 0. */
export function adamwOp(
  device: GPUDevice,
  params: Buf, // [P]
  grads: Buf, // [P]
  m: Buf, // [P]
  v: Buf, // [P]
  decay: Buf, // [P] 1 or 0
  norm: Buf, // [2] from gradNormOp
  P: number,
  hyper: GPUBuffer | AdamwParams,
): Dispatch[] {
  const op = 'adamw';
  positiveInts(op, { P });
  needAll(op, { params, grads, m, v, decay }, P);
  need(op, 'norm', norm, 2);
  const uniform = bindBlock(device, hyper, ADAMW_BLOCK, [P]);
  return [
    makeDispatch(device, {
      kernel: 'adamw',
      bindings: [params, grads, m, v, decay, norm],
      uniform,
      overrides: { WG: 256 },
      workgroups: grid(P, 256),
      work: work.adamwWork(P),
    }),
  ];
}
