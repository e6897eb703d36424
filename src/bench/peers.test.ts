// The peers benchmark compares like with like: TF.js's port of the model gives the engine's
// log-probs and first-step gradient norm on the same weights and batch, and samples what it
// should. A GPU test (TF.js's WebGPU backend on the same Dawn adapter).
import { describe, expect } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import type { ModelConfig } from '../model/model-config';
import { setupTrainStep, trainBatch } from './workloads';
import { checkSameWorkload, engineLogpAndAlign, engineStep, tfjsPeer } from './peers';
import { openTfjsWebgpu } from './peers/tfjs-runtime';

describe('peers benchmark', () => {
  const cfg: ModelConfig = { vocabSize: 9, nPositions: 8, nEmbd: 12, nLayer: 2, nHead: 3 };
  const layout = buildLayout(cfg);

  gpuIt(
    "TF.js runs the engine's model: same log-probs, same gradient norm; it samples N × (T−1) tokens in [0, V)",
    async ({ device }) => {
      const N = 3,
        T = 8;
      const initial = initParams(layout, 1);
      const setup = setupTrainStep(device, layout, N, T, 'tuned', initial);
      const readback = device.createBuffer({ size: 8, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
      const rt = await openTfjsWebgpu();
      try {
        expect(rt.tf.getBackend()).toBe('webgpu');
        const engineLogp = await engineLogpAndAlign(device, setup, N * T);
        const gradNorm = await engineStep(device, setup, readback)();
        const peer = tfjsPeer(rt, layout, initial, N, T);
        const check = await checkSameWorkload(peer, engineLogp, gradNorm, trainBatch(N, T, cfg.vocabSize).mask);
        console.log(
          `peers: max |Δlogp| ${check.maxAbsLogpDiff.toExponential(1)}, grad norm ${check.gradNormEngine} vs ${check.gradNormTfjs}`,
        );
        expect(check.maxAbsLogpDiff).toBeLessThan(1e-5);
        expect(gradNorm).toBeGreaterThan(0);
        expect(check.gradNormRelDiff).toBeLessThan(1e-4);
        const s = peer.model.sample(N, T, 1, 7);
        expect(s.tokens.shape).toEqual([N, T - 1]);
        const tokens = await s.tokens.data();
        for (const t of tokens) expect(t >= 0 && t < cfg.vocabSize).toBe(true);
        const logp = await s.logp.data();
        for (const l of logp) expect(l).toBeLessThanOrEqual(0);
        rt.tf.dispose([s.tokens, s.logp, s.entropy]);
        peer.dispose();
      } finally {
        rt.close();
        setup.destroy();
        readback.destroy();
      }
    },
  );
});
