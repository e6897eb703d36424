// Test helper: a PlaygroundController on a fake worker port and a fake page, with the worker's
// events at hand (ready, a step) and the page's frames, URLs and downloads recorded.

import { type RunConfig } from '../config';
import { presetConfig } from '../lessons';
import type { StepRecord } from '../rl/step-metrics';
import { createAppStore } from '../store/store';
import type { TrainerPort } from '../worker/client';
import type { Command, Event, RolloutView } from '../worker/protocol';
import { PlaygroundController } from './controller';

export function setup(
  config: RunConfig = presetConfig('sort-easy'),
  preset: string | undefined = 'sort-easy',
  fetchBytes?: (path: string) => Promise<Uint8Array>,
) {
  const store = createAppStore();
  store.getState().setConfig(config, preset);
  const sent: Command[] = [];
  let listener: (e: Event) => void = () => {};
  const port: TrainerPort = {
    send: (c) => sent.push(c),
    onEvent: (l) => ((listener = l), () => {}),
    terminate: () => {},
  };
  const frames: (() => void)[] = [];
  const searches: string[] = [];
  const downloads: { name: string; data: Uint8Array | string }[] = [];
  const controller = new PlaygroundController(store, port, {
    requestFrame: (fn) => frames.push(fn),
    replaceSearch: (s) => searches.push(s),
    download: (name, data) => downloads.push({ name, data }),
    ...(fetchBytes ? { fetchBytes } : {}),
  });
  const emit = (e: Event) => listener(e);
  const frame = () => frames.splice(0).forEach((f) => f());
  const ready = () =>
    emit({
      type: 'ready',
      adapter: { vendor: 'v', architecture: 'a', device: '', description: '', isSoftware: false, source: 't' },
      numParams: 10,
      vocab: [],
    });
  const step = (n: number) => emit({ type: 'step', record: record(n), rollout: { step: n } as unknown as RolloutView });
  return { store, s: () => store.getState(), controller, sent, emit, frame, frames, ready, step, searches, downloads };
}

/** A controller whose model is built and ready. */
export function readySetup() {
  const t = setup();
  t.controller.prepare();
  t.ready();
  return t;
}

function record(step: number): StepRecord {
  return {
    step,
    scalars: { reward: step / 100 },
    entropy_by_pos: [],
    advantage_histogram: { counts: [1], edges: [0, 1] },
    level: 3,
  };
}

export const types = (sent: Command[]) => sent.map((c) => c.type);
