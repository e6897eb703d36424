// `rlvr forward --backend gpu`: the same numbers as the CPU reference, computed by the WGSL engine.
import { openNodeDevice } from '../gpu/node-device';
import { GpuParams } from '../model/gpu-model';
import { gpuCrossEntropy } from '../model/gpu-loss';
import { gradsByName, type ForwardResult, type GpuForward } from './model-commands';

export const gpuForward: GpuForward = async (layout, params, tokens, withGrads): Promise<ForwardResult> => {
  const { device } = await openNodeDevice();
  try {
    const model = new GpuParams(device, layout, params);
    const T = tokens.length;
    const V = layout.config.vocabSize;
    const r = await gpuCrossEntropy(device, layout, model, tokens, 1, T);
    const logits: number[][] = [];
    for (let t = 0; t < T; t++) logits.push(Array.from(r.logits.subarray(t * V, (t + 1) * V)));
    return { logits, loss: r.loss, ...(withGrads ? { grads: gradsByName(layout, r.grads) } : {}) };
  } finally {
    device.destroy();
  }
};
