// The bar along the top of both views: a big play button, one step, one phase, reset, the step
// counter and run status, the lesson picker, and the switches (settings, runs, view, zoom).
// Shortcuts are written next to the buttons they stand for.

import type { Phase } from '../../rl/step-metrics';
import { type RunConfig } from '../../config';
import { PRESETS } from '../../lessons';
import { getTask } from '../../tasks/registry';
import { useApp } from '../../store/store';
import type { DrawerTab } from '../../store/uiSlice';
import { useController } from '../context';
import type { PlaygroundController } from '../controller';
import { LabelledSelect, type SelectOption } from '../LabelledSelect';
import type { GpuProbe } from '../gpuProbe';

const PHASES: Phase[] = ['sample', 'verify', 'advantages', 'update'];

/** Speeds offered: the value is the pause between steps (ms). */
const SPEEDS: readonly SelectOption[] = [
  { label: 'fastest', value: 0 },
  { label: '+0.1 s/step', value: 100 },
  { label: '+0.5 s/step, phases', value: 500 },
  { label: '+2 s/step, phases', value: 2000 },
];

const NO_PRESET = '';

/** The lessons in course order, numbered, then the plain defaults. */
const LESSONS: readonly SelectOption[] = [
  ...PRESETS.map((p, i) => ({ value: p.name, label: `${i + 1} · ${p.title}` })),
  { value: NO_PRESET, label: '— no lesson: the plain defaults —' },
];

export function TopBar({ probe }: { probe: Extract<GpuProbe, { kind: 'ready' }> }) {
  const view = useApp((s) => s.view);
  return (
    <header className="topbar" role="toolbar" aria-label="training controls">
      <Transport />
      <StepCounter />
      {view === 'dashboard' && <PhasePipeline />}
      <div className="topbar-right">
        <div className="row-tight">
          <LessonPicker />
        </div>
        <div className="row-tight">
          <Switches />
          <AdapterBadge probe={probe} />
        </div>
      </div>
    </header>
  );
}

/** The small buttons beside play. `betweenSteps`: only while no step runs and the run can go on. */
const STEP_BUTTONS: {
  testId: string;
  text: string;
  title: string;
  run: (controller: PlaygroundController) => void;
  betweenSteps: boolean;
}[] = [
  { testId: 'step', text: 'Step →', title: 'Exactly one whole step (→)', run: (c) => c.step(), betweenSteps: true },
  {
    testId: 'phase-step',
    text: 'Phase ›',
    title: 'One phase of the step: sample → verify → advantages → update (Shift+→)',
    run: (c) => c.phase(),
    betweenSteps: true,
  },
  {
    testId: 'reset',
    text: '↺ Reset',
    title: 'A new run from the same initial weights (same seed), with the current settings',
    run: (c) => c.reset(),
    betweenSteps: false,
  },
  {
    testId: 'reset-seed',
    text: 'New seed',
    title: 'A new run with a new random seed',
    run: (c) => c.resetWithNewSeed(),
    betweenSteps: false,
  },
];

function Transport() {
  const controller = useController();
  const status = useApp((s) => s.status);
  const pausing = useApp((s) => s.pausing);
  const delayMs = useApp((s) => s.delayMs);
  const running = status === 'running';
  const blocked = !controller || status === 'lost' || status === 'fault';
  return (
    <div className="transport" data-highlight="play">
      {running ? (
        <button
          className="play-button"
          data-testid="pause"
          disabled={!controller || pausing}
          onClick={() => controller?.pause()}
          title="Pause after the step in progress (Space)"
          aria-label="pause"
        >
          ❚❚
        </button>
      ) : (
        <button
          className="play-button"
          data-testid="start"
          disabled={blocked}
          onClick={() => controller?.start()}
          title="Train continuously (Space)"
          aria-label="start training"
        >
          ▶
        </button>
      )}
      <div className="transport-small">
        <div className="row-tight">
          {STEP_BUTTONS.map((b) => (
            <button
              key={b.testId}
              data-testid={b.testId}
              disabled={b.betweenSteps ? blocked || running : !controller}
              onClick={() => controller && b.run(controller)}
              title={b.title}
            >
              {b.text}
            </button>
          ))}
        </div>
        <div className="row-tight shortcuts-hint">
          <span>Space ▶/❚❚ · → step · Shift+→ phase</span>
          <LabelledSelect
            className="speed"
            title="Pause between steps; at 0.5 s and slower each phase of a step is shown as it happens"
            label="speed"
            testId="speed"
            value={delayMs}
            options={SPEEDS}
            onChange={(value) => controller?.setSpeed(Number(value))}
          />
        </div>
      </div>
    </div>
  );
}

/** The status as a person reads it; data-status keeps the machine value. */
function statusText(status: string, pausing: boolean, finished: boolean, warm: string | null): string {
  if (pausing) return 'pausing…';
  switch (status) {
    case 'running':
      return 'training';
    case 'idle':
      return finished ? 'done' : 'paused';
    case 'starting':
      return warm ?? 'building the model…';
    case 'fault':
      return 'stopped: fault';
    case 'lost':
      return 'GPU lost';
    case 'error':
      return 'error';
    default:
      return status;
  }
}

function StepCounter() {
  const step = useApp((s) => s.step);
  const steps = useApp((s) => s.trainerConfig?.steps ?? 0);
  const status = useApp((s) => s.status);
  const pausing = useApp((s) => s.pausing);
  const warm = useApp((s) => (s.warmStart && s.trainerConfig ? warmStartText(s.warmStart, s.trainerConfig) : null));
  const warmTitle = useApp((s) =>
    s.warmStart && s.trainerConfig ? warmStartTitle(s.warmStart, s.trainerConfig) : undefined,
  );
  const finished = steps > 0 && step >= steps;
  return (
    <div className="step-counter" aria-live="polite">
      <div className="step-number">
        step <b data-testid="step-count">{step}</b>
        {steps > 0 ? <span className="muted"> / {steps}</span> : null}
      </div>
      <span
        className={`status status-${pausing ? 'pausing' : status}`}
        data-testid="status"
        data-status={status}
        data-pausing={String(pausing)}
        title={status === 'starting' ? warmTitle : undefined}
      >
        {statusText(status, pausing, finished, warm)}
      </span>
    </div>
  );
}

/** The four phases of a step as chips (dashboard; the lecture view has the loop diagram). */
export function PhasePipeline() {
  const phase = useApp((s) => s.phase);
  const current = phase?.phase ?? null;
  return (
    <span className="phases" aria-label="phase of the step in progress">
      {PHASES.map((p, i) => (
        <span
          key={p}
          className={`phase-chip${p === current ? ' current' : ''}${current && PHASES.indexOf(current) > i ? ' done' : ''}`}
        >
          {p}
        </span>
      ))}
      <span className="phase-now">
        phase{' '}
        <b data-testid="phase" data-step={phase?.step ?? ''}>
          {current ?? '–'}
        </b>
      </span>
    </span>
  );
}

function LessonPicker() {
  const controller = useController();
  const preset = useApp((s) => s.preset);
  return (
    <LabelledSelect
      className="lesson-picker"
      label={<span className="muted">lesson</span>}
      testId="preset"
      value={preset ?? NO_PRESET}
      options={LESSONS}
      onChange={(value) => controller?.choosePreset(value === NO_PRESET ? undefined : value)}
    />
  );
}

/** The drawers the lecture view opens from the top bar; each button opens its drawer, or closes it. */
const DRAWER_SWITCHES: { tab: DrawerTab; testId: string; title: string; text: string }[] = [
  { tab: 'settings', testId: 'open-settings', title: 'All settings of the run (the knob table)', text: '⚙ settings' },
  {
    tab: 'runs',
    testId: 'open-runs',
    title: 'Runs kept in this browser: overlay, export, import, sweeps',
    text: 'runs',
  },
  { tab: 'charts', testId: 'open-charts', title: 'Every chart, engineering ones included', text: 'charts' },
];

function Switches() {
  const view = useApp((s) => s.view);
  const setView = useApp((s) => s.setView);
  const zoom = useApp((s) => s.zoom);
  const setZoom = useApp((s) => s.setZoom);
  const drawer = useApp((s) => s.drawer);
  const setDrawer = useApp((s) => s.setDrawer);
  return (
    <div className="switches">
      {view === 'lecture' &&
        DRAWER_SWITCHES.map((d) => (
          <button
            key={d.tab}
            data-testid={d.testId}
            aria-pressed={drawer === d.tab}
            onClick={() => setDrawer(drawer === d.tab ? null : d.tab)}
            title={d.title}
          >
            {d.text}
          </button>
        ))}
      <button
        data-testid="view-toggle"
        data-view={view}
        onClick={() => setView(view === 'lecture' ? 'dashboard' : 'lecture')}
        title={
          view === 'lecture'
            ? 'Every chart, every group and the settings side by side (for ablations)'
            : "One screen: the loop, the lesson's charts, one group, the guide"
        }
      >
        {view === 'lecture' ? 'dashboard' : 'lecture'}
      </button>
      <button
        data-testid="zoom-toggle"
        aria-pressed={zoom}
        onClick={() => setZoom(!zoom)}
        title="Lecture zoom: larger text for a projector"
      >
        A+
      </button>
    </div>
  );
}

function AdapterBadge({ probe }: { probe: Extract<GpuProbe, { kind: 'ready' }> }) {
  const numParams = useApp((s) => s.numParams);
  const c = probe.check;
  const checkTitle = probe.checkError
    ? probe.checkError
    : c
      ? `add over ${c.n} floats on the GPU against the CPU twin: max |GPU − CPU| = ${c.maxAbsDiff} (${c.ms.toFixed(0)} ms)`
      : 'running';
  return (
    <div
      className="adapter-badge"
      data-testid="adapter-panel"
      title={`GPU: ${probe.adapter} (vendor ${probe.vendor || 'n/a'}, architecture ${probe.architecture || 'n/a'})${probe.isSoftware ? '. A CPU emulation of a GPU: everything works, but training is 100–1000× slower than on real hardware.' : ''}`}
    >
      <span className="adapter-name" data-testid="adapter">
        {probe.adapter}
      </span>
      {probe.isSoftware ? <span className="badge warn-badge">software GPU</span> : <span className="badge">GPU</span>}
      <span
        className={`badge ${probe.checkError || (c && !c.ok) ? 'bad' : c ? 'good' : ''}`}
        data-testid="selfcheck"
        data-ok={c ? String(c.ok) : undefined}
        data-maxdiff={c ? String(c.maxAbsDiff) : undefined}
        title={`kernel self-check: ${checkTitle}`}
      >
        {probe.checkError ? 'self-check failed' : c ? (c.ok ? '✓ self-check' : 'self-check FAILED') : 'self-check…'}
      </span>
      {numParams > 0 && (
        <span className="badge num-params" data-testid="num-params">
          {numParams.toLocaleString('en-US')} weights
        </span>
      )}
    </div>
  );
}

/**
 * The warm start as a phase of its own: on base completions, "the base model learns to walk"
 * (the task's words); on the reference answers, a supervised warm start.
 */
export function warmStartText(
  w: { done: number; of: number; loss: number },
  config: Pick<RunConfig, 'task' | 'sftData'>,
): string {
  const what =
    config.sftData === 'base' ? `base model ${getTask(config.task).baseLesson ?? 'warm start'}` : 'warm start';
  return `${what}: ${w.done} / ${w.of}`;
}

/** The warm start's longer story, on hover: what it trains on, and the loss. */
export function warmStartTitle(w: { loss: number }, config: Pick<RunConfig, 'sftData'>): string {
  const data =
    config.sftData === 'base'
      ? 'supervised steps on base completions (plausible, uninformed by the reward) before RL'
      : "supervised steps on the task's reference answers before RL";
  return `${data}; loss ${w.loss.toFixed(2)}`;
}
