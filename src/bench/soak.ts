// `npm run bench -- soak`: a long run of a small config that watches for leaks. Every --every
// steps it records the GPU buffers the device holds (count and bytes, from a census of
// createBuffer/destroy), the JS heap after a full garbage collection, and the process's
// memory; after the first record (plans, samplers and eval buffers exist by then) every figure
// should stay flat. Not a test: on SwiftShader 10,000 steps take the better part of an hour.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BenchSuite } from './suite';
import { asCliError, CliError } from '../core/flags';
import { commonFlag } from '../core/common-flags';
import { configFromCli, presetFlag } from '../lessons/preset-flags';
import { ConfigError } from '../config/config';
import { watchBuffers } from '../gpu/buffer-census';
import { GpuEngine } from '../rl/gpu-engine';
import { Trainer } from '../rl/trainer';
import { formatTable } from './text-table';

interface SoakSample {
  step: number;
  seconds: number;
  gpuBuffers: number;
  gpuBytes: number;
  /** Buffers created since the start (a leak without a missing destroy shows here). */
  gpuCreated: number;
  heapUsed: number;
  arrayBuffers: number;
  rss: number;
}

/** A full collection, so heap figures compare (V8's gc() is exposed here on purpose). */
function collector(): () => void {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    return () => gc();
  } catch {
    return () => {};
  }
}

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(2);

/** The records as a table, one row per record. */
function soakTable(samples: SoakSample[]): string {
  return formatTable(
    ['step', 'GPU buffers', 'GPU MiB', 'buffers created', 'heap MiB', 'array buffers MiB', 'rss MiB', 'seconds'],
    samples.map((s) => [
      String(s.step),
      String(s.gpuBuffers),
      mb(s.gpuBytes),
      String(s.gpuCreated),
      mb(s.heapUsed),
      mb(s.arrayBuffers),
      mb(s.rss),
      s.seconds.toFixed(0),
    ]),
  );
}

export const soakSuite: BenchSuite = {
  name: 'soak',
  summary:
    'a long run of a small config; GPU buffers, JS heap and process memory every --every steps (they must stay flat)',
  flags: {
    preset: presetFlag('default sort-easy'),
    set: commonFlag('set'),
    steps: commonFlag('steps', 'default 10000'),
    every: { kind: 'value', doc: 'steps between records (default 500)' },
    seed: commonFlag('seed', "the run's (default 1)"),
  },
  repeated: false,
  defaultReps: () => 1,
  async run(gpu, opts) {
    const int = (name: string, def: number, min: number) => {
      const raw = opts.flags[name];
      const v = raw === undefined ? def : /^\d+$/.test(String(raw)) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(v) || v < min)
        throw new CliError(`--${name} must be an integer ≥ ${min}, got "${String(raw)}"`);
      return v;
    };
    const steps = int('steps', 10_000, 1);
    const every = int('every', 500, 1);
    const preset = String(opts.flags.preset ?? 'sort-easy');
    const sets = [...((opts.flags.set as string[] | undefined) ?? []), `seed=${int('seed', 1, 0)}`, `steps=${steps}`];
    const config = asCliError(() => configFromCli({ preset, sets }), ConfigError);
    const gc = collector();
    const watch = watchBuffers(gpu.device);
    const samples: SoakSample[] = [];
    const t0 = performance.now();
    const record = (step: number) => {
      gc();
      const m = process.memoryUsage();
      const c = watch.census();
      const s: SoakSample = {
        step,
        seconds: (performance.now() - t0) / 1000,
        gpuBuffers: c.live,
        gpuBytes: c.liveBytes,
        gpuCreated: c.created,
        heapUsed: m.heapUsed,
        arrayBuffers: m.arrayBuffers,
        rss: m.rss,
      };
      samples.push(s);
      opts.progress(
        `step ${step}: ${s.gpuBuffers} GPU buffers (${mb(s.gpuBytes)} MiB, ${s.gpuCreated} created), heap ${mb(s.heapUsed)} MiB, ` +
          `array buffers ${mb(s.arrayBuffers)} MiB, rss ${mb(s.rss)} MiB, ${s.seconds.toFixed(0)} s`,
      );
    };
    const trainer = await Trainer.create(config, (l, p, s) => GpuEngine.create(gpu.device, l, p, s));
    try {
      record(0);
      for await (const event of trainer.run({ steps })) {
        const i = 'record' in event ? event.record.step : 0;
        if (i > 0 && (i % every === 0 || i === steps)) record(i);
      }
    } finally {
      trainer.destroy();
      watch.stop();
    }
    // The first record after step 0 has every plan and sampler; later growth is a leak.
    const first = samples[1] ?? samples[0];
    const last = samples[samples.length - 1];
    const growth = {
      gpuBuffers: last.gpuBuffers - first.gpuBuffers,
      gpuBytes: last.gpuBytes - first.gpuBytes,
      gpuCreated: last.gpuCreated - first.gpuCreated,
      heapUsed: last.heapUsed - first.heapUsed,
      arrayBuffers: last.arrayBuffers - first.arrayBuffers,
      rss: last.rss - first.rss,
    };
    opts.out(
      `\npreset ${preset}${sets.length ? ` with ${sets.join(', ')}` : ''}: ${steps} steps in ${last.seconds.toFixed(0)} s`,
    );
    opts.out(soakTable(samples));
    opts.out(
      `from step ${first.step} to ${last.step}: GPU buffers ${growth.gpuBuffers >= 0 ? '+' : ''}${growth.gpuBuffers} ` +
        `(${mb(growth.gpuBytes)} MiB; ${growth.gpuCreated} created), heap ${mb(growth.heapUsed)} MiB, array buffers ${mb(growth.arrayBuffers)} MiB, rss ${mb(growth.rss)} MiB`,
    );
    return { preset, sets, steps, every, config, samples, growth };
  },
};
