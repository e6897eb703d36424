// The worker's session logic against a fake trainer: commands in, events out.

import { describe, expect, it } from 'vitest';
import { type RunConfig } from '../config';
import { presetConfig } from '../lessons';
import type { ResumePoint } from '../rl/trainer-state';
import {
  TrainingFault,
  type PhasedRunEvent,
  type RolloutSnapshot,
  type RunPosition,
  type StepPhase,
} from '../rl/trainer';
import type { Phase, StepRecord } from '../rl/step-metrics';
import type { Event } from './protocol';
import { TrainingSession, type SessionDeps, type SessionTrainer } from './session';
import { CustomCodeError } from '../rl/custom/custom-code-errors';

const PHASES: Phase[] = ['sample', 'verify', 'advantages', 'update'];

function snapshot(): RolloutSnapshot {
  const N = 2;
  const Lc = 2;
  return {
    shape: { B: 1, G: 2, N, Lp: 1, Lc, T: 3 },
    instances: [],
    tokens: new Int32Array(N * 3),
    facts: {
      mask: new Float32Array(N * Lc),
      entropy: new Float32Array(N * Lc),
      logp: new Float32Array(N * Lc),
      lengths: new Int32Array(N),
      truncated: new Uint8Array(N),
    },
    verified: {
      rewards: new Float64Array(N),
      correct: new Uint8Array(N),
      signatures: [],
      errorSignatures: [],
      groupMetrics: [],
    },
    vocab: ['<pad>'],
  };
}

/** A trainer whose step `faultAt` (1-based) throws a TrainingFault after sampling; built from a resume point, it continues its step. */
class FakeTrainer implements SessionTrainer {
  stepCount = 0;
  level = 3;
  /** What it was built with. */
  built: { config?: RunConfig; params?: Float32Array; resume?: ResumePoint | RunPosition } = {};
  /** Warm-start steps left (as Trainer.create leaves them: all of sftSteps for a fresh model only). */
  sftLeft = 0;
  readonly vocab = ['<pad>'];
  readonly layout = { numParams: 123 };
  latest: RolloutSnapshot | null = null;
  destroyed = false;
  warmStarts = 0;
  constructor(private readonly faultAt = 0) {}
  async *stepPhases(): AsyncGenerator<StepPhase | { record: StepRecord }> {
    const snap = snapshot();
    this.latest = snap;
    for (const phase of PHASES) {
      if (phase === 'verify' && this.stepCount + 1 === this.faultAt) {
        throw new TrainingFault(this.stepCount + 1, ['h0.attn'], 'non-finite gradient');
      }
      if (phase === 'update') this.stepCount++;
      yield { phase, snapshot: snap };
    }
    yield {
      record: {
        step: this.stepCount,
        scalars: { reward: this.stepCount / 10 },
        entropy_by_pos: [],
        advantage_histogram: { counts: [], edges: [] },
        level: this.level,
      },
    };
  }
  get sftStepsRemaining() {
    return this.sftLeft;
  }
  /** As Trainer.run with no end: the warm start when one is left, then every step's phases and record. */
  async *run(opts: { onWarmStartStep?: (done: number, loss: number) => void } = {}): AsyncGenerator<PhasedRunEvent> {
    if (this.sftLeft > 0) {
      this.warmStarts++;
      const of = this.sftLeft;
      for (let done = 1; done <= of; done++) opts.onWarmStartStep?.(done, 2 - done / of);
      this.sftLeft = 0;
      yield { warmStart: { steps: of, done: of, of, firstLoss: 2, lastLoss: 1 } };
    }
    for (;;) yield* this.stepPhases();
  }
  previews = 0;
  async preview() {
    this.previews++;
    return snapshot();
  }
  async evaluate() {
    return {
      step: this.stepCount,
      level: 3,
      prompts: 4,
      'eval/pass@1_greedy': 0.5,
      'eval/pass@k': 0.75,
      'eval/pass@1_sampled': 0.4,
      k: 4,
      taskMetrics: {},
    };
  }
  async checkpoint() {
    return new Uint8Array([1, 2, 3]);
  }
  async readParams() {
    return new Float32Array([this.stepCount]);
  }
  async resumePoint() {
    return { state: { stepCount: this.stepCount, level: this.level } } as unknown as ResumePoint;
  }
  destroy() {
    this.destroyed = true;
  }
}

function setup(options: { faultAt?: number; refuse?: (config: RunConfig, resume: unknown) => Error | undefined } = {}) {
  const events: Event[] = [];
  const trainers: FakeTrainer[] = [];
  let lose: () => void = () => {};
  const deps: SessionDeps = {
    async openGpu(onLost) {
      lose = () => onLost('The GPU device was lost (simulated).');
      return {
        adapter: { vendor: 'fake', architecture: '', device: '', description: '', isSoftware: true, source: 'test' },
        lose: () => lose(),
      };
    },
    async createTrainer(config, params, resume) {
      const refused = options.refuse?.(config, resume);
      if (refused) throw refused;
      // A rebuilt trainer has the new, calmer settings: it does not fault again.
      const t = new FakeTrainer(resume ? 0 : options.faultAt);
      t.built = { config, params, resume };
      if (resume && 'state' in resume) t.stepCount = (resume.state as { stepCount: number }).stepCount;
      else if (resume) [t.stepCount, t.level] = [resume.step, resume.level];
      t.sftLeft = params ? 0 : config.sftSteps;
      trainers.push(t);
      return t;
    },
    async learnedTable() {
      return null;
    },
    post: (e) => events.push(e),
    sleep: () => new Promise((r) => setTimeout(r, 0)),
  };
  const session = new TrainingSession(deps);
  const until = async (pred: () => boolean, what: string) => {
    for (let i = 0; i < 2000 && !pred(); i++) await new Promise((r) => setTimeout(r, 0));
    if (!pred()) throw new Error(`timed out waiting for ${what}; events: ${events.map((e) => e.type).join(' ')}`);
  };
  return { session, events, trainers, until, types: () => events.map((e) => e.type) };
}

const config = { ...presetConfig('sort-easy'), steps: 5 };

describe('TrainingSession', () => {
  it("a preview posts one group at the model's step, marked as a preview, and moves nothing", async () => {
    const { session, events, trainers, until } = setup();
    session.handle({ type: 'init', config, resume: { step: 7, level: 3 } });
    session.handle({ type: 'preview' });
    await until(() => events.some((e) => e.type === 'preview'), 'preview');
    const e = events.find((x) => x.type === 'preview');
    expect(e).toMatchObject({ type: 'preview', rollout: { step: 7, preview: true, shape: { B: 1, G: 2 } } });
    expect(trainers[0].previews).toBe(1);
    expect(trainers[0].stepCount).toBe(7);
    expect(events.some((x) => x.type === 'step' || x.type === 'phase')).toBe(false);
  });

  it('no preview in the middle of a step taken phase by phase', async () => {
    const { session, events, trainers, until } = setup();
    session.handle({ type: 'init', config });
    session.handle({ type: 'phase' });
    session.handle({ type: 'preview' });
    session.handle({ type: 'eval' });
    await until(() => events.some((e) => e.type === 'eval'), 'eval');
    expect(trainers[0].previews).toBe(0);
    expect(events.some((x) => x.type === 'preview')).toBe(false);
  });

  it('builds a model on init and reports ready with the adapter and size', async () => {
    const { session, events, until } = setup();
    session.handle({ type: 'init', config });
    await until(() => events.some((e) => e.type === 'status'), 'status');
    expect(events[0]).toMatchObject({ type: 'ready', numParams: 123, adapter: { vendor: 'fake' } });
    expect(events[1]).toEqual({ type: 'status', running: false, step: 0 });
  });

  it('a warm start shows its progress before ready: the first step, and the last (at most 4 updates a second)', async () => {
    const { session, events, until } = setup();
    session.handle({ type: 'init', config: { ...config, sftSteps: 40 } });
    await until(() => events.some((e) => e.type === 'status'), 'status');
    const ready = events.findIndex((e) => e.type === 'ready');
    const warm = events.slice(0, ready);
    expect(warm.map((e) => e.type)).toEqual(['warmStart', 'warmStart']);
    expect(warm[0]).toEqual({ type: 'warmStart', done: 1, of: 40, loss: 2 - 1 / 40 });
    expect(warm[1]).toEqual({ type: 'warmStart', done: 40, of: 40, loss: 1 });
  });

  it('runs one whole step per Step, then reports the status', async () => {
    const { session, events, until, types } = setup();
    session.handle({ type: 'init', config });
    session.handle({ type: 'step' });
    await until(() => types().filter((t) => t === 'status').length === 2, 'two statuses');
    expect(types()).toEqual(['ready', 'status', 'step', 'status']);
    const step = events[2] as Extract<Event, { type: 'step' }>;
    expect(step.record.step).toBe(1);
    expect(step.rollout.step).toBe(1);
    expect(step.rollout.phase).toBeUndefined();
    expect(events[3]).toEqual({ type: 'status', running: false, step: 1 });
  });

  it('steps phase by phase: sample, verify, advantages, update, and the record with the update', async () => {
    const { session, events, until, types } = setup();
    session.handle({ type: 'init', config });
    for (let i = 0; i < 4; i++) session.handle({ type: 'phase' });
    await until(() => types().includes('step'), 'the step');
    const phases = events.filter((e): e is Extract<Event, { type: 'phase' }> => e.type === 'phase');
    expect(phases.map((p) => p.phase)).toEqual(PHASES);
    expect(phases.every((p) => p.step === 1 && p.rollout.phase === p.phase)).toBe(true);
    expect(types().slice(-2)).toEqual(['step', 'status']);
    // a Step after two phases finishes the step in progress: still exactly one step
    session.handle({ type: 'phase' });
    session.handle({ type: 'phase' });
    session.handle({ type: 'step' });
    await until(() => types().filter((t) => t === 'step').length === 2, 'the second step');
    expect(events.filter((e) => e.type === 'phase')).toHaveLength(6);
    expect((events.at(-2) as Extract<Event, { type: 'step' }>).record.step).toBe(2);
  });

  it('a start sent right behind an init trains the new model (a sweep starting its next run)', async () => {
    const { session, events, until, trainers } = setup();
    session.handle({ type: 'init', config });
    session.handle({ type: 'start', delayMs: 0 });
    await until(
      () => events.filter((e) => e.type === 'step').length === 5 && events.at(-1)?.type === 'status',
      'the first run',
    );
    // The first trainer has finished its 5 steps; the next init and start arrive back to back.
    session.handle({ type: 'init', config });
    session.handle({ type: 'start', delayMs: 0 });
    await until(
      () => trainers.length === 2 && trainers[1].stepCount === 5 && events.at(-1)?.type === 'status',
      'the second run',
    );
    expect(events.filter((e) => e.type === 'step')).toHaveLength(10);
    expect(events.at(-1)).toEqual({ type: 'status', running: false, step: 5 });
  });

  it('trains until the configured steps, reporting running then stopped', async () => {
    const { session, events, until } = setup();
    session.handle({ type: 'init', config });
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.filter((e) => e.type === 'status').length >= 3, 'the loop to end');
    const statuses = events.filter((e) => e.type === 'status');
    expect(statuses[1]).toEqual({ type: 'status', running: true, step: 0 });
    expect(statuses[2]).toEqual({ type: 'status', running: false, step: 5 });
    expect(events.filter((e) => e.type === 'step')).toHaveLength(5);
    // start again: nothing to do (the run is complete)
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.filter((e) => e.type === 'status').length >= 5, 'the second loop');
    expect(events.filter((e) => e.type === 'step')).toHaveLength(5);
  });

  it('pauses after the step in progress', async () => {
    const { session, events, until } = setup();
    session.handle({ type: 'init', config: { ...config, steps: 0 } });
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.filter((e) => e.type === 'step').length >= 2, 'two steps');
    session.handle({ type: 'pause' });
    await until(
      () => events.at(-1)?.type === 'status' && !(events.at(-1) as { running: boolean }).running,
      'the pause',
    );
    const steps = events.filter((e) => e.type === 'step').length;
    expect(events.at(-1)).toEqual({ type: 'status', running: false, step: steps });
    await new Promise((r) => setTimeout(r, 20));
    expect(events.filter((e) => e.type === 'step')).toHaveLength(steps);
  });

  it('reports each phase while running slowly (delay ≥ 100 ms), not while running fast', async () => {
    const { session, events, until } = setup();
    session.handle({ type: 'init', config: { ...config, steps: 2 } });
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.filter((e) => e.type === 'step').length === 2, 'fast steps');
    expect(events.some((e) => e.type === 'phase')).toBe(false);
    session.handle({ type: 'init', config: { ...config, steps: 1 } });
    session.handle({ type: 'start', delayMs: 100 });
    await until(() => events.filter((e) => e.type === 'step').length === 3, 'a slow step');
    expect(events.filter((e) => e.type === 'phase').map((e) => (e as { phase: Phase }).phase)).toEqual(PHASES);
  }, 10_000);

  it('a training fault stops the run with a fault event', async () => {
    const { session, events, until } = setup({ faultAt: 3 });
    session.handle({ type: 'init', config: { ...config, steps: 0 } });
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.some((e) => e.type === 'fault'), 'the fault');
    expect(events.find((e) => e.type === 'fault')).toEqual({
      type: 'fault',
      step: 3,
      message: 'non-finite gradient',
      tensors: ['h0.attn'],
      check: 'non-finite',
    });
    await until(() => events.at(-1)?.type === 'status', 'the final status');
    expect(events.at(-1)).toEqual({ type: 'status', running: false, step: 2 });
  });

  it("after a fault, continue rebuilds the trainer with the new settings from the old one's weights and state, and training goes on", async () => {
    const { session, events, trainers, until, types } = setup({ faultAt: 3 });
    session.handle({ type: 'init', config: { ...config, steps: 0 } });
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.some((e) => e.type === 'fault'), 'the fault');
    await until(() => events.at(-1)?.type === 'status', 'the final status');
    const calmer = { ...config, steps: 4, lr: 1e-4 };
    session.handle({ type: 'continue', config: calmer });
    await until(() => types().filter((t) => t === 'ready').length === 2, 'the rebuilt trainer');
    expect(trainers).toHaveLength(2);
    expect(trainers[0].destroyed).toBe(true);
    expect(trainers[1].built.config).toEqual(calmer);
    expect(trainers[1].built.params).toEqual(new Float32Array([2]));
    expect(trainers[1].built.resume).toMatchObject({ state: { stepCount: 2 } });
    await until(() => events.at(-1)?.type === 'status', 'its status');
    expect(events.at(-1)).toEqual({ type: 'status', running: false, step: 2 });
    session.handle({ type: 'step' });
    await until(() => events.some((e) => e.type === 'step' && e.record.step === 3), 'step 3');
  });

  it('code that does not load is a config error naming the line, and the start behind it reports nothing', async () => {
    const { session, events, until } = setup({
      refuse: () => new CustomCodeError('estimator', 'syntax', 'SyntaxError: Unexpected token', 2, 5),
    });
    session.handle({ type: 'init', config });
    session.handle({ type: 'start', delayMs: 0 });
    await until(() => events.some((e) => e.type === 'error'), 'the error');
    expect(events[0]).toEqual({
      type: 'error',
      kind: 'config',
      code: { kind: 'estimator', line: 2, column: 5 },
      message: 'your estimator, line 2: SyntaxError: Unexpected token. Nothing ran; fix the code and run again.',
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(events.filter((e) => e.type === 'status' && e.running)).toEqual([]);
  });

  it("a fault of the run's code carries its line; a continue whose code still does not load stays paused, old trainer kept", async () => {
    let refuseResume = true;
    const { session, events, trainers, until } = setup({
      refuse: (_c, resume) =>
        resume && refuseResume
          ? new CustomCodeError('estimator', 'exception', 'advantages(batch) threw TypeError: x', 3)
          : undefined,
    });
    session.handle({ type: 'init', config });
    await until(() => events.some((e) => e.type === 'ready'), 'ready');
    session.handle({ type: 'continue', config });
    await until(() => events.some((e) => e.type === 'fault'), 'the fault');
    expect(events.find((e) => e.type === 'fault')).toMatchObject({
      step: 1,
      check: 'custom-code',
      code: { kind: 'estimator', line: 3 },
    });
    expect(trainers[0].destroyed).toBe(false);
    refuseResume = false;
    session.handle({ type: 'continue', config });
    await until(() => events.filter((e) => e.type === 'ready').length === 2, 'the continued trainer');
    expect(trainers[0].destroyed).toBe(true);
  });

  it('a bad config is a config error, and commands without a model are internal errors', async () => {
    const { session, events, until } = setup();
    session.handle({ type: 'step' });
    await until(() => events.length > 0, 'an error');
    expect(events[0]).toMatchObject({ type: 'error', kind: 'internal', message: 'no model yet: send init first' });
    session.handle({ type: 'init', config: { ...config, groupSize: 0 } });
    await until(() => events.length > 1, 'the config error');
    expect(events[1]).toMatchObject({ type: 'error', kind: 'config' });
    expect((events[1] as { message: string }).message).toContain('groupSize');
  });

  it('a lost device is reported once, and the next init opens a new one and can resume', async () => {
    const { session, events, trainers, until } = setup();
    session.handle({ type: 'init', config });
    session.handle({ type: 'step' });
    await until(() => events.some((e) => e.type === 'step'), 'a step');
    session.handle({ type: 'loseDevice' });
    await until(() => events.some((e) => e.type === 'error'), 'the loss');
    expect(events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', kind: 'device-lost', message: 'The GPU device was lost (simulated).' },
    ]);
    expect(trainers[0].destroyed).toBe(true);
    session.handle({ type: 'init', config, params: new Float32Array(123), resume: { step: 1, level: 2 } });
    session.handle({ type: 'step' });
    await until(() => events.filter((e) => e.type === 'step').length === 2, 'a step after the resume');
    expect(trainers[1]).toMatchObject({ level: 2, warmStarts: 0 });
    expect((events.filter((e) => e.type === 'step')[1] as Extract<Event, { type: 'step' }>).record.step).toBe(2);
  });

  it('runs the warm start on a fresh init when sftSteps > 0, answers eval and checkpoint', async () => {
    const { session, events, trainers, until } = setup();
    session.handle({ type: 'init', config: { ...config, sftSteps: 3 } });
    session.handle({ type: 'eval' });
    session.handle({ type: 'checkpoint' });
    await until(() => events.some((e) => e.type === 'checkpoint'), 'the checkpoint');
    expect(trainers[0].warmStarts).toBe(1);
    expect(events.find((e) => e.type === 'eval')).toMatchObject({ record: { 'eval/pass@k': 0.75 } });
    expect(events.find((e) => e.type === 'checkpoint')).toEqual({
      type: 'checkpoint',
      bytes: new Uint8Array([1, 2, 3]),
      step: 0,
    });
  });
});
