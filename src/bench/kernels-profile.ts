// The `profile` part of `npm run bench -- kernels` (--profile): where the GPU time of one
// train step and of one sampling run goes, dispatch by dispatch, grouped by kernel.
//
// Each profiled run encodes the work with a timed compute pass per dispatch
// (./dispatch-profiler.ts); runs alternate with plain runs of the same work (normal
// encoding, GPU time between two timestamps around it) so the profile's overhead shows. The
// per-dispatch µs are medians over the runs; their sum is the profile's total.

import { timeInterleaved } from '../gpu/autotune';
import { median } from '../core/numeric';
import type { MatmulVariant } from '../gpu/ops';
import { initParams } from '../model/init';
import { GpuParams } from '../model/gpu-model';
import { DispatchProfiler, type ProfiledRun } from './dispatch-profiler';
import {
  groupProfile,
  matmulShapes,
  medianRuns,
  profileMarkdown,
  profileTable,
  totalUs,
  type DispatchSample,
  type KernelRow,
} from './profile';
import { setupSampler, setupTrainStep, destroyBuffers } from './workloads';
import { sig3 } from './text-table';
import type { ModelBench } from './model-bench';

export interface PlanProfile {
  /** "train step" or "sampling". */
  what: string;
  variant: MatmulVariant;
  /** Profiled runs (the per-dispatch figures are medians over them). */
  runs: number;
  dispatches: number;
  /** Σ of the per-dispatch medians: the GPU time of the kernels themselves. */
  totalUs: number;
  /** Median µs from the first dispatch's start to the last one's end in a profiled run. */
  spanUs: number;
  /** Median GPU µs of the same work encoded normally (no pass per dispatch), in the same run. */
  plainGpuUs: number | null;
  /** Dispatches whose end timestamp came before their start, over all runs (counted as 0 µs). */
  invalid: number;
  kernels: KernelRow[];
  matmulShapes: KernelRow[];
  /** Every dispatch, in order, with its median µs. */
  perDispatch: DispatchSample[];
}

export type ProfileResult = { train: PlanProfile | null; sample: PlanProfile | null } | { unavailable: string };

async function profileWork(
  { timer, opts }: ModelBench,
  profiler: DispatchProfiler,
  what: string,
  variant: MatmulVariant,
  encodeProfiled: (enc: GPUCommandEncoder) => void,
  encodePlain: (enc: GPUCommandEncoder) => void,
): Promise<PlanProfile> {
  const plain = async () => (timer ? (await timer.run(encodePlain)).gpuMs : null);
  const [profiled, plainMs] = (await timeInterleaved<ProfiledRun | number | null>(
    [() => profiler.run(encodeProfiled), plain],
    { warmup: opts.warmup, reps: opts.reps },
  )) as [ProfiledRun[], (number | null)[]];
  const perDispatch = medianRuns(profiled.map((r) => r.samples));
  const plainKnown = plainMs.filter((x): x is number => x !== null);
  return {
    what,
    variant,
    runs: profiled.length,
    dispatches: perDispatch.length,
    totalUs: totalUs(perDispatch),
    spanUs: median(profiled.map((r) => r.spanUs)),
    plainGpuUs: plainKnown.length === plainMs.length && plainKnown.length > 0 ? median(plainKnown) * 1e3 : null,
    invalid: profiled.reduce((s, r) => s + r.invalid, 0),
    kernels: groupProfile(perDispatch),
    matmulShapes: matmulShapes(perDispatch),
    perDispatch,
  };
}

export async function profileTrainStep(
  m: ModelBench,
  profiler: DispatchProfiler,
  variant: MatmulVariant,
): Promise<PlanProfile> {
  const setup = setupTrainStep(m.gpu.device, m.layout, m.N, m.T, variant);
  try {
    const { pgStep } = setup.plans;
    return await profileWork(
      m,
      profiler,
      'train step',
      variant,
      (enc) => profiler.encodePlan(enc, pgStep),
      (enc) => pgStep.encode(enc, 'pg step'),
    );
  } finally {
    setup.destroy();
  }
}

export async function profileSampling(
  m: ModelBench,
  profiler: DispatchProfiler,
  variant: MatmulVariant,
): Promise<PlanProfile> {
  const { device } = m.gpu;
  const model = new GpuParams(device, m.layout, initParams(m.layout, 2));
  const sampler = setupSampler(device, m.layout, model, m.N, m.T, variant);
  try {
    return await profileWork(
      m,
      profiler,
      'sampling',
      variant,
      (enc) => sampler.encode(enc, 0, m.T - 1, (step, e) => profiler.encodePlan(e, step)),
      (enc) => sampler.encode(enc),
    );
  } finally {
    model.destroy();
    destroyBuffers(sampler);
  }
}

/** "train step (tuned, 149 dispatches, 5 runs): kernels 34.1 ms, span 35.0 ms; plain 33.2 ms GPU" */
export function profileHeadline(p: PlanProfile): string {
  const ms = (us: number) => `${sig3(us / 1e3)} ms`;
  const plain =
    p.plainGpuUs === null
      ? ''
      : `; the same ${p.what} encoded normally: ${ms(p.plainGpuUs)} GPU (span/plain ${(p.spanUs / p.plainGpuUs).toFixed(2)})`;
  const invalid = p.invalid ? `; ${p.invalid} timestamps out of order (counted as 0)` : '';
  return (
    `${p.what} profile (${p.variant}, ${p.dispatches} dispatches, a timed pass each, median of ${p.runs} runs): ` +
    `kernels ${ms(p.totalUs)}, first start to last end ${ms(p.spanUs)}${plain}${invalid}`
  );
}

/** The report of one profile: headline, the kernels, the matmul shapes. */
export function profileReport(p: PlanProfile): string {
  return [
    profileHeadline(p),
    profileTable(p.kernels),
    '',
    `${p.what}: matmul calls by shape`,
    profileTable(p.matmulShapes),
  ].join('\n');
}

export { profileMarkdown };
