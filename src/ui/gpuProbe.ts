// The page's own look at WebGPU before the worker starts, as React state: probeGpu
// (src/gpu/selfcheck.ts) on the browser's device, released after.

import { useEffect, useState } from 'react';
import { openBrowserDevice } from '../gpu/device';
import { probeGpu, type GpuProbe } from '../gpu/selfcheck';

export type { GpuProbe };

export function useGpuProbe(): GpuProbe {
  const [probe, setProbe] = useState<GpuProbe>({ kind: 'starting' });
  useEffect(() => {
    let cancelled = false;
    void probeGpu(openBrowserDevice, setProbe, () => cancelled);
    return () => {
      cancelled = true;
    };
  }, []);
  return probe;
}
