// The page's own look at WebGPU before the worker starts: is there an adapter, and does a
// kernel agree with its CPU twin here (the self-check badge). The device is released after.

import { useEffect, useState } from 'react';
import { openBrowserDevice, adapterLabel, NoWebGpuError } from '../gpu/device';
import { runSelfCheck, type SelfCheckResult } from '../gpu/selfcheck';

export type GpuProbe =
  | { kind: 'starting' }
  | { kind: 'no-webgpu'; reason: NoWebGpuError['reason']; detail: string }
  | { kind: 'ready'; adapter: string; vendor: string; architecture: string; isSoftware: boolean; check: SelfCheckResult | null; checkError?: string };

export function useGpuProbe(): GpuProbe {
  const [probe, setProbe] = useState<GpuProbe>({ kind: 'starting' });
  useEffect(() => {
    let cancelled = false;
    (async () => {
      let gpu;
      try {
        gpu = await openBrowserDevice();
      } catch (e) {
        const reason = e instanceof NoWebGpuError ? e.reason : 'device-failed';
        if (!cancelled) setProbe({ kind: 'no-webgpu', reason, detail: (e as Error).message });
        return;
      }
      const a = gpu.adapter;
      const ready = { kind: 'ready' as const, adapter: adapterLabel(a), vendor: a.vendor, architecture: a.architecture, isSoftware: a.isSoftware };
      if (!cancelled) setProbe({ ...ready, check: null });
      try {
        const check = await runSelfCheck(gpu.device);
        if (!cancelled) setProbe({ ...ready, check });
      } catch (e) {
        if (!cancelled) setProbe({ ...ready, check: null, checkError: (e as Error).message });
      } finally {
        gpu.device.destroy();
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);
  return probe;
}
