// The playground. Two views of the same run:
//   lecture   — one screen, read left to right: the RL loop (its phase lit), the lesson's charts,
//               one group of answers; the guide along the bottom; settings in a drawer.
//   dashboard — everything side by side for ablations: settings, every chart, every group, runs.
// The training itself runs in a module worker (src/worker/worker.ts); the page only sends
// commands and draws what comes back.

import { lazy, Suspense, useEffect, useState } from 'react';
import { useGpuProbe, type GpuProbe } from './gpuProbe';
import { NoWebGpu } from './NoWebGpu';
import { ControllerContext } from './context';
import type { PlaygroundController } from './controller';
import { startPlayground } from './bootstrap';
import { Messages } from './Messages';
import { ConfigForm } from './ConfigForm';
import { RunsPanel } from './RunsPanel';
import { SweepPanel } from './SweepPanel';
import { RolloutPanel } from './RolloutPanel';
import { LatestMetrics } from './LatestMetrics';
import { TopBar } from './lecture/TopBar';
import { LoopDiagram } from './lecture/LoopDiagram';
import { GroupPanel, useShownRollout } from './lecture/GroupPanel';
import { GuideStrip } from './lecture/GuideStrip';
import { Drawer } from './lecture/Drawer';
import { useShortcuts } from './lecture/shortcuts';
import { useApp } from '../store/store';
import { AblationPanel, AblationRunnerContext } from './ablation/AblationPanel';
import { CodePanel } from './code/CodePanel';
import type { AblationRunner } from './ablation/runner';
import { DEFAULT_CHARTS, getPreset } from '../lessons';

// The charts load in their own chunk so the controls appear first.
const LessonCharts = lazy(() => import('./charts/Charts').then((m) => ({ default: m.LessonCharts })));
const AllCharts = lazy(() => import('./charts/Charts').then((m) => ({ default: m.AllCharts })));

export function App() {
  const probe = useGpuProbe();
  const [controller, setController] = useState<PlaygroundController | null>(null);
  const [ablation, setAblation] = useState<AblationRunner | null>(null);
  const gpuReady = probe.kind === 'ready';
  const view = useApp((s) => s.view);
  const zoom = useApp((s) => s.zoom);

  useEffect(() => {
    if (!gpuReady) return;
    const playground = startPlayground();
    setController(playground.controller);
    setAblation(playground.ablation);
    return () => {
      setController(null);
      setAblation(null);
      playground.stop();
    };
  }, [gpuReady]);
  useShortcuts(controller);

  if (probe.kind !== 'ready') {
    return (
      <main className="app app-plain">
        <h1>RLVR playground</h1>
        <p className="tagline">Reinforcement learning from verifiable rewards, trained live on your GPU.</p>
        {probe.kind === 'starting' && <p data-testid="status-probe">Looking for a WebGPU adapter…</p>}
        {probe.kind === 'no-webgpu' && <NoWebGpu reason={probe.reason} detail={probe.detail} />}
      </main>
    );
  }
  return (
    <ControllerContext.Provider value={controller}>
      <AblationRunnerContext.Provider value={ablation}>
        <main className={`app app-${view}${zoom ? ' zoom' : ''}`} data-testid="app" data-view={view}>
          <TopBar probe={probe} />
          <Messages />
          {view === 'lecture' ? <LectureView /> : <DashboardView />}
          {view === 'lecture' && <Drawer />}
        </main>
      </AblationRunnerContext.Provider>
    </ControllerContext.Provider>
  );
}

function LectureView() {
  const preset = useApp((s) => s.preset);
  // Every chart of the lesson, zoomed or not: the guide talks about each of them.
  const charts = preset ? getPreset(preset).charts : DEFAULT_CHARTS;
  const { rollout } = useShownRollout();
  return (
    <>
      <div className="lecture" data-testid="lecture">
        <LoopDiagram rollout={rollout} />
        <Suspense
          fallback={
            <section className="lesson-charts" data-testid="charts-loading">
              Loading charts…
            </section>
          }
        >
          <LessonCharts ids={charts} />
        </Suspense>
        <GroupPanel />
      </div>
      <GuideStrip />
    </>
  );
}

function DashboardView() {
  return (
    <div className="dashboard" data-testid="dashboard">
      <aside className="sidebar" aria-label="settings">
        <ConfigForm />
      </aside>
      <div className="content">
        <GuideStrip />
        <LatestMetrics />
        <Suspense fallback={<p data-testid="charts-loading">Loading charts…</p>}>
          <AllCharts />
        </Suspense>
        <AblationPanel />
        <CodePanel />
        <RolloutPanel />
      </div>
      <aside className="sidebar-right">
        <RunsPanel />
        <SweepPanel />
      </aside>
    </div>
  );
}

export type { GpuProbe };
