// Part `reductions` of `npm run bench -- kernels`: the kernels with a subgroups variant
// (logits_stats, logits_backward, grad_norm, attention_forward_rows; docs/engine.md, "Device
// features"), and attention_forward_rows with subgroups against the default thread-per-row
// attention_forward, each timed on
// the suite's device (subgroups where the adapter has them) and on a second device of the same
// adapter with subgroups forced off (the shared-memory tree), interleaved (A B A B …), median
// wall ms per submission of `inner` calls, the tree/subgroups ratio, and the largest difference
// between the two devices' outputs.

import type { GpuContext } from '../gpu/device';
import { openNodeDevice } from '../gpu/node-device';
import { createStorage, readF32, storageFrom } from '../gpu/buffers';
import { encodeDispatches, type Dispatch } from '../gpu/dispatch';
import { attentionForwardOp, gradNormOp, logitsBackwardOp, logitsStatsOp } from '../gpu/ops';
import { timeInterleaved } from '../gpu/autotune';
import { median } from '../core/numeric';
import { timedRun } from './gpu-timer';
import type { BenchOptions } from './suite';

export interface ReductionTiming {
  kernel: string;
  shape: string;
  /** Calls per timed submission. */
  inner: number;
  /** Median wall ms of one call, on the subgroups device (null: the suite's device has none). */
  subgroupsMs: number | null;
  treeMs: number;
  /** treeMs / subgroupsMs (> 1: subgroups faster). */
  treeOverSubgroups: number | null;
  /** max |subgroups − tree| over the kernel's outputs. */
  maxAbsDiff: number | null;
}

export interface ReductionsResult {
  /** Whether the suite's device used subgroups, the sizes the adapter reports, and why not where not. */
  subgroups: boolean;
  subgroupSizes: { min: number; max: number } | null;
  notes: string[];
  kernels: ReductionTiming[];
}

/** One kernel's call on one device, with the buffer(s) to compare. */
interface Built {
  dispatches: Dispatch[];
  outputs: { buf: GPUBuffer; n: number }[];
}

interface Case {
  kernel: string;
  shape: string;
  /** The call on the subgroups device (`subgroups` true) or on the tree device. */
  build: (device: GPUDevice, subgroups: boolean) => Built;
}

/** Deterministic values in [−2, 2) (an LCG: the same inputs on both devices). */
function values(n: number, seed: number): Float32Array {
  const out = new Float32Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = (x / 4294967296 - 0.5) * 4;
  }
  return out;
}

/** The shapes of one model's batch: N sequences × T positions, C channels, NH heads, V vocabulary, P parameters. */
export interface ReductionShapes {
  N: number;
  T: number;
  C: number;
  NH: number;
  V: number;
  P: number;
}

/** attention_forward_rows on both devices, or (`vsThreads`) against the thread-per-row kernel on the tree device. */
function attentionCase({ N, T, C, NH }: ReductionShapes, vsThreads: boolean): Case {
  const qkv = values(N * T * 3 * C, 4);
  return {
    kernel: vsThreads ? 'attention_forward: rows vs threads' : 'attention_forward_rows',
    shape: `N ${N} × T ${T}, C ${C}, NH ${NH}`,
    build: (device, subgroups) => {
      const [out, att] = [createStorage(device, N * T * C * 4), createStorage(device, N * NH * T * T * 4)];
      const layout = vsThreads && !subgroups ? 'threads' : 'rows';
      return {
        dispatches: attentionForwardOp(device, out, att, storageFrom(device, qkv), { N, T, C, NH }, layout),
        outputs: [
          { buf: out, n: N * T * C },
          { buf: att, n: N * NH * T * T },
        ],
      };
    },
  };
}

function cases(sh: ReductionShapes): Case[] {
  const { V, P } = sh;
  const R = sh.N * sh.T;
  const logits = values(R * V, 1);
  const targets = Int32Array.from({ length: R }, (_, i) => (i * 7) % V);
  const dl = values(R, 2);
  const grads = values(P, 3).map((v) => v * 0.01);
  const logitsCase = (backward: boolean) => (device: GPUDevice) => {
    const [lB, tB] = [storageFrom(device, logits), storageFrom(device, targets)];
    if (backward) {
      const d = createStorage(device, R * V * 4);
      const [a, b] = [storageFrom(device, dl), storageFrom(device, dl)];
      return {
        dispatches: logitsBackwardOp(device, d, lB, tB, a, b, { R, V, invTemp: 1 / 0.7 }),
        outputs: [{ buf: d, n: R * V }],
      };
    }
    const [lp, ent] = [createStorage(device, R * 4), createStorage(device, R * 4)];
    return {
      dispatches: logitsStatsOp(device, lp, ent, lB, tB, { R, V, invTemp: 1 / 0.7 }),
      outputs: [
        { buf: lp, n: R },
        { buf: ent, n: R },
      ],
    };
  };
  return [
    { kernel: 'logits_stats', shape: `R ${R} × V ${V}`, build: logitsCase(false) },
    { kernel: 'logits_backward', shape: `R ${R} × V ${V}`, build: logitsCase(true) },
    {
      kernel: 'grad_norm',
      shape: `P ${P}`,
      build: (device) => {
        const out = createStorage(device, 8);
        return { dispatches: gradNormOp(device, out, storageFrom(device, grads), P), outputs: [{ buf: out, n: 1 }] };
      },
    },
    attentionCase(sh, false),
    attentionCase(sh, true),
  ];
}

async function maxDiff(a: GPUDevice, x: Built, b: GPUDevice, y: Built): Promise<number> {
  let m = 0;
  for (let k = 0; k < x.outputs.length; k++) {
    const [u, v] = [
      await readF32(a, x.outputs[k].buf, x.outputs[k].n),
      await readF32(b, y.outputs[k].buf, y.outputs[k].n),
    ];
    for (let i = 0; i < u.length; i++) m = Math.max(m, Math.abs(u[i] - v[i]));
  }
  return m;
}

/** Calls per submission so that one lasts ≥ `minMs` on the tree device (at most 256). */
async function calibrate(device: GPUDevice, d: Dispatch[], minMs: number): Promise<number> {
  let inner = 1;
  for (;;) {
    const run = await timedRun(device, null, (enc) => {
      for (let i = 0; i < inner; i++) encodeDispatches(enc, d);
    });
    if (run.wallMs >= minMs || inner >= 256) return inner;
    inner *= 2;
  }
}

async function timeCase(
  c: Case,
  sub: GpuContext | null,
  tree: GpuContext,
  opts: BenchOptions,
): Promise<ReductionTiming> {
  const t = c.build(tree.device, false);
  const s = sub ? c.build(sub.device, true) : null;
  const inner = await calibrate(tree.device, t.dispatches, opts.quick ? 10 : 20);
  const runOn = (device: GPUDevice, d: Dispatch[]) => () =>
    timedRun(device, null, (enc) => {
      for (let i = 0; i < inner; i++) encodeDispatches(enc, d);
    });
  const runs = [runOn(tree.device, t.dispatches), ...(s && sub ? [runOn(sub.device, s.dispatches)] : [])];
  const samples = await timeInterleaved(runs, { warmup: opts.warmup, reps: opts.reps });
  const [treeMs, subgroupsMs] = samples.map((rs) => median(rs.map((r) => r.wallMs)) / inner);
  return {
    kernel: c.kernel,
    shape: c.shape,
    inner,
    subgroupsMs: subgroupsMs ?? null,
    treeMs,
    treeOverSubgroups: subgroupsMs ? treeMs / subgroupsMs : null,
    maxAbsDiff: s && sub ? await maxDiff(sub.device, s, tree.device, t) : null,
  };
}

/** Times the reduction kernels for one model's shapes on `gpu` and on a subgroups-off twin device. */
export async function benchReductions(
  gpu: GpuContext,
  shapes: ReductionShapes,
  opts: BenchOptions,
): Promise<ReductionsResult> {
  const tree = await openNodeDevice({ verbose: false, subgroups: 'off' });
  try {
    const sub = gpu.features.subgroups ? gpu : null;
    const kernels: ReductionTiming[] = [];
    for (const c of cases(shapes)) kernels.push(await timeCase(c, sub, tree, opts));
    const f = gpu.features;
    return { subgroups: f.subgroups, subgroupSizes: f.subgroupSizes, notes: f.notes, kernels };
  } finally {
    await tree.device.queue.onSubmittedWorkDone();
    tree.device.destroy();
  }
}
