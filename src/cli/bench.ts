// `npm run bench -- <suite> [--json FILE] [--quick] [--reps N] [--warmup N] [suite flags]`
//
// Benchmarks, not tests: they measure and report, they do not pass or fail. Each suite is a
// module in src/bench/ registered in SUITES below (add a line to add one). This entry opens
// the WebGPU device (Dawn in Node; SwiftShader when there is no GPU), prints the adapter,
// runs the suite, and writes the JSON (default bench-results/<suite>-<date>.json, gitignored).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { CliError, helpText, intFlag, parseFlags, type FlagSpec, type ParsedFlags } from '../core/flags';
import { exitAfterDrain, lineWriter, type LineWriter } from './output';
import { fileTimestamp, type BenchSuite } from '../bench/suite';
import type { GpuContext } from '../gpu/device';

/** The suites, by name: each loads its module on demand. */
const SUITES: Record<string, () => Promise<BenchSuite>> = {
  'cpu-matmul': async () => (await import('../bench/cpu-matmul')).cpuMatmulSuite,
  'gpu-report': async () => (await import('../bench/gpu-report')).gpuReportSuite,
  kernels: async () => (await import('../bench/kernels')).kernelsSuite,
  learning: async () => (await import('../bench/learning')).learningSuite,
  'lesson-speed': async () => (await import('../bench/lesson-speed')).lessonSpeedSuite,
  peers: async () => (await import('../bench/peers')).peersSuite,
  soak: async () => (await import('../bench/soak')).soakSuite,
};

// Every suite's flags (its own come after). Its --json names a file, unlike rlvr's switch (src/core/common-flags.ts).
const BENCH_FLAGS: Record<string, FlagSpec> = {
  json: { kind: 'value', doc: 'where to write the JSON results (default bench-results/<suite>-<date>.json)' },
  quick: {
    kind: 'switch',
    doc: 'smaller batches, for software adapters such as SwiftShader (the suite says how small)',
  },
  reps: { kind: 'value', doc: 'timed repetitions per measurement; medians are reported (default 5)' },
  warmup: { kind: 'value', doc: 'untimed runs before the timed ones (default 1)' },
  help: { kind: 'switch', doc: 'show this help' },
};

function usage(): string {
  return (
    `usage: npm run bench -- <suite> [--json FILE] [--quick] [--reps N] [--warmup N] [suite flags]\nsuites:\n` +
    Object.keys(SUITES)
      .map((s) => `  ${s}`)
      .join('\n') +
    '\nRun a suite with --help for its flags.'
  );
}

async function main(argv: string[]): Promise<number> {
  const err = lineWriter(process.stderr);
  const out = lineWriter(process.stdout, (why) =>
    err(`note: stdout closed (${why}); the results still go to the JSON file`),
  );
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    out(usage());
    return name ? 0 : 2;
  }
  const load = SUITES[name];
  if (!load) {
    err(`error: unknown benchmark suite "${name}"; suites: ${Object.keys(SUITES).join(', ')}`);
    return 2;
  }
  const suite = await load();
  const spec = { ...BENCH_FLAGS, ...(suite.flags ?? {}) };
  let flags;
  try {
    flags = parseFlags(rest, spec, `bench ${name}`);
  } catch (e) {
    if (e instanceof CliError) {
      err(`error: ${e.message}`);
      return 2;
    }
    throw e;
  }
  if (flags.help) {
    out(
      `${suite.name}: ${suite.summary}\n` +
        helpText(`bench ${name}`, spec).replace('usage: rlvr bench', 'usage: npm run bench --'),
    );
    return 0;
  }
  const quick = flags.quick === true;
  let reps: number, warmup: number;
  try {
    reps = intFlag(flags, 'reps', suite.defaultReps?.(quick) ?? 5, 1, 1000);
    warmup = intFlag(flags, 'warmup', 1, 0, 100);
  } catch (e) {
    if (e instanceof CliError) {
      err(`error: ${e.message}`);
      return 2;
    }
    throw e;
  }
  return runSuite({ name, argv, suite, flags, quick, reps, warmup, out, err });
}

/** A suite to run, its options checked, and where its lines go. */
interface BenchRun {
  name: string;
  argv: readonly string[];
  suite: BenchSuite;
  flags: ParsedFlags;
  quick: boolean;
  reps: number;
  warmup: number;
  out: LineWriter;
  err: LineWriter;
}

/** Opens the device, runs the suite and writes its JSON (with the host and load it ran under). */
async function runSuite(run: BenchRun): Promise<number> {
  const { name, argv, suite, flags, quick, reps, warmup, out, err } = run;
  const started = new Date();
  const loadBefore = loadavg()[0];
  const jsonPath = typeof flags.json === 'string' ? flags.json : `bench-results/${name}-${fileTimestamp(started)}.json`;

  const { openNodeDevice } = await import('../gpu/node-device');
  const gpu = await openNodeDevice({ verbose: false });
  describeAdapter(gpu, out);
  const repsText = suite.repeated === false ? '' : `: ${reps} reps, ${warmup} warm-up`;
  out(
    `suite ${name}${quick ? ' (--quick)' : ''}${repsText}; host ${cpus().length} CPUs, load average ${loadBefore.toFixed(2)}`,
  );
  const t0 = performance.now();
  let result: unknown;
  try {
    result = await suite.run(gpu, { quick, reps, warmup, flags, out, progress: (s) => err(`[bench] ${s}`) });
  } catch (e) {
    if (e instanceof CliError) {
      err(`error: ${e.message}`);
      return 2;
    }
    throw e;
  } finally {
    await gpu.device.queue.onSubmittedWorkDone();
    gpu.device.destroy();
  }
  const seconds = (performance.now() - t0) / 1000;
  const doc = {
    suite: name,
    date: started.toISOString(),
    command: `npm run bench -- ${argv.join(' ')}`,
    seconds,
    adapter: gpu.adapter,
    features: gpu.features,
    // The 1-minute load average before and after: on a shared machine it says how noisy the run was.
    host: {
      platform: process.platform,
      arch: process.arch,
      node: process.version,
      cpus: cpus().length,
      loadBefore,
      loadAfter: loadavg()[0],
    },
    options: { quick, reps, warmup },
    result,
  };
  mkdirSync(dirname(jsonPath), { recursive: true });
  writeFileSync(jsonPath, JSON.stringify(doc, null, 2) + '\n');
  out(`\n${seconds.toFixed(1)} s; results written to ${jsonPath}`);
  return 0;
}

/** The adapter and its features, first: every figure after them depends on them. */
function describeAdapter(gpu: GpuContext, out: LineWriter): void {
  const a = gpu.adapter;
  out(
    `adapter: vendor "${a.vendor}", architecture "${a.architecture}", device "${a.device}", description "${a.description}"` +
      `${a.isSoftware ? ' — SOFTWARE EMULATION (CPU): expect 100–1000× below a real GPU' : ''}`,
  );
  out(
    `  via ${a.source}; features: timestamp-query ${gpu.features.timestampQuery ? 'yes' : 'no'}, subgroups ${gpu.features.subgroups ? 'yes' : 'no'}`,
  );
}

main(process.argv.slice(2)).then(
  (code) => exitAfterDrain(code),
  (e) => {
    console.error(e);
    return exitAfterDrain(1);
  },
);
