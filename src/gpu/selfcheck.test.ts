// The page's GPU probe: the adapter first, then the self-check; a clear "no WebGPU" without one.
import { describe, expect, it } from 'vitest';
import { NoWebGpuError } from './device';
import { openNodeDevice } from './node-device';
import { probeGpu, runSelfCheck, type GpuProbe } from './selfcheck';
import { gpuIt } from './testing';

describe('the page GPU probe', () => {
  gpuIt('reports the adapter, then a self-check that agrees with the CPU twin, and releases its device', async () => {
    const reports: GpuProbe[] = [];
    const opened = await openNodeDevice({ verbose: false });
    await probeGpu(
      () => Promise.resolve(opened),
      (p) => reports.push(p),
    );
    expect(reports.map((r) => r.kind)).toEqual(['ready', 'ready']);
    const [first, last] = reports;
    if (first.kind !== 'ready' || last.kind !== 'ready') throw new Error('unreachable');
    expect(first.check).toBeNull();
    expect(last.adapter).toBe(first.adapter);
    expect(last.check).toMatchObject({ n: 4099, maxAbsDiff: 0, ok: true });
    expect((await opened.device.lost).reason).toBe('destroyed');
  });

  gpuIt('the self-check: exact f32 sums, the first four shown', async ({ device }) => {
    const r = await runSelfCheck(device, 100);
    expect(r).toMatchObject({ n: 100, maxAbsDiff: 0, ok: true });
    const f = Math.fround;
    expect(r.sample).toEqual([0, 1, 2, 3].map((i) => f(f(Math.sin(i) * 3) + f(i / 7))));
  });

  it('without an adapter it reports no-webgpu with the reason, and nothing once cancelled', async () => {
    const none = () => Promise.reject(new NoWebGpuError('no adapter offered', 'no-adapter'));
    const reports: GpuProbe[] = [];
    await probeGpu(none, (p) => reports.push(p));
    expect(reports).toEqual([{ kind: 'no-webgpu', reason: 'no-adapter', detail: 'no adapter offered' }]);
    const failing = () => Promise.reject(new Error('device request failed'));
    await probeGpu(failing, (p) => reports.push(p));
    expect(reports[1]).toEqual({ kind: 'no-webgpu', reason: 'device-failed', detail: 'device request failed' });
    await probeGpu(
      none,
      (p) => reports.push(p),
      () => true,
    );
    expect(reports).toHaveLength(2);
  });
});
