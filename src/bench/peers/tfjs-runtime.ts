// TF.js with its WebGPU backend on Dawn in Node, on the adapter the engine uses.
//
// Two things the backend does not do by itself here: it registers only when `navigator.gpu`
// exists as it is imported (Node has no navigator.gpu; Node 20 no navigator at all), and it
// opens its device with WebGPU's default 8 storage buffers per shader stage, which its addN
// (one binding per input) exceeds. So we give it Dawn's navigator.gpu before importing it, and
// register the 'webgpu' backend again over a device we open with the adapter's limits.

import { adapterLimits, describeAdapter, type AdapterDescription } from '../../gpu/device';
import { dawnInstance } from '../../gpu/node-device';

export type Tf = typeof import('@tensorflow/tfjs-core');

export interface TfjsRuntime {
  tf: Tf;
  version: string;
  device: GPUDevice;
  adapter: AdapterDescription;
  /** Storage buffers one shader may bind on this device (addN inputs are one fewer). */
  maxStorageBuffers: number;
  close(): void;
}

/** Gives `navigator.gpu` to code that looks for it there (the TF.js WebGPU backend). */
function provideNavigatorGpu(gpu: GPU): void {
  const g = globalThis as { navigator?: object };
  if (!g.navigator) Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  if (!(g.navigator as { gpu?: GPU }).gpu)
    Object.defineProperty(g.navigator, 'gpu', { value: gpu, configurable: true });
}

/** TF.js ready on its WebGPU backend over Dawn; throws with TF.js's own error when it cannot. */
export async function openTfjsWebgpu(): Promise<TfjsRuntime> {
  const gpu = await dawnInstance();
  provideNavigatorGpu(gpu);
  // The union package, as TF.js users import it: tfjs-core alone registers no gradients in Node.
  const tf: Tf = await import('@tensorflow/tfjs');
  const { WebGPUBackend } = await import('@tensorflow/tfjs-backend-webgpu');
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('TF.js: Dawn found no adapter');
  // the limits TF.js asks for itself, plus the storage buffers per stage
  const requiredLimits = adapterLimits(adapter, [
    'maxComputeWorkgroupStorageSize',
    'maxComputeWorkgroupsPerDimension',
    'maxStorageBufferBindingSize',
    'maxBufferSize',
    'maxComputeWorkgroupSizeX',
    'maxComputeInvocationsPerWorkgroup',
    'maxStorageBuffersPerShaderStage',
  ]);
  const requiredFeatures: GPUFeatureName[] = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  if (tf.findBackendFactory('webgpu')) tf.removeBackend('webgpu');
  tf.registerBackend('webgpu', () => new WebGPUBackend(device, adapter.info), 10);
  if (!(await tf.setBackend('webgpu'))) throw new Error('TF.js: the webgpu backend did not initialise');
  await tf.ready();
  return {
    tf,
    version: tf.version_core,
    device,
    adapter: describeAdapter(adapter.info, 'Dawn (node), TF.js WebGPU backend'),
    maxStorageBuffers: device.limits.maxStorageBuffersPerShaderStage,
    close() {
      tf.disposeVariables();
      tf.removeBackend('webgpu');
      device.destroy();
    },
  };
}
