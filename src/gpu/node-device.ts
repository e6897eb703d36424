// Node entry to WebGPU: Dawn through the `webgpu` package (tests, CLI, benchmarks).
//
// Dawn needs the system Vulkan loader (Debian: libvulkan1). On a machine without a GPU
// driver it finds no adapter; then, if Debian's chromium package is installed, we point the
// Vulkan loader at the SwiftShader ICD it ships (a CPU emulation) and try once more.
//
// Looking for an adapter prints native lines on stderr that read as a crash and mean nothing
// here: Mesa's device-select layer asks the display server which GPU drives the screen, and
// without a desktop session says "error: XDG_RUNTIME_DIR is invalid or not set in the
// environment."; Dawn rejects a Vulkan driver it cannot use (Mesa's llvmpipe) with "Warning:
// Vulkan shaderUniform*ArrayDynamicIndexing required. - While initializing adapter … at
// InitializeImpl (…PhysicalDeviceVk.cpp:257)". They are written by native code to file
// descriptor 2, so they cannot be filtered from here; instead (quietAdapterSearch) the layer is
// switched off where it has no session to ask, and the first look for an adapter is made in a
// child process whose stderr is kept, so the process itself looks once, where it will succeed.

import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import {
  FEATURE_CHOICES,
  FeatureMissingError,
  openDevice,
  NoWebGpuError,
  type DeviceFeatureOptions,
  type FeatureChoice,
  type GpuContext,
} from './device';
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

export interface NodeGpuOptions extends DeviceFeatureOptions {
  /** Print which adapter was chosen (default true). */
  verbose?: boolean;
}

/** The environment variables that set a feature choice where the caller did not: RLVR_SUBGROUPS=off, … */
export const FEATURE_ENV = { subgroups: 'RLVR_SUBGROUPS', shaderF16: 'RLVR_SHADER_F16' } as const;

/** The caller's feature choices, else the environment's (FEATURE_ENV), checked. */
export function featureOptions(opts: DeviceFeatureOptions): DeviceFeatureOptions {
  const out: DeviceFeatureOptions = {};
  for (const key of ['subgroups', 'shaderF16'] as const) {
    const name = FEATURE_ENV[key];
    const raw = opts[key] ?? process.env[name];
    if (raw === undefined || raw === '') continue;
    if (!(FEATURE_CHOICES as readonly string[]).includes(raw))
      throw new RangeError(
        `${opts[key] === undefined ? name : key} must be one of ${FEATURE_CHOICES.join(', ')}, got "${raw}"`,
      );
    out[key] = raw as FeatureChoice;
  }
  return out;
}

/** Whether `dir` is a folder (XDG_RUNTIME_DIR must be one for a desktop session to be there). */
function isFolder(dir: string | undefined): boolean {
  try {
    return dir !== undefined && dir !== '' && statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Whether Dawn finds an adapter with the Vulkan loader's defaults, asked in a child process (its stderr kept from the terminal); null when the child could not answer. */
function defaultLoaderFindsAdapter(): Promise<boolean | null> {
  let entry: string;
  try {
    entry = pathToFileURL(createRequire(import.meta.url).resolve('webgpu')).href;
  } catch {
    return Promise.resolve(null);
  }
  const script = `const { create } = await import(${JSON.stringify(entry)});
const adapter = await create([]).requestAdapter({ powerPreference: 'high-performance' });
process.stdout.write(adapter ? 'found' : 'none');
process.exit(0);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 && (out === 'found' || out === 'none') ? out === 'found' : null);
    });
  });
}

let quieted: Promise<void> | null = null;

/**
 * Settles, once per process and before Dawn's first instance, what the Vulkan loader loads so
 * that looking for an adapter prints nothing (see the top of this file). What the user set
 * (NODEVICE_SELECT, MESA_VK_DEVICE_SELECT, VK_ICD_FILENAMES) is left as it is.
 */
function quietAdapterSearch(): Promise<void> {
  quieted ??= (async () => {
    const env = process.env;
    if (env.NODEVICE_SELECT === undefined && env.MESA_VK_DEVICE_SELECT === undefined && !isFolder(env.XDG_RUNTIME_DIR))
      env.NODEVICE_SELECT = '1';
    if (env.VK_ICD_FILENAMES !== undefined || !existsSync(SWIFTSHADER_ICD)) return;
    // No adapter from the drivers installed: SwiftShader is what the process will end up with.
    if ((await defaultLoaderFindsAdapter()) === false) env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
  })();
  return quieted;
}

/** Open a Dawn device, falling back to SwiftShader. Throws NoWebGpuError with the reason. */
export async function openNodeDevice(opts: NodeGpuOptions = {}): Promise<GpuContext> {
  registerNodeShaders();
  const features = featureOptions(opts);
  await quietAdapterSearch();
  const icdChosen = process.env.VK_ICD_FILENAMES === SWIFTSHADER_ICD;
  const { create } = await loadDawn();
  let ctx: GpuContext | null = null;
  let firstError: unknown = null;
  try {
    ctx = await openDevice(
      newInstance(create),
      icdChosen ? 'Dawn (node) with the SwiftShader ICD of Debian chromium' : 'Dawn (node)',
      features,
    );
  } catch (e) {
    if (e instanceof FeatureMissingError) throw e; // the adapter is there; what was forced is not
    firstError = e;
  }
  if (!ctx && !process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) {
    // The Vulkan loader reads this variable when Dawn creates its instance.
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    try {
      ctx = await openDevice(newInstance(create), 'Dawn (node) with the SwiftShader ICD of Debian chromium', features);
    } catch (e) {
      if (e instanceof FeatureMissingError) throw e;
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
    console.error(
      `[webgpu] adapter: ${[a.vendor, a.architecture, a.device].filter(Boolean).join(' / ') || a.description} via ${a.source}${a.isSoftware ? ' (software emulation: slow)' : ''}`,
    );
  }
  return ctx;
}
