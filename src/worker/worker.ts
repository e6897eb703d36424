// Entry of the training worker (a module worker): opens the GPU here, builds the trainer on
// the WGSL engine, and speaks the protocol in ./protocol.ts through a TrainingSession.
/// <reference lib="webworker" />

import '../gpu/shaders-vite';
import { openBrowserDevice } from '../gpu/device';
import { countGpuCalls } from '../gpu/call-counter';
import { GpuEngine } from '../rl/gpu-engine';
import { Trainer } from '../rl/trainer';
import { buildLayout } from '../model/layout';
import { modelConfigOf } from '../config/config';
import type { Command, Event } from './protocol';
import { TrainingSession, type SessionTrainer } from './session';
import { learnedTable, tableProbeOf } from '../rl/learned-table';
import { WorkerSandbox } from './sandbox-worker';

declare const self: DedicatedWorkerGlobalScope;

let device: GPUDevice | null = null;

const session = new TrainingSession({
  async openGpu(onLost) {
    const gpu = await openBrowserDevice();
    device = gpu.device;
    // The gpu/* scalars of each step (dispatches, submits, readbacks: the page's speed readout).
    countGpuCalls(gpu.device);
    let simulated = false;
    gpu.device.lost.then((info) => {
      if (device !== gpu.device) return; // an old device we let go of
      device = null;
      if (info.reason === 'destroyed' && !simulated) return;
      onLost(`The GPU device was lost${info.message ? `: ${info.message}` : ''}${simulated ? ' (simulated)' : ''}.`);
    });
    return {
      adapter: gpu.adapter,
      lose() {
        simulated = true;
        gpu.device.destroy();
      },
    };
  },

  async createTrainer(config, params, resume) {
    const d = device;
    if (!d) throw new Error('the GPU device is gone');
    let initial;
    if (params) {
      const layout = buildLayout(modelConfigOf(config));
      if (params.length !== layout.numParams) {
        throw new RangeError(
          `the weights have ${params.length} parameters but this config's model has ${layout.numParams}`,
        );
      }
      initial = { layout, params };
    }
    // GpuEngine.create times the matmul variants once per device and keeps the fastest.
    // The run's own code, if any, runs in workers nested in this one (./sandbox-worker.ts).
    const trainer = await Trainer.create(config, (layout, p, s) => GpuEngine.create(d, layout, p, s), {
      initial,
      resume,
      sandbox: (kind) => new WorkerSandbox(kind),
    });
    // The inspector colours tokens by their importance ratio after the update (one extra forward per step).
    trainer.collectRatios = true;
    return trainer;
  },

  async learnedTable(t: SessionTrainer, config) {
    // The task says whether its parameters have a table (groupmul's interleaved layout does).
    const probe = tableProbeOf(config);
    return probe ? learnedTable((t as Trainer).engine, probe, { seed: config.seed }) : null;
  },

  post(event: Event, transfer: Transferable[] = []) {
    self.postMessage(event, transfer);
  },

  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

self.onmessage = (e: MessageEvent<Command>) => session.handle(e.data);
