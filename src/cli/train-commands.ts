// `rlvr train` and `rlvr eval`: headless runs on the WGSL engine (Dawn in Node).

import { mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, intFlag, parseFlags, stringFlag, type FlagSpec } from './args';
import { loadCheckpointFile } from './model-commands';
import { configFromCli } from '../config/cli';
import { checkpointRun } from '../config/checkpoint-run';
import { ConfigError, mergeConfig, validateConfig, type RunConfig } from '../config/config';
import { openNodeDevice } from '../gpu/node-device';
import { GpuEngine } from '../rl/engine';
import { CpuEngine } from '../rl/cpu-engine';
import { Trainer, TrainingFault, type StepRecord } from '../rl/trainer';
import type { PolicyEngine } from '../rl/engine';
import type { ParamLayout } from '../model/layout';

export const TRAIN_FLAGS: Record<string, FlagSpec> = {
  preset: { kind: 'value', doc: 'start from a preset (see docs/knobs.md); e.g. sort-easy, cot-discovery' },
  config: { kind: 'value', doc: 'a JSON file of knob → value (a saved config.json works)' },
  set: { kind: 'multi', doc: 'override one knob, key=value (repeatable), e.g. --set lr=0.003' },
  steps: { kind: 'value', doc: 'RL steps to run (overrides the steps knob)' },
  seed: { kind: 'value', doc: 'the run seed (overrides the seed knob)' },
  out: { kind: 'value', doc: 'output folder: config.json, metrics.jsonl, checkpoint.safetensors' },
  backend: { kind: 'value', doc: 'gpu (default) or cpu (the slow reference engine)' },
  json: { kind: 'switch', doc: 'print one JSON line per step instead of a progress bar' },
  'checkpoint-every': { kind: 'value', doc: 'also write checkpoint.safetensors every N steps (default 0: at the end, on a fault and on Ctrl-C)' },
  'checkpoint-levels': { kind: 'switch', doc: 'also write checkpoint-level<L>.safetensors each time the curriculum first reaches level L (the weights it starts level L with)' },
};

function withOverride(config: RunConfig, key: 'steps' | 'seed', raw: string | undefined): RunConfig {
  if (raw === undefined) return config;
  try {
    return mergeConfig(config, { [key]: raw });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(`--${key}: ${e.message}`);
    throw e;
  }
}

async function makeEngineFactory(backend: string): Promise<{ make: (l: ParamLayout, p: Float32Array) => PolicyEngine | Promise<PolicyEngine>; adapter: string; close(): void }> {
  if (backend === 'cpu') return { make: (l, p) => new CpuEngine(l, p), adapter: 'cpu reference', close() {} };
  if (backend !== 'gpu') throw new CliError(`--backend must be one of gpu, cpu; got "${backend}"`);
  const ctx = await openNodeDevice();
  const a = ctx.adapter;
  return {
    make: (l, p) => GpuEngine.create(ctx.device, l, p),
    adapter: [a.vendor, a.architecture, a.description].filter(Boolean).join(' / '),
    close: () => ctx.device.destroy(),
  };
}

/** The --config file's text; any reason it cannot be read (missing, a directory, no permission) is named. */
function readConfigFile(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`--config: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** A one-line progress bar for a terminal. */
function progressLine(step: number, total: number, r: StepRecord, t0: number): string {
  const width = 24;
  const frac = total > 0 ? step / total : 0;
  const filled = Math.round(frac * width);
  const s = r.scalars;
  const secs = (Date.now() - t0) / 1000;
  const evalPart = r.eval ? ` eval pass@1 ${r.eval['eval/pass@1_greedy'].toFixed(2)}` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${step}/${total} reward ${s.reward.toFixed(3)} pass@1 ${s['pass@1'].toFixed(2)} entropy ${s.entropy.toFixed(2)} level ${r.level}${evalPart} ${secs.toFixed(0)}s`;
}

export async function trainCommand(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const f = parseFlags(argv, TRAIN_FLAGS, 'train');
  let config: RunConfig;
  const configFile = f.config === undefined ? undefined : readConfigFile(String(f.config));
  try {
    config = configFromCli({ preset: f.preset as string | undefined, configFile, sets: (f.set as string[] | undefined) ?? [] });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
  config = withOverride(config, 'steps', f.steps as string | undefined);
  config = withOverride(config, 'seed', f.seed as string | undefined);
  const steps = config.steps;
  if (steps <= 0) throw new CliError('--steps: a headless run needs a positive number of steps (the steps knob is 0 = until stopped)');
  const checkpointEvery = Number(f['checkpoint-every'] ?? 0);
  if (!Number.isInteger(checkpointEvery) || checkpointEvery < 0) {
    throw new CliError(`--checkpoint-every must be a non-negative integer, got "${String(f['checkpoint-every'])}"`);
  }
  const dir = stringFlag(f, 'out');
  mkdirSync(dir, { recursive: true });
  const engine = await makeEngineFactory(stringFlag(f, 'backend', 'gpu'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config, null, 2) + '\n');
  const metricsPath = join(dir, 'metrics.jsonl');
  writeFileSync(metricsPath, '');
  const trainer = await Trainer.create(config, engine.make);
  const tty = !f.json && process.stderr.isTTY;
  const t0 = Date.now();
  // Ctrl-C (or a kill) ends the run after the current step and still writes the checkpoint;
  // a second one exits at once. A terminal's Ctrl-C reaches `npm run` and this process both, and
  // npm may relay it: a repeat within a second is the same request, not a second one.
  let stopSignal: NodeJS.Signals | null = null;
  let stopAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (stopSignal) {
      if (Date.now() - stopAt < 1000) return;
      process.exit(130);
    }
    stopSignal = sig;
    stopAt = Date.now();
    err(`\n${sig}: stopping after this step and writing the checkpoint (again to quit at once)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (config.sftSteps > 0) {
      const losses = await trainer.warmStart();
      const line = { warmStart: { steps: losses.length, firstLoss: losses[0], lastLoss: losses[losses.length - 1] } };
      appendFileSync(metricsPath, JSON.stringify(line) + '\n');
      if (f.json) out(JSON.stringify(line));
    }
    let levelSaved = trainer.level;
    for (let i = 0; i < steps; i++) {
      const r = await trainer.step();
      const line = JSON.stringify(r);
      appendFileSync(metricsPath, line + '\n');
      if (f.json) out(line);
      else if (tty) process.stderr.write(`\r${progressLine(i + 1, steps, r, t0)}\x1b[K`);
      else if ((i + 1) % 10 === 0 || i + 1 === steps || r.eval) err(progressLine(i + 1, steps, r, t0));
      if (checkpointEvery > 0 && (i + 1) % checkpointEvery === 0) writeFileSync(join(dir, 'checkpoint.safetensors'), await trainer.checkpoint());
      if (f['checkpoint-levels'] && trainer.level > levelSaved) {
        levelSaved = trainer.level;
        writeFileSync(join(dir, `checkpoint-level${trainer.level}.safetensors`), await trainer.checkpoint());
      }
      if (stopSignal) break;
    }
    if (tty) process.stderr.write('\n');
  } catch (e) {
    if (tty) process.stderr.write('\n');
    if (e instanceof TrainingFault) {
      writeFileSync(join(dir, 'checkpoint.safetensors'), await trainer.checkpoint());
      err(`paused: ${e.message}\nThe checkpoint in ${dir} holds the weights from before step ${e.step}.`);
      trainer.destroy();
      engine.close();
      return 3;
    }
    throw e;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  writeFileSync(join(dir, 'checkpoint.safetensors'), await trainer.checkpoint());
  const summary = {
    out: dir, steps: trainer.stepCount, level: trainer.level, seconds: (Date.now() - t0) / 1000, adapter: engine.adapter,
    ...(stopSignal ? { stoppedBy: stopSignal } : {}),
  };
  if (f.json) out(JSON.stringify({ done: summary }));
  else out(`wrote ${dir}/config.json, metrics.jsonl, checkpoint.safetensors (${summary.steps} steps${stopSignal ? `, stopped by ${stopSignal}` : ''}, ${summary.seconds.toFixed(1)} s on ${summary.adapter})`);
  trainer.destroy();
  engine.close();
  // 130: the shell's code for an interrupted command, so scripts can tell a stopped run.
  return stopSignal ? 130 : 0;
}

export const EVAL_FLAGS: Record<string, FlagSpec> = {
  checkpoint: { kind: 'value', doc: 'a .safetensors file written by rlvr train (its run config names the task)' },
  param: { kind: 'multi', doc: 'override a task parameter, key=value (repeatable), e.g. --param length=6' },
  n: { kind: 'value', doc: 'held-out prompts (default 256)' },
  k: { kind: 'value', doc: 'k of pass@k (default: the run config evalK, at most groupSize)' },
  seed: { kind: 'value', doc: 'seed of the fresh prompts (default 1000003, unlike any training seed by default)' },
  backend: { kind: 'value', doc: 'gpu (default) or cpu' },
  json: { kind: 'switch', doc: 'print one JSON object' },
};

export async function evalCommand(argv: string[], out: (s: string) => void): Promise<number> {
  const f = parseFlags(argv, EVAL_FLAGS, 'eval');
  const path = stringFlag(f, 'checkpoint');
  const ck = loadCheckpointFile(path);
  if (ck.runConfig === undefined) {
    throw new CliError('--checkpoint: this file has no run config (write it with rlvr train); eval needs it to know the task');
  }
  let saved: Record<string, unknown>;
  try {
    // Range-checks the knobs, trainedSteps and level; the knobs are then re-validated with the overrides.
    saved = { ...checkpointRun(ck.runConfig, `--checkpoint ${path}: run_config`).config };
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
  const overrides: Record<string, unknown> = {
    evalPrompts: intFlag(f, 'n', 256, 1, 100000),
    seed: intFlag(f, 'seed', 1000003, 0, 2 ** 32 - 1),
    // Evaluation trains nothing: the task at its configured difficulty, no KL reference
    // (refSync = curriculum would be refused without a curriculum).
    curriculum: 'off',
    refSync: 'none',
  };
  for (const p of (f.param as string[] | undefined) ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) throw new CliError(`--param expects key=value, got "${p}"`);
    overrides[`task.${p.slice(0, eq)}`] = p.slice(eq + 1);
  }
  if (f.k !== undefined) overrides.evalK = intFlag(f, 'k', undefined, 1, 1024);
  let config: RunConfig;
  try {
    config = validateConfig({ ...saved, ...overrides });
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
  const engine = await makeEngineFactory(stringFlag(f, 'backend', 'gpu'));
  let trainer: Trainer;
  try {
    trainer = await Trainer.create(config, engine.make, { layout: ck.layout, params: ck.params });
  } catch (e) {
    engine.close();
    if (e instanceof RangeError) throw new CliError(`--param: ${e.message}`);
    throw e;
  }
  const r = await trainer.evaluate();
  const result = {
    task: config.task, prompts: r.prompts, k: r.k,
    'pass@1': r['eval/pass@1_greedy'], 'pass@1_sampled': r['eval/pass@1_sampled'], [`pass@${r.k}`]: r['eval/pass@k'],
    taskMetrics: r.taskMetrics, adapter: engine.adapter,
  };
  if (f.json) out(JSON.stringify(result));
  else out(`${config.task}: greedy pass@1 ${result['pass@1'].toFixed(3)}, sampled pass@1 ${r['eval/pass@1_sampled'].toFixed(3)}, pass@${r.k} ${r['eval/pass@k'].toFixed(3)} over ${r.prompts} prompts`);
  trainer.destroy();
  engine.close();
  return 0;
}
