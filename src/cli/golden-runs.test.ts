// Same seed ⇒ same metrics, across refactors: short `rlvr train` runs must write exactly the
// metrics.jsonl lines recorded in src/cli/golden/ (wall-clock fields left out). Together the
// runs reach every branch of a step: curriculum advances with the KL anchor and the masked new
// positions, the three entropy regulators, an adaptive α, MaPP, dynamic sampling, epochs ×
// minibatches, the SFT warm start, overlong shaping, held-out evaluations.
//
// The CPU runs hold on any machine. The GPU runs hold on the adapter they were recorded on
// (float results of a kernel may differ between adapters); on another adapter they are skipped
// with the reason. Re-record (GOLDEN_RECORD=1) only for a change meant to alter the numbers.
// Re-recorded so far: the GPU files, when the bias and layernorm parameter gradients became
// chunked column sums (a different summation order: every value within 1.5e-6 relative of the
// files before; the CPU files unchanged), and sort.gpu again when the weight gradients of a
// batch of 512 rows or more became split-K sums (within 1.7e-7 relative). cot, mix and exact
// (both engines) again when training drew only from the train part of the task's split and
// the curriculum's check from its own training prompts (src/tasks/split.ts): other prompts, so
// other numbers; sort's five steps drew no held-out instance and stayed the same. sort, mix and
// exact (both engines) again when sort gained the group metric task/true_pass: that key added
// to each step (and to mix's evaluations' taskMetrics), every other value the same. The GPU
// files again when the logits and grad-norm reductions took the adapter's subgroups (another
// summation order: rewards, pass@k and tokens the same, other values within 1.9e-6 absolute).

import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { trainCommand } from './train-commands';
import { gpuIt, testGpu } from '../gpu/testing';

const HERE = dirname(fileURLToPath(import.meta.url));
const RECORD = process.env.GOLDEN_RECORD === '1';

const RUNS: Record<string, string[]> = {
  // The plain sanity preset.
  sort: ['--preset', 'sort-easy', '--steps', '5', '--seed', '3'],
  // The flagship recipe, shrunk: curriculum from length 1 advancing every 2 steps, the uniform
  // regulator, the KL anchor re-synced at each advance with the new positions free of KL, evals.
  cot: [
    '--preset',
    'cot-discovery',
    '--steps',
    '6',
    '--seed',
    '2',
    '--set',
    'task.length=3',
    '--set',
    'batchPrompts=4',
    '--set',
    'groupSize=4',
    '--set',
    'curriculumWindow=2',
    '--set',
    'curriculumTarget=0.01',
    '--set',
    'evalEvery=3',
    '--set',
    'evalPrompts=4',
    '--set',
    'evalK=2',
  ],
  // Everything else that carries state or changes the passes.
  mix: [
    '--preset',
    'sort-easy',
    '--steps',
    '5',
    '--seed',
    '5',
    '--set',
    'batchPrompts=4',
    '--set',
    'groupSize=4',
    '--set',
    'estimator=mapp',
    '--set',
    'mappPool=8',
    '--set',
    'dynamicSampling=true',
    '--set',
    'dynamicMaxTries=2',
    '--set',
    'epochs=2',
    '--set',
    'minibatches=2',
    '--set',
    'entropyMode=sampled',
    '--set',
    'entropyAlpha=0.02',
    '--set',
    'entropyTarget=1.5',
    '--set',
    'klBeta=0.1',
    '--set',
    'klKind=k1',
    '--set',
    'refSync=every',
    '--set',
    'refSyncEvery=2',
    '--set',
    'sftSteps=2',
    '--set',
    'aggregation=seq-mean-token-mean',
    '--set',
    'tokenCredit=eapo',
    '--set',
    'overlongBuffer=2',
    '--set',
    'maskTruncated=true',
    '--set',
    'dualClip=3',
    '--set',
    'warmupSteps=3',
    '--set',
    'evalEvery=2',
    '--set',
    'evalPrompts=4',
  ],
  // The exact entropy bonus, a KL reference taken once, group-structure credit, top-entropy tokens.
  exact: [
    '--preset',
    'sort-easy',
    '--steps',
    '4',
    '--seed',
    '7',
    '--set',
    'batchPrompts=3',
    '--set',
    'groupSize=6',
    '--set',
    'grpoScale=batch',
    '--set',
    'entropyAlpha=0.05',
    '--set',
    'entropyMode=exact',
    '--set',
    'klBeta=0.2',
    '--set',
    'topEntropyQuantile=0.5',
    '--set',
    'cueGamma=0.5',
    '--set',
    'edasGamma=0.5',
    '--set',
    'epsHigh=0.28',
    '--set',
    'aggregation=seq-mean-token-sum-norm',
    '--set',
    'temperature=1.3',
    '--set',
    'topK=4',
    '--set',
    'evalEvery=0',
    '--set',
    'model.nEmbd=16',
    '--set',
    'model.nLayer=1',
  ],
};

/** GPU goldens: the ones whose passes differ most in what the kernels are asked to do. */
const GPU_RUNS = ['sort', 'cot', 'mix'];

interface Golden {
  argv: string[];
  /** The engine it was recorded on ("cpu reference" or the adapter, as rlvr train names it). */
  adapter: string;
  lines: unknown[];
}

/** A metrics line without what depends on the clock. */
function comparable(line: string): unknown {
  const o = JSON.parse(line);
  if (o.scalars)
    o.scalars = Object.fromEntries(
      Object.entries(o.scalars).filter(([k]) => !k.startsWith('time/') && k !== 'tokens_per_s'),
    );
  return o;
}

/** Equal line by line, keys in the same order (a CSV export's columns follow it). */
function sameLines(name: string, got: unknown[], want: unknown[]): void {
  expect(got.length).toBe(want.length);
  got.forEach((l, i) => {
    expect(l, `${name}, line ${i + 1} of metrics.jsonl`).toEqual(want[i]);
    expect(JSON.stringify(l), `${name}, line ${i + 1}: key order`).toBe(JSON.stringify(want[i]));
  });
}

async function run(argv: string[], backend: 'cpu' | 'gpu'): Promise<{ lines: unknown[]; adapter: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'rlvr-golden-'));
  const out: string[] = [];
  const rc = await trainCommand(
    [...argv, '--backend', backend, '--out', dir, '--json'],
    (s) => out.push(s),
    () => {},
  );
  expect(rc).toBe(0);
  const adapter = JSON.parse(out.at(-1)!).done.adapter as string;
  const lines = readFileSync(join(dir, 'metrics.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map(comparable);
  return { lines, adapter };
}

const fixturePath = (name: string, backend: 'cpu' | 'gpu') => join(HERE, 'golden', `${name}.${backend}.json`);

function readGolden(name: string, backend: 'cpu' | 'gpu'): Golden {
  return JSON.parse(readFileSync(fixturePath(name, backend), 'utf8')) as Golden;
}

function record(name: string, backend: 'cpu' | 'gpu', got: { lines: unknown[]; adapter: string }): void {
  const g: Golden = { argv: RUNS[name], adapter: got.adapter, lines: got.lines };
  // One metrics line per line of the file, so a diff shows which step changed.
  const body = g.lines.map((l) => '    ' + JSON.stringify(l)).join(',\n');
  writeFileSync(
    fixturePath(name, backend),
    `{\n  "argv": ${JSON.stringify(g.argv)},\n  "adapter": ${JSON.stringify(g.adapter)},\n  "lines": [\n${body}\n  ]\n}\n`,
  );
}

describe('golden runs: the same seed gives the metrics recorded before the refactor', () => {
  for (const name of Object.keys(RUNS)) {
    it(`${name} (cpu)`, async () => {
      const got = await run(RUNS[name], 'cpu');
      if (RECORD) record(name, 'cpu', got);
      const golden = readGolden(name, 'cpu');
      expect(golden.argv).toEqual(RUNS[name]);
      sameLines(name, got.lines, golden.lines);
    });
  }

  for (const name of GPU_RUNS) {
    gpuIt(
      `${name} (gpu, on the adapter it was recorded on)`,
      async (_gpu, t) => {
        const ctx = await testGpu();
        const a = typeof ctx === 'string' ? null : ctx.adapter;
        const here = a ? [a.vendor, a.architecture, a.description].filter(Boolean).join(' / ') : '';
        if (RECORD) record(name, 'gpu', await run(RUNS[name], 'gpu'));
        const golden = readGolden(name, 'gpu');
        expect(golden.argv).toEqual(RUNS[name]);
        if (here !== golden.adapter) {
          t.skip(`the GPU golden was recorded on "${golden.adapter}"; this adapter is "${here}"`);
          return;
        }
        const got = await run(RUNS[name], 'gpu');
        expect(got.adapter).toBe(golden.adapter);
        sameLines(name, got.lines, golden.lines);
      },
      300_000,
    );
  }
});
