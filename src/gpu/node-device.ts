// Node entry to WebGPU: Dawn through the `webgpu` package (tests, CLI, benchmarks).
//
// Dawn needs the system Vulkan loader (Debian: libvulkan1). On a machine without a GPU
// driver it finds no adapter; then, if Debian's chromium package is installed, we point the
// Vulkan loader at the SwiftShader ICD it ships (a CPU emulation) and try once more.

import { existsSync } from 'node:fs';
import { openDevice, NoWebGpuError, type GpuContext } from './device';
import { registerNodeShaders } from './shaders-node';

export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

let dawn: DawnModule | null = null;
// Dawn instances handed out, kept reachable for the life of the process: if the GC collects a
// `GPU` object while a device made from it is alive, Dawn aborts (seen here as SIGSEGV,
// "std::system_error" or a futex error under memory pressure).
const liveInstances: GPU[] = [];

// Dawn rounds timestamps to multiples of 65.5 µs by default (a browser's defence against
// timing attacks); in Node they serve benchmarks and profiles only, where kernels of a few µs
// on a real GPU need them exact.
const DAWN_FLAGS = ['disable-dawn-features=timestamp_quantization'];

function newInstance(create: DawnModule['create']): GPU {
  const gpu = create(DAWN_FLAGS);
  liveInstances.push(gpu);
  return gpu;
}

async function loadDawn(): Promise<DawnModule> {
  if (!dawn) {
    dawn = (await import('webgpu')) as unknown as DawnModule;
    // GPUBufferUsage, GPUMapMode, … as in a browser.
    Object.assign(globalThis, dawn.globals);
  }
  return dawn;
}

/**
 * Another Dawn instance (kept alive), for a second library on the adapter openNodeDevice found:
 * call it after openNodeDevice, which has pointed Vulkan at SwiftShader where it had to.
 */
export async function dawnInstance(): Promise<GPU> {
  const { create } = await loadDawn();
  return newInstance(create);
}

export interface NodeGpuOptions {
  /** Print which adapter was chosen (default true). */
  verbose?: boolean;
}

/** Open a Dawn device, falling back to SwiftShader. Throws NoWebGpuError with the reason. */
export async function openNodeDevice(opts: NodeGpuOptions = {}): Promise<GpuContext> {
  registerNodeShaders();
  const { create } = await loadDawn();
  let ctx: GpuContext | null = null;
  let firstError: unknown = null;
  try {
    ctx = await openDevice(newInstance(create), 'Dawn (node)');
  } catch (e) {
    firstError = e;
  }
  if (!ctx && !process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) {
    // The Vulkan loader reads this variable when Dawn creates its instance.
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    try {
      ctx = await openDevice(newInstance(create), 'Dawn (node) with the SwiftShader ICD of Debian chromium');
    } catch (e) {
      firstError = e;
    }
  }
  if (!ctx) {
    const hint =
      ' Install a GPU driver, or (Debian) `apt-get install libvulkan1 chromium` so that the SwiftShader CPU emulation can be used.';
    const msg = firstError instanceof Error ? firstError.message : String(firstError);
    throw new NoWebGpuError(msg + hint, firstError instanceof NoWebGpuError ? firstError.reason : 'no-adapter');
  }
  if (opts.verbose ?? true) {
    const a = ctx.adapter;
    console.error(`[webgpu] adapter: ${[a.vendor, a.architecture, a.device].filter(Boolean).join(' / ') || a.description} via ${a.source}${a.isSoftware ? ' (software emulation: slow)' : ''}`);
  }
  return ctx;
}
