// `rlvr forward --backend gpu`: the same numbers as the CPU reference, computed by the WGSL engine.
import { openNodeDevice } from '../gpu/node-device';
import { GpuParams } from '../model/gpu-model';
import { gpuCrossEntropy } from '../model/gpu-loss';
import { gradsByName, type ForwardResult, type GpuForward } from './model-commands';
import { CliError } from '../core/flags';
import { withGpuErrors } from '../gpu/gpu-errors';

export const gpuForward: GpuForward = async (layout, params, tokens, withGrads): Promise<ForwardResult> => {
  const { device } = await openNodeDevice();
  try {
    const T = tokens.length;
    const r = await withGpuErrors(
      device,
      `the forward and backward pass of a ${layout.numParams}-parameter model`,
      () => {
        let model: GpuParams;
        try {
          model = new GpuParams(device, layout, params);
        } catch (e) {
          // The parameter buffer exceeds what this adapter binds.
          if (e instanceof RangeError) throw new CliError(`--backend gpu: ${e.message}; try --backend cpu`);
          throw e;
        }
        return gpuCrossEntropy(device, layout, model, tokens, 1, T);
      },
    );
    const V = layout.config.vocabSize;
    const logits: number[][] = [];
    for (let t = 0; t < T; t++) logits.push(Array.from(r.logits.subarray(t * V, (t + 1) * V)));
    return { logits, loss: r.loss, ...(withGrads ? { grads: gradsByName(layout, r.grads) } : {}) };
  } finally {
    device.destroy();
  }
};
