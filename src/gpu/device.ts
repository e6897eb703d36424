// One way to get a GPUDevice, in the browser and in Node (no model knowledge here: docs/architecture.md).
//
// The browser passes `navigator.gpu`; Node passes the Dawn instance from ./node-device.
// Both end in `openDevice`, which asks for the adapter's full limits (the model needs more
// storage buffers per stage than the WebGPU defaults on some kernels) and the optional
// features we can use (timestamp-query for the profiler, subgroups for reductions).

export interface AdapterDescription {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** True for a CPU emulation (SwiftShader, lavapipe, WARP): results are right but slow. */
  isSoftware: boolean;
  /** Where the adapter came from, e.g. "navigator.gpu" or "Dawn (node) with SwiftShader ICD". */
  source: string;
}

export interface GpuContext {
  device: GPUDevice;
  adapter: AdapterDescription;
  features: {
    timestampQuery: boolean;
    subgroups: boolean;
  };
}

export class NoWebGpuError extends Error {
  constructor(
    message: string,
    /** Machine-readable cause, for the UI's explanation. */
    readonly reason: 'no-api' | 'no-adapter' | 'device-failed',
  ) {
    super(message);
  }
}

const SOFTWARE_PATTERN = /swiftshader|lavapipe|llvmpipe|warp|software|cpu/i;

export function describeAdapter(info: GPUAdapterInfo | undefined, source: string): AdapterDescription {
  const vendor = info?.vendor ?? '';
  const architecture = info?.architecture ?? '';
  const device = info?.device ?? '';
  const description = info?.description ?? '';
  const all = `${vendor} ${architecture} ${device} ${description}`;
  return { vendor, architecture, device, description, isSoftware: SOFTWARE_PATTERN.test(all), source };
}

/**
 * A one-line label: "google swiftshader (software emulation)" or "nvidia ampere". With `full` (a
 * report that must name the card), the description is added where it says more ("NVIDIA H100 80GB HBM3").
 */
export function adapterLabel(a: AdapterDescription, full = false): string {
  const parts = [a.vendor, a.architecture, a.device].filter((s) => s);
  const said = parts.join(' ').toLowerCase();
  if (a.description && (full || parts.length === 0) && !said.includes(a.description.toLowerCase()))
    parts.push(a.description);
  const name = parts.join(' ') || 'unknown adapter';
  return a.isSoftware ? `${name} (software emulation)` : name;
}

/** Request an adapter from `gpu` and open a device with its full limits. */
export async function openDevice(gpu: GPU | undefined, source: string): Promise<GpuContext> {
  if (!gpu) {
    throw new NoWebGpuError('WebGPU is not available here (navigator.gpu is undefined).', 'no-api');
  }
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new NoWebGpuError('WebGPU is present but no GPU adapter was found.', 'no-adapter');
  }
  const wanted: GPUFeatureName[] = ['timestamp-query', 'subgroups'];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  // Ask for everything the adapter allows; the defaults (e.g. 8 storage buffers per stage,
  // 128 MiB bindings) are lower than what real adapters offer.
  const requiredLimits: Record<string, number> = {};
  for (const key of [
    'maxStorageBuffersPerShaderStage',
    'maxStorageBufferBindingSize',
    'maxBufferSize',
    'maxComputeWorkgroupStorageSize',
    'maxComputeInvocationsPerWorkgroup',
    'maxComputeWorkgroupSizeX',
    'maxComputeWorkgroupSizeY',
    'maxComputeWorkgroupsPerDimension',
  ] as const) {
    requiredLimits[key] = adapter.limits[key];
  }
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  } catch (e) {
    throw new NoWebGpuError(`The GPU adapter refused to open a device: ${(e as Error).message}`, 'device-failed');
  }
  return {
    device,
    adapter: describeAdapter(adapter.info, source),
    features: {
      timestampQuery: requiredFeatures.includes('timestamp-query'),
      subgroups: requiredFeatures.includes('subgroups'),
    },
  };
}

/** Browser entry: the page's own WebGPU. */
export function openBrowserDevice(): Promise<GpuContext> {
  const gpu = typeof navigator !== 'undefined' ? navigator.gpu : undefined;
  return openDevice(gpu, 'navigator.gpu');
}
