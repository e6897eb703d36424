// The engine a CLI command runs on: the WGSL engine on Dawn (default) or the CPU reference.
// On the GPU a run is checked against the adapter's limits and the memory budget before any
// GPU work (src/rl/gpu-fit.ts).

import { CliError, type ParsedFlags } from '../core/flags';
import { ConfigError, type RunConfig } from '../config/config';
import { openNodeDevice } from '../gpu/node-device';
import type { MakeEngine } from '../rl/engine';
import { GpuEngine } from '../rl/gpu-engine';
import { CpuEngine } from '../rl/cpu-engine';
import { checkGpuFit, DEFAULT_GPU_MEMORY_BYTES, gpuLimitsOf, type GpuBudget } from '../rl/gpu-fit';

export type Backend = 'gpu' | 'cpu';

export function backendFlag(flags: ParsedFlags): Backend {
  const raw = String(flags.backend ?? 'gpu');
  if (raw !== 'gpu' && raw !== 'cpu') throw new CliError(`--backend must be one of gpu, cpu; got "${raw}"`);
  return raw;
}

/** --gpu-memory in GiB (default 4): the budget the run's GPU buffers must fit in. */
export function gpuMemoryFlag(flags: ParsedFlags): number {
  const raw = flags['gpu-memory'];
  if (raw === undefined) return DEFAULT_GPU_MEMORY_BYTES;
  const gib = /^\s*\d+(\.\d+)?\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(gib > 0 && gib <= 1024))
    throw new CliError(`--gpu-memory must be a number of GiB in (0, 1024], got "${String(raw)}"`);
  return gib * 2 ** 30;
}

export interface Engines {
  make: MakeEngine;
  adapter: string;
  /** The GPU's limits and the memory budget; null on the CPU. */
  budget: GpuBudget | null;
  close(): void;
}

export async function openEngines(backend: Backend, memoryBytes = DEFAULT_GPU_MEMORY_BYTES): Promise<Engines> {
  if (backend === 'cpu')
    return { make: (l, p, s) => new CpuEngine(l, p, s), adapter: 'cpu reference', budget: null, close() {} };
  const ctx = await openNodeDevice();
  const a = ctx.adapter;
  return {
    make: (l, p, s) => GpuEngine.create(ctx.device, l, p, s),
    adapter: [a.vendor, a.architecture, a.description].filter(Boolean).join(' / '),
    budget: gpuLimitsOf(ctx.device, memoryBytes),
    close: () => ctx.device.destroy(),
  };
}

/** Refuses a run that does not fit the GPU, naming the knob (a no-op on the CPU). */
export function checkFits(engines: Engines, config: RunConfig): void {
  if (!engines.budget) return;
  try {
    checkGpuFit(config, engines.budget);
  } catch (e) {
    if (e instanceof ConfigError)
      throw new CliError(
        /memory budget/.test(e.message) ? `${e.message} Or raise the budget with --gpu-memory GiB.` : e.message,
      );
    throw e;
  }
}
