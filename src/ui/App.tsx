// The playground: header (adapter, self-check), training controls, config form, charts, runs,
// rollouts. The training itself runs in a module worker (src/worker/worker.ts); this page
// only sends commands and draws what comes back.

import { lazy, Suspense, useEffect, useState } from 'react';
import { useGpuProbe } from './gpuProbe';
import { Header } from './Header';
import { NoWebGpu } from './NoWebGpu';
import { ControllerContext } from './context';
import type { PlaygroundController } from './controller';
import { startPlayground } from './bootstrap';
import { Transport } from './Transport';
import { Guide, PresetPicker } from './PresetPicker';
import { Messages } from './Messages';
import { ConfigForm } from './ConfigForm';
import { RunsPanel } from './RunsPanel';
import { SweepPanel } from './SweepPanel';
import { RolloutPanel } from './RolloutPanel';
import { LatestMetrics } from './LatestMetrics';

// recharts is most of the bundle: load the charts in their own chunk so the controls appear first.
const Charts = lazy(() => import('./Charts').then((m) => ({ default: m.Charts })));

export function App() {
  const probe = useGpuProbe();
  const [controller, setController] = useState<PlaygroundController | null>(null);
  const gpuReady = probe.kind === 'ready';

  useEffect(() => {
    if (!gpuReady) return;
    const playground = startPlayground();
    setController(playground.controller);
    return () => {
      setController(null);
      playground.stop();
    };
  }, [gpuReady]);

  return (
    <main className="app">
      <Header probe={probe} />
      {probe.kind === 'starting' && <p data-testid="status-probe">Looking for a WebGPU adapter…</p>}
      {probe.kind === 'no-webgpu' && <NoWebGpu reason={probe.reason} detail={probe.detail} />}
      {probe.kind === 'ready' && (
        <ControllerContext.Provider value={controller}>
          <div className="toolbar">
            <PresetPicker />
            <Transport />
          </div>
          <Messages />
          <div className="layout">
            <aside className="sidebar" aria-label="config">
              <ConfigForm />
            </aside>
            <div className="content">
              <Guide />
              <LatestMetrics />
              <Suspense fallback={<p data-testid="charts-loading">Loading charts…</p>}>
                <Charts />
              </Suspense>
              <RolloutPanel />
            </div>
            <aside className="sidebar-right">
              <RunsPanel />
              <SweepPanel />
            </aside>
          </div>
        </ControllerContext.Provider>
      )}
    </main>
  );
}
