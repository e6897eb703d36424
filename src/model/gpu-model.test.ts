// Whole-model GPU vs CPU: loss, logits and every parameter gradient, for two configs.
import { describe, expect } from 'vitest';
import { gpuIt } from '../gpu/testing';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuParams } from './gpu-model';
import { gpuCrossEntropy } from './gpu-loss';
import { crossEntropyLossAndGrad } from '../reference/model';
import { makeRng } from '../core/random';
import type { ModelConfig } from './model-config';

const CONFIGS: ModelConfig[] = [
  { vocabSize: 11, nPositions: 9, nEmbd: 12, nLayer: 1, nHead: 3 },
  { vocabSize: 7, nPositions: 13, nEmbd: 16, nLayer: 2, nHead: 2 },
];

describe('GPT-2 on the GPU vs the CPU reference', () => {
  for (const cfg of CONFIGS) {
    gpuIt(
      `loss, logits and all gradients agree (V=${cfg.vocabSize} C=${cfg.nEmbd} L=${cfg.nLayer} NH=${cfg.nHead})`,
      async ({ device }) => {
        const layout = buildLayout(cfg);
        // Perturb the init so LayerNorm gains/biases are not trivially 1/0.
        const params = initParams(layout, 11);
        const rng = makeRng(5);
        for (let i = 0; i < params.length; i++) params[i] += 0.05 * rng.normal();
        const N = 3,
          T = cfg.nPositions - 1;
        const tokens = Int32Array.from({ length: N * T }, () => rng.int(cfg.vocabSize));
        const cpu = crossEntropyLossAndGrad(layout, params, tokens, N, T);
        const model = new GpuParams(device, layout, params);
        const gpu = await gpuCrossEntropy(device, layout, model, tokens, N, T);

        let logitDiff = 0;
        for (let i = 0; i < cpu.logits.length; i++)
          logitDiff = Math.max(logitDiff, Math.abs(cpu.logits[i] - gpu.logits[i]));
        // Gradient agreement per tensor, relative to that tensor's largest CPU gradient.
        let worst = { name: '', rel: 0 };
        for (const s of layout.slots) {
          let maxAbs = 0,
            maxDiff = 0;
          for (let i = s.offset; i < s.offset + s.size; i++) {
            maxAbs = Math.max(maxAbs, Math.abs(cpu.grads[i]));
            maxDiff = Math.max(maxDiff, Math.abs(cpu.grads[i] - gpu.grads[i]));
          }
          const rel = maxDiff / Math.max(maxAbs, 1e-6);
          if (!(rel <= worst.rel)) worst = { name: s.name, rel };
        }
        console.log(
          `gpu vs cpu: loss ${gpu.loss.toFixed(6)} vs ${cpu.loss.toFixed(6)}, max logit diff ${logitDiff.toExponential(2)}, worst grad ${worst.name} rel ${worst.rel.toExponential(2)}`,
        );
        expect(Math.abs(gpu.loss - cpu.loss)).toBeLessThan(1e-5);
        expect(logitDiff).toBeLessThan(1e-5);
        expect(worst.rel).toBeLessThan(1e-4);
        model.destroy();
      },
    );
  }
});
