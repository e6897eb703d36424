// The page's ablation runner against fake workers: jobs K at a time, each into its own kept run,
// the next job when a run reaches its budget, failures named, and statistics from the runs.

import { describe, expect, it } from 'vitest';
import { ablationRunConfig, ablationSpec } from '../../ablation/spec';
import { ablationRuns } from '../../store/ablationSlice';
import { createAppStore } from '../../store/store';
import type { TrainerPort } from '../../worker/client';
import type { Command, Event } from '../../worker/protocol';
import type { StepRecord } from '../../rl/step-metrics';
import { AblationRunner } from './runner';
import { ablationStats } from './ablation-stats';

class FakePort implements TrainerPort {
  sent: Command[] = [];
  listener: (e: Event) => void = () => {};
  terminated = false;
  send(cmd: Command) {
    this.sent.push(cmd);
  }
  onEvent(l: (e: Event) => void) {
    this.listener = l;
    return () => {
      this.listener = () => {};
    };
  }
  terminate() {
    this.terminated = true;
  }
  emit(e: Event) {
    this.listener(e);
  }
}

const record = (step: number, reward: number): StepRecord => ({
  step,
  scalars: { reward, entropy: 1 },
  entropy_by_pos: [],
  advantage_histogram: { counts: [1], edges: [0, 1] },
  level: 3,
});

function setup() {
  const store = createAppStore();
  const ports: FakePort[] = [];
  const frames: (() => void)[] = [];
  const runner = new AblationRunner(store, {
    makePort: () => {
      const p = new FakePort();
      ports.push(p);
      return p;
    },
    requestFrame: (fn) => frames.push(fn),
    now: () => 1000,
  });
  const frame = () => frames.splice(0).forEach((f) => f());
  return { store, ports, runner, frame, s: () => store.getState() };
}

/** A worker trains its job: ready, `steps` steps with rewards from `reward(step)`, then stops at the budget. */
function train(port: FakePort, steps: number, reward: (step: number) => number) {
  port.emit({
    type: 'ready',
    adapter: { vendor: 'v', architecture: '', device: '', description: '', isSoftware: true, source: 't' },
    numParams: 1,
    vocab: [],
  });
  for (let n = 1; n <= steps; n++)
    port.emit({ type: 'step', record: record(n, reward(n)), rollout: { step: n } as never });
  port.emit({ type: 'status', running: false, step: steps });
}

describe('AblationRunner', () => {
  const spec = ablationSpec('sort-easy', { seeds: [0, 1, 2], steps: 3, sets: ['evalEvery=0'] });

  it("a lesson that starts from its base model: every job's model gets those weights; without them it does not start", () => {
    const t = setup();
    const maze = ablationSpec('maze-grpo', { seeds: [0, 1], steps: 2 });
    expect(() => t.runner.start(maze, 1)).toThrow(
      /start from checkpoints\/maze-grpo-base\.safetensors, whose weights were not given/,
    );
    expect(t.s().ablation).toBeNull();
    const weights = new Float32Array([0.5, -0.25]);
    t.runner.start(maze, 1, weights);
    const a = t.s().ablation!;
    expect(t.ports[0].sent[0]).toEqual({
      type: 'init',
      config: ablationRunConfig(maze, a.cells[0], 0),
      params: weights,
    });
    train(t.ports[0], 2, () => 0.5);
    expect(t.ports[0].sent[2]).toEqual({
      type: 'init',
      config: ablationRunConfig(maze, a.cells[0], 1),
      params: weights,
    });
    // A spec without an init ignores stray weights: its runs start from the seed's random weights.
    t.runner.start(spec, 1, weights);
    expect(t.ports[1].sent[0]).toEqual({ type: 'init', config: ablationRunConfig(spec, t.s().ablation!.cells[0], 0) });
  });

  it('trains the grid K at a time, each job into its own labelled run with its own config, the next job when one ends', () => {
    const t = setup();
    t.runner.start(spec, 2);
    const a = t.s().ablation!;
    expect(a.cells.map((c) => c.label)).toEqual(['lr=0.003', 'lr=0.01']);
    expect(a.jobs.map((j) => [j.cell, j.seed, j.status])).toEqual([
      ['lr=0.003', 0, 'running'],
      ['lr=0.003', 1, 'running'],
      ['lr=0.003', 2, 'queued'],
      ['lr=0.01', 0, 'queued'],
      ['lr=0.01', 1, 'queued'],
      ['lr=0.01', 2, 'queued'],
    ]);
    expect(t.s().runs.map((r) => r.label)).toEqual(a.jobs.map((j) => `${j.cell} · seed ${j.seed}`));
    expect(t.ports).toHaveLength(2);
    expect(t.ports[0].sent[0]).toEqual({ type: 'init', config: ablationRunConfig(spec, a.cells[0], 0) });
    expect(t.ports[1].sent[0]).toEqual({ type: 'init', config: ablationRunConfig(spec, a.cells[0], 1) });

    train(t.ports[0], 3, (n) => n / 10);
    expect(t.ports[0].sent.map((c) => c.type)).toEqual(['init', 'start', 'init']); // the third job
    expect(t.s().ablation!.jobs[0]).toMatchObject({ status: 'done', step: 3 });
    expect(t.s().runs[0].points.map((p) => p.scalars.reward)).toEqual([0.1, 0.2, 0.3]);
    // The rest, two at a time; a fault fails its job with the reason and the worker goes on.
    train(t.ports[1], 3, () => 0.5);
    train(t.ports[0], 3, () => 0.5);
    t.ports[1].emit({
      type: 'ready',
      adapter: { vendor: 'v', architecture: '', device: '', description: '', isSoftware: true, source: 't' },
      numParams: 1,
      vocab: [],
    });
    t.ports[1].emit({ type: 'fault', step: 2, message: 'non-finite gradient', tensors: [], check: 'non-finite' });
    expect(t.s().ablation!.jobs[3]).toMatchObject({
      status: 'failed',
      message: 'fault at step 2: non-finite gradient',
    });
    train(t.ports[0], 3, () => 0.9);
    train(t.ports[1], 3, () => 0.9);
    t.frame();
    expect(t.s().ablation!.jobs.map((j) => j.status)).toEqual(['done', 'done', 'done', 'failed', 'done', 'done']);
    expect(t.s().ablation!.finishedAt).toBe(1000);
    expect(t.ports.every((p) => p.terminated)).toBe(true);
    expect(t.runner.running).toBe(false);

    // The statistics come from the kept runs, cell by cell.
    const stats = ablationStats(t.s().ablation!, ablationRuns(t.s()))!;
    // The faulted job made no step: it has no run to summarise.
    expect(stats.cells.map((c) => [c.label, c.runs.length])).toEqual([
      ['lr=0.003', 3],
      ['lr=0.01', 2],
    ]);
    expect(stats.cells[1].finals.reward.mean).toBeCloseTo(0.9, 6);
    expect(stats.verdict.length).toBeGreaterThan(0);
  });

  it('a stop terminates every worker and marks what did not finish', () => {
    const t = setup();
    t.runner.start(spec, 3);
    t.ports[0].emit({ type: 'step', record: record(1, 0.2), rollout: { step: 1 } as never });
    t.runner.stop();
    expect(t.ports.every((p) => p.terminated)).toBe(true);
    expect(t.s().ablation!.jobs.map((j) => j.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
      'failed',
    ]);
    expect(t.s().runs[0].points).toHaveLength(1); // what it made is kept
    expect(t.s().ablation!.finishedAt).toBe(1000);
  });
});

describe('ablation files', () => {
  it('round-trip: the same spec, runs and statistics; a bad file is refused by field', async () => {
    const { ablationFromJson, ablationToJson } = await import('./ablationFile');
    const t = setup();
    const spec = ablationSpec('sort-easy', { seeds: [0, 1], steps: 2, sets: ['evalEvery=0'] });
    t.runner.start(spec, 2);
    for (let round = 0; round < 2; round++) {
      train(t.ports[0], 2, (n) => n / 4);
      train(t.ports[1], 2, (n) => n / 8);
    }
    t.frame();
    const a = t.s().ablation!;
    const runs = ablationRuns(t.s());
    const stats = ablationStats(a, runs);
    const back = ablationFromJson(ablationToJson(a, runs, stats), 'abl.json');
    expect(back.spec).toEqual(a.spec);
    expect(back.jobs.map((j) => [j.cell, j.seed, j.status])).toEqual(a.jobs.map((j) => [j.cell, j.seed, j.status]));
    expect(back.importedRuns!.map((r) => r.points)).toEqual(runs.map((r) => r.points));
    // The same statistics, but for the runs' ids (an imported run gets a new one).
    const noIds = (x: unknown) => JSON.parse(JSON.stringify(x, (k, v) => (k === 'id' ? undefined : v)));
    expect(noIds(ablationStats(back, back.importedRuns!))).toEqual(noIds(stats));
    expect(() =>
      ablationFromJson('{"format":"rlvr-playground-ablation","version":1,"spec":{"preset":"nope"}}', 'x.json'),
    ).toThrow(/x\.json: spec: preset must be one of/);
    expect(() => ablationFromJson('{"format":"rlvr-playground-run"}', 'x.json')).toThrow(
      'x.json is not a playground ablation',
    );
  });
});
