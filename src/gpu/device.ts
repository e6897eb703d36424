// One way to get a GPUDevice, in the browser and in Node (no model knowledge here: docs/architecture.md).
//
// The browser passes `navigator.gpu`; Node passes the Dawn instance from ./node-device.
// Both end in `openDevice`, which asks for the adapter's full limits (the model needs more
// storage buffers per stage than the WebGPU defaults on some kernels) and the optional
// features we can use (timestamp-query for the profiler, subgroups for reductions, shader-f16
// recorded for later use). `DeviceFeatureOptions` forces a feature off (or on, failing with a
// message that names it where the adapter lacks it); docs/engine.md, "Device features".

import { setShaderVariant } from './pipelines';

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

/** Whether to use an optional feature: where the adapter has it ('auto'), never ('off'), or always ('on': an error where missing). */
export type FeatureChoice = 'auto' | 'on' | 'off';
export const FEATURE_CHOICES: readonly FeatureChoice[] = ['auto', 'on', 'off'];

export interface DeviceFeatureOptions {
  /** Subgroup reductions (row_reduce_subgroups.wgsl) in place of the shared-memory tree; default 'auto'. */
  subgroups?: FeatureChoice;
  /** Request 'shader-f16' (no kernel uses it yet: recorded for the bench and later kernels); default 'auto'. */
  shaderF16?: FeatureChoice;
}

export interface GpuFeatures {
  timestampQuery: boolean;
  /** The kernels with a subgroups variant use it (the device has 'subgroups' and our WGSL compiles). */
  subgroups: boolean;
  /** The subgroup sizes the adapter may pick (adapter info), null where it does not say. */
  subgroupSizes: { min: number; max: number } | null;
  shaderF16: boolean;
  /** Why a feature the adapter offers is not used ('off' asked, or the probe shader failed), one line each. */
  notes: string[];
}

export interface GpuContext {
  device: GPUDevice;
  adapter: AdapterDescription;
  features: GpuFeatures;
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

/** A feature forced on (FeatureChoice 'on') that this adapter or browser cannot give. */
export class FeatureMissingError extends Error {
  constructor(
    readonly feature: string,
    why: string,
  ) {
    super(`GPU feature '${feature}' was forced on (${feature}=on) but ${why}; use ${feature}=auto or ${feature}=off`);
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

function checkChoice(name: string, v: FeatureChoice | undefined): FeatureChoice {
  if (v === undefined) return 'auto';
  if (!FEATURE_CHOICES.includes(v))
    throw new RangeError(`${name} must be one of ${FEATURE_CHOICES.join(', ')}, got "${v}"`);
  return v;
}

/** The optional features to request, by the options and what the adapter has. */
function chooseFeatures(adapter: GPUAdapter, opts: DeviceFeatureOptions): GPUFeatureName[] {
  const wanted: GPUFeatureName[] = ['timestamp-query'];
  const asked: [GPUFeatureName, FeatureChoice][] = [
    ['subgroups', checkChoice('subgroups', opts.subgroups)],
    ['shader-f16', checkChoice('shaderF16', opts.shaderF16)],
  ];
  for (const [f, choice] of asked) {
    if (choice === 'on' && !adapter.features.has(f)) throw new FeatureMissingError(f, 'this adapter does not offer it');
    if (choice !== 'off') wanted.push(f);
  }
  return wanted.filter((f) => adapter.features.has(f));
}

// The builtins row_reduce_subgroups.wgsl needs: subgroup_id and num_subgroups came to WGSL after
// the first subgroups release, so a browser may have the feature and still refuse them.
const SUBGROUP_PROBE = `enable subgroups;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(subgroup_id) sg: u32, @builtin(num_subgroups) n: u32, @builtin(subgroup_invocation_id) lane: u32) {
  let s = subgroupMax(subgroupAdd(f32(sg + n)));
  if (lane == 0u) { o[sg] = s; }
}`;

/** Null when this device compiles the subgroup reductions' WGSL, else the compiler's first error. */
async function subgroupProbeError(device: GPUDevice): Promise<string | null> {
  const info = await device.createShaderModule({ label: 'subgroup probe', code: SUBGROUP_PROBE }).getCompilationInfo();
  const error = info.messages.find((m) => m.type === 'error');
  return error ? error.message : null;
}

/** What the device was opened with, after the probe; sets the device's kernel variant. */
async function settleFeatures(
  device: GPUDevice,
  adapter: GPUAdapter,
  requested: GPUFeatureName[],
  opts: DeviceFeatureOptions,
): Promise<GpuFeatures> {
  const notes: string[] = [];
  let subgroups = requested.includes('subgroups');
  if (subgroups) {
    const err = await subgroupProbeError(device);
    if (err !== null && opts.subgroups === 'on')
      throw new FeatureMissingError('subgroups', `its WGSL (subgroup_id, num_subgroups) does not compile: ${err}`);
    if (err !== null) notes.push(`subgroups offered but not used: the probe shader failed (${err})`);
    subgroups = err === null;
  } else if (adapter.features.has('subgroups')) notes.push('subgroups offered but turned off (subgroups=off)');
  if (!requested.includes('shader-f16') && adapter.features.has('shader-f16'))
    notes.push('shader-f16 offered but turned off (shaderF16=off)');
  setShaderVariant(device, subgroups ? 'subgroups' : 'plain');
  const info = adapter.info as GPUAdapterInfo & { subgroupMinSize?: number; subgroupMaxSize?: number };
  const sizes = info.subgroupMinSize && info.subgroupMaxSize;
  return {
    timestampQuery: requested.includes('timestamp-query'),
    subgroups,
    subgroupSizes: sizes ? { min: info.subgroupMinSize!, max: info.subgroupMaxSize! } : null,
    shaderF16: requested.includes('shader-f16'),
    notes,
  };
}

/** A numeric limit of WebGPU (GPUSupportedLimits' fields). */
type LimitName = {
  [K in keyof GPUSupportedLimits]-?: GPUSupportedLimits[K] extends number ? K : never;
}[keyof GPUSupportedLimits];

/** The adapter's values of `keys`, as requiredLimits: a device that may use all the adapter allows there. */
export function adapterLimits(adapter: GPUAdapter, keys: readonly LimitName[]): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const key of keys) limits[key] = adapter.limits[key];
  return limits;
}

/** Request an adapter from `gpu` and open a device with its full limits and the features `opts` allows. */
export async function openDevice(
  gpu: GPU | undefined,
  source: string,
  opts: DeviceFeatureOptions = {},
): Promise<GpuContext> {
  if (!gpu) {
    throw new NoWebGpuError('WebGPU is not available here (navigator.gpu is undefined).', 'no-api');
  }
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) {
    throw new NoWebGpuError('WebGPU is present but no GPU adapter was found.', 'no-adapter');
  }
  const requiredFeatures = chooseFeatures(adapter, opts);
  // Ask for everything the adapter allows; the defaults (e.g. 8 storage buffers per stage,
  // 128 MiB bindings) are lower than what real adapters offer.
  const requiredLimits = adapterLimits(adapter, [
    'maxStorageBuffersPerShaderStage',
    'maxStorageBufferBindingSize',
    'maxBufferSize',
    'maxComputeWorkgroupStorageSize',
    'maxComputeInvocationsPerWorkgroup',
    'maxComputeWorkgroupSizeX',
    'maxComputeWorkgroupSizeY',
    'maxComputeWorkgroupsPerDimension',
  ]);
  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  } catch (e) {
    throw new NoWebGpuError(`The GPU adapter refused to open a device: ${(e as Error).message}`, 'device-failed');
  }
  let features: GpuFeatures;
  try {
    features = await settleFeatures(device, adapter, requiredFeatures, opts);
  } catch (e) {
    device.destroy();
    throw e;
  }
  return { device, adapter: describeAdapter(adapter.info, source), features };
}

/** Browser entry: the page's own WebGPU. */
export function openBrowserDevice(opts: DeviceFeatureOptions = {}): Promise<GpuContext> {
  const gpu = typeof navigator !== 'undefined' ? navigator.gpu : undefined;
  return openDevice(gpu, 'navigator.gpu', opts);
}
