// What one RL step asks of the device, counted (src/gpu/call-counter.ts): the two phases the
// trainer runs on a GPU engine, (1) sample N × T tokens and read them back, (2) keep the state
// for a rollback, one policy-gradient pass and the statistics, read back. Counts are exact on
// any adapter; they are what a real GPU at these model sizes is bound by (launches and round
// trips, not flops).

import { countGpuCalls, type GpuCallCounts } from '../gpu/call-counter';
import type { MatmulVariant } from '../gpu/ops';
import type { ParamLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuEngine, type DispatchBreakdown } from '../rl/gpu-engine';
import { DEFAULT_ENGINE_SETTINGS, type TrainPass } from '../rl/engine';
import { nextTokenTargets } from '../core/abi';
import { BENCH_ADAM, SAMPLE_PARAMS, benchPgLoss, samplingTemplate } from './workloads';

export interface StepCounts {
  N: number;
  T: number;
  /** Kernel dispatches by phase (GpuEngine.dispatchBreakdown; the estimator runs on the CPU). */
  dispatches: DispatchBreakdown & {
    /** Σ over one RL step as counted on the device (= sampleRun + trainStep + statistics; β = 0: no reference). */
    perStep: number;
  };
  computePassesPerStep: number;
  /** queue.submit calls of one RL step. */
  submitsPerStep: number;
  /** mapAsync calls of one RL step. */
  readbacksPerStep: number;
  /** queue.writeBuffer bytes of one RL step (template, training inputs, loss and AdamW uniforms). */
  bytesWrittenPerStep: number;
  /** The two phases as counted. */
  sample: GpuCallCounts;
  update: GpuCallCounts;
}

/** One pg pass over the sampled tokens: uniform advantages of ±1, every position after BOS trained. */
function passFor(tokens: Int32Array, logp: Float32Array, N: number, T: number): TrainPass {
  const mask = new Float32Array(N * T);
  const adv = new Float32Array(N * T);
  const oldLogp = new Float32Array(N * T);
  for (let n = 0; n < N; n++) {
    for (let t = 0; t + 1 < T; t++) {
      mask[n * T + t] = 1;
      adv[n * T + t] = n % 2 === 0 ? 1 : -1;
      oldLogp[n * T + t] = logp[n * T + t + 1];
    }
  }
  return {
    data: { tokens, targets: nextTokenTargets(tokens, N, T), oldLogp, adv, mask, klMask: new Float32Array(N * T) },
    loss: { kind: 'pg', params: benchPgLoss(N, T) },
    adam: { ...BENCH_ADAM },
  };
}

/**
 * Counts one RL step (after a first, uncounted one that builds the plans) of a fresh GpuEngine
 * on `device`. Installs the device's call counter if it has none.
 */
export async function countRlStep(
  device: GPUDevice,
  layout: ParamLayout,
  N: number,
  T: number,
  variant: MatmulVariant,
): Promise<StepCounts> {
  const counter = countGpuCalls(device);
  const engine = new GpuEngine(device, layout, initParams(layout, 3), DEFAULT_ENGINE_SETTINGS, variant);
  try {
    const template = samplingTemplate(N, T);
    const step = async () => {
      const s = await counter.measure(() => engine.sample(template, N, T, { ...SAMPLE_PARAMS }));
      const pass = passFor(s.result.tokens, s.result.logp, N, T);
      const u = await counter.measure(async () => {
        await engine.checkpointState();
        return engine.train([pass], N, T);
      });
      return { sample: s.counts, update: u.counts };
    };
    await step(); // builds the sampler and the plans (uniform uploads of the build are not a step's)
    const { sample, update } = await step();
    const b = engine.dispatchBreakdown(N, T);
    const sum = (k: keyof GpuCallCounts) => sample[k] + update[k];
    return {
      N,
      T,
      dispatches: { ...b, perStep: sum('dispatches') },
      computePassesPerStep: sum('computePasses'),
      submitsPerStep: sum('submits'),
      readbacksPerStep: sum('readbacks'),
      bytesWrittenPerStep: sum('bytesWritten'),
      sample,
      update,
    };
  } finally {
    engine.destroy();
  }
}
