// The controller between the page and the worker, with a fake worker port and a fake page.
// (A lesson's variants, trained models and presets: controllerLessons.test.ts.)

import { describe, expect, it } from 'vitest';
import { modelConfigOf, type RunConfig } from '../config';
import { configToSearch, presetConfig, searchToConfig } from '../lessons';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { writeSafetensors } from '../model/safetensors';
import { runToJson } from '../store/runFiles';
import type { Command } from '../worker/protocol';
import { CHECKPOINT_EVERY } from './controller';
import { readySetup, setup, types } from './testController';

describe('PlaygroundController', () => {
  it("builds the model, ignores the old model's events until ready, and makes a run at the first step", () => {
    const t = setup();
    t.controller.prepare();
    expect(t.sent).toEqual([{ type: 'init', config: t.s().config }]);
    expect(t.s().status).toBe('starting');
    t.step(7); // from a previous model
    t.ready();
    expect(t.s()).toMatchObject({ status: 'idle', adapter: 'v a', numParams: 10 });
    t.frame();
    expect(t.s().runs).toEqual([]);
    t.controller.step();
    expect(types(t.sent)).toEqual(['init', 'step']);
    t.step(1);
    expect(t.s().step).toBe(0); // not before the frame
    t.frame();
    expect(t.s().runs).toHaveLength(1);
    expect(t.s().runs[0]).toMatchObject({ name: '#1', label: 'sort-easy', preset: 'sort-easy' });
    expect(t.s().step).toBe(1);
  });

  it('flushes a burst of steps to the store once per frame', () => {
    const t = readySetup();
    let updates = 0;
    t.store.subscribe(() => updates++);
    for (let n = 1; n <= 20; n++) t.step(n);
    expect(t.frames).toHaveLength(1);
    t.frame();
    expect(updates).toBe(2); // the new run, then the batch
    expect(t.s().runs[0].points).toHaveLength(20);
    expect(t.s().rollout).toEqual({ step: 20 });
  });

  it('writes the config to the URL on every change, and the URL reads back to the same config', () => {
    const t = setup();
    t.controller.syncUrl();
    t.s().setKnob('epsHigh', '0.28');
    t.s().setKnob('epsHigh', 'nope'); // refused: no new URL
    t.s().setKnob('seed', 42);
    expect(t.searches).toEqual([
      'preset=sort-easy',
      'preset=sort-easy&epsHigh=0.28',
      'preset=sort-easy&seed=42&epsHigh=0.28',
    ]);
    expect(searchToConfig(t.searches.at(-1)!)).toEqual({ config: t.s().config, preset: 'sort-easy', errors: [] });
    expect(configToSearch(t.s().config, t.s().preset)).toBe(t.searches.at(-1));
  });

  it('an edit before the first step rebuilds the model at Start; after steps it waits for Reset, which starts a new run', () => {
    const t = readySetup();
    t.s().setKnob('lr', '0.005');
    t.controller.start();
    expect(types(t.sent)).toEqual(['init', 'init', 'start']);
    expect((t.sent[1] as { config: RunConfig }).config.lr).toBe(0.005);
    t.ready();
    t.emit({ type: 'status', running: true, step: 0 });
    t.step(1);
    t.step(2);
    t.emit({ type: 'status', running: false, step: 2 }); // paused
    expect(types(t.sent).slice(3)).toEqual(['checkpoint']);
    t.s().setKnob('epsHigh', '0.28');
    t.controller.start();
    expect(types(t.sent).slice(4)).toEqual(['start']); // same model, same run
    t.controller.reset();
    t.ready();
    t.step(1);
    t.frame();
    expect(t.s().runs.map((r) => r.label)).toEqual([
      'sort-easy: lr 0.003→0.005',
      'sort-easy: lr 0.003→0.005, ε_high 0.2→0.28',
    ]);
  });

  it(`asks for a checkpoint every ${CHECKPOINT_EVERY} steps; after a device loss it resumes from the last one`, () => {
    const config = presetConfig('sort-easy');
    const t = setup(config);
    t.controller.prepare();
    t.ready();
    for (let n = 1; n <= CHECKPOINT_EVERY + 3; n++) t.step(n);
    t.frame();
    expect(types(t.sent).filter((c) => c === 'checkpoint')).toHaveLength(1);
    const layout = buildLayout(modelConfigOf(config));
    const params = initParams(layout, 3);
    const bytes = writeSafetensors(layout, params, Array(layout.config.vocabSize).fill('t'), {
      ...config,
      trainedSteps: CHECKPOINT_EVERY,
      level: 3,
    });
    t.emit({ type: 'checkpoint', bytes, step: CHECKPOINT_EVERY });
    expect(t.s().checkpointStep).toBe(CHECKPOINT_EVERY);
    t.emit({ type: 'error', kind: 'device-lost', message: 'The GPU device was lost.' });
    expect(t.s().status).toBe('lost');
    t.controller.start(); // refused while lost
    expect(types(t.sent).at(-1)).toBe('checkpoint');
    t.controller.resume();
    const init = t.sent.at(-1) as Extract<Command, { type: 'init' }>;
    expect(init).toMatchObject({ type: 'init', config, resume: { step: CHECKPOINT_EVERY, level: 3 } });
    expect(init.params).toEqual(params);
    expect(t.s().runs).toHaveLength(1);
    expect(t.s().runs[0].points).toHaveLength(CHECKPOINT_EVERY); // steps after the checkpoint are re-trained
    expect(t.s().step).toBe(CHECKPOINT_EVERY);
    expect(t.s().checkpointStep).toBe(CHECKPOINT_EVERY);
  });

  it('a fault stops the sweep and shows; a sweep runs its configs one after another', () => {
    const t = setup({ ...presetConfig('sort-easy') });
    t.controller.prepare();
    t.ready();
    expect(t.controller.startSweep('epsHigh', ['0.2', '0.28', 'bad'], 2)).toEqual([
      'epsHigh must be a number in [0, 10], got "bad"',
    ]);
    expect(types(t.sent)).toEqual(['init', 'init', 'start']);
    expect(t.s().sweep).toMatchObject({ knob: 'epsHigh', total: 2 });
    t.ready();
    t.step(1);
    t.step(2);
    t.emit({ type: 'status', running: false, step: 2 });
    expect(types(t.sent).slice(3)).toEqual(['checkpoint', 'init', 'start']);
    expect((t.sent[4] as { config: RunConfig }).config).toMatchObject({ epsHigh: 0.28, steps: 2 });
    t.ready();
    t.step(1);
    t.emit({ type: 'fault', step: 2, message: 'non-finite gradient', tensors: [], check: 'non-finite' });
    expect(t.s().sweep).toBeNull();
    expect(t.s().status).toBe('fault');
    // Labelled by the value chosen; the second is drawn over the first.
    expect(t.s().runs.map((r) => r.label)).toEqual(['ε_high = 0.2', 'ε_high = 0.28']);
    expect(t.s().overlay).toEqual([t.s().runs[0].id]);
  });

  it('Reset clears the numbers and charts at once; the finished run stays in the list, not on the charts', () => {
    const t = readySetup();
    t.step(1);
    t.step(2);
    t.frame();
    const first = t.s().runs[0].id;
    expect(t.s().activeRunId).toBe(first);
    t.controller.reset();
    expect(t.s().activeRunId).toBeNull(); // before the worker answers
    expect(t.s().step).toBe(0);
    expect(t.s().rollout).toBeNull();
    expect(t.s().runs.map((r) => r.id)).toEqual([first]);
    expect(t.s().overlay).toEqual([]);
    t.ready();
    t.step(1);
    t.frame();
    expect(t.s().runs).toHaveLength(2);
    expect(t.s().activeRunId).toBe(t.s().runs[1].id);
  });

  it('a pause shows as pausing until the worker reports the run stopped', () => {
    const t = readySetup();
    t.controller.togglePlay();
    expect(t.sent.at(-1)).toEqual({ type: 'start', delayMs: 0 });
    t.emit({ type: 'status', running: true, step: 0 });
    t.step(1);
    t.controller.togglePlay();
    expect(t.sent.at(-1)).toEqual({ type: 'pause' });
    expect(t.s()).toMatchObject({ status: 'running', pausing: true });
    t.emit({ type: 'status', running: false, step: 1 });
    expect(t.s()).toMatchObject({ status: 'idle', pausing: false, step: 1 });
  });

  it('after a fault, continuing sends the edited config and starts a run of its own over the faulted one', () => {
    const t = readySetup();
    t.controller.start();
    t.step(1);
    t.frame();
    const faulted = t.s().activeRunId!;
    t.emit({ type: 'fault', step: 2, message: 'the update norm blew up', tensors: [], check: 'update-norm' });
    t.emit({ type: 'status', running: false, step: 1 });
    expect(t.s()).toMatchObject({ status: 'fault', fault: { check: 'update-norm' } });
    t.s().setKnob('lr', '0.001');
    t.controller.continueAfterFault();
    expect(t.sent.at(-1)).toEqual({ type: 'continue', config: t.s().config });
    expect(t.s()).toMatchObject({ status: 'starting', step: 1, activeRunId: null, overlay: [faulted] });
    t.ready();
    t.step(2);
    t.frame();
    expect(t.s().runs.map((r) => r.label)).toEqual([
      'sort-easy',
      'continued after the fault at step 2: lr 0.003→0.001',
    ]);
  });

  it('keeps each checkpoint for a reload, and after one offers to continue that run from it', () => {
    const kept: { runId: string; step: number }[] = [];
    const t = setup();
    const config = presetConfig('sort-easy');
    t.controller.prepare();
    t.ready();
    for (let n = 1; n <= 3; n++) t.step(n);
    t.frame();
    const runId = t.s().activeRunId!;
    const layout = buildLayout(modelConfigOf(config));
    const params = initParams(layout, 3);
    const bytes = writeSafetensors(layout, params, Array(layout.config.vocabSize).fill('t'), {
      ...config,
      trainedSteps: 2,
      level: 3,
    });
    // The page's environment keeps it (IndexedDB in the browser).
    (
      t.controller as unknown as { env: { keepCheckpoint(ck: { runId: string; step: number }): void } }
    ).env.keepCheckpoint = (ck) => kept.push({ runId: ck.runId, step: ck.step });
    t.emit({ type: 'checkpoint', bytes, step: 2 });
    expect(kept).toEqual([{ runId, step: 2 }]);

    // After a reload: a fresh page with the runs from storage and the kept checkpoint.
    const u = setup(presetConfig('start-here'), 'start-here');
    u.s().hydrateRuns(t.s().runs);
    u.controller.prepare();
    u.ready();
    u.controller.offerKeptCheckpoint({ runId, step: 2, bytes });
    expect(u.s().keptRun).toEqual({ runId, step: 2 });
    u.controller.continueKeptRun();
    expect(u.s()).toMatchObject({ keptRun: null, activeRunId: runId, preset: 'sort-easy', config, step: 2 });
    expect(u.s().runs[0].points.map((p) => p.step)).toEqual([1, 2]); // step 3 came after the checkpoint
    expect(u.sent.at(-1)).toMatchObject({ type: 'init', config, resume: { step: 2, level: 3 } });
    u.ready();
    u.step(3);
    u.frame();
    expect(u.s().runs.map((r) => [r.id, r.points.length])).toEqual([[runId, 3]]); // the same run goes on
    // A finished run is not offered.
    u.controller.offerKeptCheckpoint({ runId, step: config.steps, bytes });
    expect(u.s().keptRun).toBeNull();
  });

  it('exports a run as CSV and JSON, imports a JSON run and a checkpoint, and names what is wrong with a bad file', () => {
    const t = readySetup();
    t.step(1);
    t.frame();
    const id = t.s().runs[0].id;
    t.controller.exportRun(id, 'csv');
    t.controller.exportRun(id, 'json');
    expect(t.downloads.map((d) => d.name)).toEqual(['rlvr-1-sort-easy.csv', 'rlvr-1-sort-easy.json']);
    expect(String(t.downloads[0].data).split('\n')[0]).toBe('step,level,reward');
    t.controller.importFile('run.json', new TextEncoder().encode(runToJson(t.s().runs[0])));
    expect(t.s().runs.map((r) => [r.name, r.label])).toEqual([
      ['#1', 'sort-easy'],
      ['#2', 'imported: sort-easy'],
    ]);
    t.controller.importFile('bad.json', new TextEncoder().encode('{}'));
    expect(t.s().notice).toEqual({
      kind: 'error',
      text: 'Could not import bad.json: bad.json is not a playground run (format must be "rlvr-playground-run")',
    });

    const config = { ...presetConfig('maze-grpo'), seed: 4 };
    const layout = buildLayout(modelConfigOf(config));
    const bytes = writeSafetensors(layout, initParams(layout, 4), Array(layout.config.vocabSize).fill('t'), {
      ...config,
      trainedSteps: 9,
      level: 4,
    });
    t.controller.importFile('maze.safetensors', bytes);
    expect(t.s().config).toEqual(config);
    expect(t.s().preset).toBeUndefined();
    expect(t.sent.at(-1)).toMatchObject({ type: 'init', config, resume: { step: 9, level: 4 } });
    expect(t.s().step).toBe(9);
    t.controller.exportCheckpoint();
    expect(t.sent.at(-1)).toEqual({ type: 'checkpoint' });
    t.ready();
    t.emit({ type: 'checkpoint', bytes: new Uint8Array([1]), step: 9 });
    expect(t.downloads.at(-1)).toEqual({ name: 'rlvr-maze-seed4-step9.safetensors', data: new Uint8Array([1]) });
  });
});

describe("PlaygroundController and a run's own code", () => {
  const code = 'function advantages(batch) {\n  return batch.rewards;\n}\n';
  const linked = () => ({ ...presetConfig('sort-easy'), estimator: 'custom' as const, customEstimator: code });

  it('code a link brought is held: no init, no start, the panel opens; Run approves it and starts', () => {
    const t = setup(linked());
    t.s().reviewCodeOf(t.s().config, 'link');
    t.s().setView('lecture');
    t.controller.prepare();
    t.controller.start();
    t.controller.step();
    expect(t.sent).toEqual([]);
    expect(t.s()).toMatchObject({ status: 'idle', drawer: 'code', codeTab: 'estimator' });
    expect(t.s().notice?.text).toContain('This link carries code (your estimator)');
    t.controller.runWithCode('estimator');
    expect(t.s().codeReview).toBeNull();
    expect(types(t.sent)).toEqual(['init', 'start']);
    expect(t.sent[0]).toMatchObject({ config: { customEstimator: code } });
  });

  it("shipped code (templates, examples, lessons) and the person's own edits run without asking", () => {
    const t = setup(presetConfig('your-estimator'), 'your-estimator');
    t.s().reviewCodeOf(t.s().config, 'link');
    expect(t.s().codeReview).toBeNull();
    const u = setup(linked());
    u.s().reviewCodeOf(u.s().config, 'link');
    u.s().setKnob('customEstimator', code.replace('rewards;', 'rewards.slice();'));
    u.controller.prepare();
    expect(types(u.sent)).toEqual(['init']);
  });

  it('Run turns the code on; a fault or a refused load of the code is kept with its line', () => {
    const t = setup();
    t.controller.runWithCode('estimator');
    expect(t.sent[0]).toMatchObject({ type: 'init', config: { estimator: 'custom' } });
    t.ready();
    t.emit({
      type: 'fault',
      step: 3,
      message: 'step 3: your estimator, line 2: …',
      tensors: [],
      check: 'custom-code',
      code: { kind: 'estimator', line: 2 },
    });
    expect(t.s().status).toBe('fault');
    expect(t.s().codeFailure).toEqual({
      kind: 'estimator',
      line: 2,
      step: 3,
      message: 'step 3: your estimator, line 2: …',
    });
    t.controller.reset();
    expect(t.s().codeFailure).toBeNull();
    t.emit({
      type: 'error',
      kind: 'config',
      message: 'your estimator, line 1: SyntaxError',
      code: { kind: 'estimator', line: 1 },
    });
    expect(t.s()).toMatchObject({
      status: 'error',
      codeFailure: { line: 1, message: 'your estimator, line 1: SyntaxError' },
    });
  });
});
