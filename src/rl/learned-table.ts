// The policy's learned table (a Cayley table for groupmul's interleaved layout): the task says
// what to ask (its TableProbe, src/tasks/types.ts), this reads the answers. All cells go to the
// engine in ONE greedy (topK = 1) sample call; the returned logp is under the full tempered
// softmax, so exp(logp) is the probability of the argmax token (docs/engine.md, sample_token).

import type { RunConfig } from '../config/config';
import { taskParamsOf } from '../config/config';
import { getTask } from '../tasks/registry';
import type { TableProbe } from '../tasks/types';
import type { PolicyEngine } from './engine';

/** The policy's most likely answer for each cell of the task's table. */
export interface LearnedTable {
  /** element names, index = element id */
  elements: string[];
  /** [n][n] argmax element id for (row a, column x); −1 where the answer is not an element */
  argmax: number[][];
  /** [n][n] its probability under the policy */
  prob: number[][];
  /** [n][n] the right answer (for groupmul the true product a·x, as the task defines it) */
  truth: number[][];
}

export interface LearnedTableOptions {
  /** Seed of the sampling key (irrelevant to a greedy draw, but part of the engine contract). */
  seed: number;
  /** Inverse temperature of the policy whose probabilities are reported (default 1). */
  invTemp?: number;
}

/** The table probe of a run's task at its configured parameters, or null when it has none. */
export function tableProbeOf(config: RunConfig): TableProbe | null {
  return getTask(config.task).tableProbe?.(taskParamsOf(config)) ?? null;
}

// The page asks on every store change; one probe per run config is enough.
const probed = new WeakMap<RunConfig, boolean>();

/** Whether a run's task has a table to learn at its configured parameters. */
export function hasTableProbe(config: RunConfig): boolean {
  let has = probed.get(config);
  if (has === undefined) probed.set(config, (has = tableProbeOf(config) !== null));
  return has;
}

/** A learned table's labels as the task names them for people (groupmul: e, r, r², s, …). */
export function tableNamesOf(config: RunConfig, labels: readonly string[]): readonly string[] {
  return getTask(config.task).display.tableNames?.(taskParamsOf(config), labels) ?? labels;
}

/** Positions of one probe sequence: its prompt and the answer. */
export function probeLength(probe: TableProbe): number {
  return probe.prompt(0, 0).length + 1;
}

/** Template [n²·T]: row a·n + x is prompt(a, x) and −1 where the policy answers. */
export function probeTemplate(probe: TableProbe): Int32Array {
  const n = probe.labels.length;
  const T = probeLength(probe);
  const fixed = new Int32Array(n * n * T).fill(-1);
  for (let a = 0; a < n; a++) for (let x = 0; x < n; x++) fixed.set(probe.prompt(a, x), (a * n + x) * T);
  return fixed;
}

export async function learnedTable(
  engine: PolicyEngine,
  probe: TableProbe,
  opts: LearnedTableOptions,
): Promise<LearnedTable> {
  const n = probe.labels.length;
  const T = probeLength(probe);
  const { vocabSize: V, nPositions } = engine.layout.config;
  const needV = Math.max(...probe.tokens) + 1;
  if (V < needV)
    throw new RangeError(`learnedTable: the table's elements need a vocabulary of ${needV} tokens, the model has ${V}`);
  if (nPositions < T) throw new RangeError(`learnedTable: needs model.nPositions ≥ ${T}, the model has ${nPositions}`);
  const result = await engine.sample(probeTemplate(probe), n * n, T, {
    seed: opts.seed >>> 0,
    step: 0,
    invTemp: opts.invTemp ?? 1,
    topK: 1,
  });
  const argmax: number[][] = [];
  const prob: number[][] = [];
  for (let a = 0; a < n; a++) {
    const am: number[] = [];
    const pr: number[] = [];
    for (let x = 0; x < n; x++) {
      const at = (a * n + x) * T + T - 1;
      am.push(probe.tokens.indexOf(result.tokens[at]));
      pr.push(Math.exp(result.logp[at]));
    }
    argmax.push(am);
    prob.push(pr);
  }
  return { elements: [...probe.labels], argmax, prob, truth: probe.truth.map((row) => [...row]) };
}
