// Compute pipelines are created once per (device, kernel key) (docs/architecture.md, "Conventions").
// The key is the WGSL file name plus its override constants; creating a pipeline inside a
// training step would be a bug, so `pipelineCreations` lets tests assert it stays flat.

import { shaderSource } from './shaders';

export type Overrides = Record<string, number>;

interface DeviceCache {
  modules: Map<string, GPUShaderModule>;
  pipelines: Map<string, GPUComputePipeline>;
  created: number;
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

function cacheOf(device: GPUDevice): DeviceCache {
  let c = caches.get(device);
  if (!c) {
    c = { modules: new Map(), pipelines: new Map(), created: 0 };
    caches.set(device, c);
  }
  return c;
}

export function kernelKey(kernel: string, overrides: Overrides = {}): string {
  const parts = Object.keys(overrides)
    .sort()
    .map((k) => `${k}=${overrides[k]}`);
  return parts.length ? `${kernel}{${parts.join(',')}}` : kernel;
}

/** The pipeline for `kernel` (a shaders/ file name without .wgsl) specialised by `overrides`. */
export function getPipeline(
  device: GPUDevice,
  kernel: string,
  overrides: Overrides = {},
  entryPoint = 'main',
): GPUComputePipeline {
  const cache = cacheOf(device);
  const key = kernelKey(kernel, overrides) + (entryPoint === 'main' ? '' : `#${entryPoint}`);
  let pipeline = cache.pipelines.get(key);
  if (!pipeline) {
    let module = cache.modules.get(kernel);
    if (!module) {
      module = device.createShaderModule({ label: kernel, code: shaderSource(kernel) });
      cache.modules.set(kernel, module);
    }
    pipeline = device.createComputePipeline({
      label: key,
      layout: 'auto',
      compute: { module, entryPoint, constants: overrides },
    });
    cache.pipelines.set(key, pipeline);
    cache.created++;
  }
  return pipeline;
}

/** How many pipelines this device has created so far. */
export function pipelineCreations(device: GPUDevice): number {
  return cacheOf(device).created;
}
