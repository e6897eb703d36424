// Compute pipelines are created once per (device, kernel key) (docs/architecture.md, "Conventions").
// The key is the WGSL file name plus its override constants; creating a pipeline inside a
// training step would be a bug, so `pipelineCreations` lets tests assert it stays flat.
// A device opened with subgroups (device.ts) builds every kernel that has a `subgroups` text
// variant (shaders.ts) in that variant; the key then ends in "+subgroups".

import { hasShaderVariant, shaderSource, type ShaderVariant } from './shaders';

export type Overrides = Record<string, number>;

interface DeviceCache {
  modules: Map<string, GPUShaderModule>;
  pipelines: Map<string, GPUComputePipeline>;
  created: number;
  variant: ShaderVariant;
}

const caches = new WeakMap<GPUDevice, DeviceCache>();

function cacheOf(device: GPUDevice): DeviceCache {
  let c = caches.get(device);
  if (!c) {
    c = { modules: new Map(), pipelines: new Map(), created: 0, variant: 'plain' };
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

/** Build this device's kernels in `variant` (set once, by openDevice, before any pipeline exists). */
export function setShaderVariant(device: GPUDevice, variant: ShaderVariant): void {
  const cache = cacheOf(device);
  if (cache.created > 0 && cache.variant !== variant)
    throw new Error(`setShaderVariant: device already has ${cache.created} pipelines in variant "${cache.variant}"`);
  cache.variant = variant;
}

/** The text variant `kernel` is built in on this device: 'plain' unless the device's variant changes its text. */
export function kernelVariant(device: GPUDevice, kernel: string): ShaderVariant {
  const v = cacheOf(device).variant;
  return hasShaderVariant(kernel, v) ? v : 'plain';
}

/** The pipeline for `kernel` (a shaders/ file name without .wgsl) specialised by `overrides`. */
export function getPipeline(
  device: GPUDevice,
  kernel: string,
  overrides: Overrides = {},
  entryPoint = 'main',
): GPUComputePipeline {
  const cache = cacheOf(device);
  const variant = kernelVariant(device, kernel);
  const moduleKey = variant === 'plain' ? kernel : `${kernel}+${variant}`;
  const key = kernelKey(moduleKey, overrides) + (entryPoint === 'main' ? '' : `#${entryPoint}`);
  let pipeline = cache.pipelines.get(key);
  if (!pipeline) {
    let module = cache.modules.get(moduleKey);
    if (!module) {
      module = device.createShaderModule({ label: moduleKey, code: shaderSource(kernel, variant) });
      cache.modules.set(moduleKey, module);
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
