// Where a greedy chain of thought first goes wrong: the groupmul task's chain-break report.
//
// Per prompt: decode greedily (through a model's probe: src/rl/diagnose.ts), then find the first
// scratchpad token y_j that is not its running product. Over the prompts: how many break at each
// position, and which single products (the running product so far, times the next element) the
// policy gets wrong, with the probability it gives the right product there. The prefix before a first break is right, so that
// probability is the policy's own answer to "what is a·x", not a consequence of an earlier slip.
//
// This is the diagnosis of the S3 stall (docs/results.md, "Why it stalled") as a report: a wrong product
// with p(right) near 0 is a collapsed row — sampled groups there are all wrong, so a group-relative
// advantage is 0 and only the regulator can pull it back — while p(right) near 1/n is a product
// the policy has simply not learned yet.

import { EOS, NUM_SPECIAL, type PolicyProbe, type TaskBreaks } from '../types';
import { getGroup, prefixProducts } from './groups';
import { policyPositions, scratchLength, targetPrefixLength, type GroupMulInstance } from './layout';

/** Below this probability of the right product a wrong product counts as collapsed (the S3 stall's were < 0.005). */
export const COLLAPSED_BELOW = 0.01;

/** One product the greedy chains first got wrong, aggregated over the prompts that broke there. */
export interface ChainBreakPair {
  /** The running product before this step (element index), or null at y₁ (nothing multiplied yet). */
  before: number | null;
  /** The chain elements this step multiplies in: one when the scratchpad has room for every product. */
  next: number[];
  /** The right running product after the step. */
  right: number;
  /** What greedy wrote there most often (element index; −1: not an element). */
  wrote: number;
  /** Prompts whose chain first broke at this product. */
  count: number;
  /** Mean probability the policy gives the right product there (its prefix being right). */
  pRight: number;
  /** Mean probability of the token greedy wrote there. */
  pWrote: number;
}

export interface ChainBreakReport {
  group: string;
  layout: 'block' | 'interleaved';
  /** Chain length k and scratchpad length s. */
  length: number;
  scratch: number;
  /** Order of the group: a uniform guess has p(right) = 1/order. */
  order: number;
  /** Token name of each element index (the indices below). */
  elementNames: string[];
  prompts: number;
  /** Prompts whose last y is the product (greedy pass@1 × prompts). */
  correct: number;
  /** Prompts whose every y is its running product. */
  unbroken: number;
  /** firstBreak[j]: prompts whose first wrong token is y_{j+1}. */
  firstBreak: number[];
  /** Broken chains whose last y is right anyway (another algorithm, or luck). */
  brokenButCorrect: number;
  /**
   * What the first wrong tokens were, when they were a copy: of the next element itself (a
   * policy that has not learned to multiply yet echoes its input) or of the running product before.
   */
  wroteNext: number;
  wroteBefore: number;
  /** Every product some chain first broke at: most prompts first, then the lowest p(right). */
  pairs: ChainBreakPair[];
  /** Of those products, how many give the right answer probability < COLLAPSED_BELOW. */
  collapsed: number;
}

/** Where a batch's completions sit: T positions a sequence, the completion from position Lp. */
export interface SequenceLayout {
  T: number;
  Lp: number;
}

/** A product's sums while the prompts are counted: Σ p(right), Σ p(wrote), and how often greedy wrote each element. */
type PairTally = ChainBreakPair & { wroteCounts: Map<number, number> };

/** The tallies as the report lists them: means, the element written most often; most prompts first, then the lowest p(right). */
function pairList(tallies: Iterable<PairTally>): ChainBreakPair[] {
  const list: ChainBreakPair[] = [...tallies].map(({ wroteCounts, ...p }) => ({
    ...p,
    wrote: [...wroteCounts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0],
    pRight: p.pRight / p.count,
    pWrote: p.pWrote / p.count,
  }));
  list.sort((a, b) => b.count - a.count || a.pRight - b.pRight);
  return list;
}

/**
 * The report from greedy completions: `tokens` [N,T] (one sequence per prompt), `greedyLogp`
 * [N,T] the log-probability of each sampled token (token space, as the engine's sample returns
 * it) and `rightLogp` [N,T] the log-probability of the right running product at each y (row
 * space: row r scores token r + 1, as the engine's logProbs returns it).
 */
export function chainBreakReport(
  instances: readonly GroupMulInstance[],
  tokens: Int32Array,
  greedyLogp: Float32Array,
  rightLogp: Float32Array,
  shape: SequenceLayout,
): ChainBreakReport {
  const params = instances[0].params;
  const g = getGroup(params.group);
  const k = params.length;
  const s = scratchLength(params);
  const positions = policyPositions(params);
  const lengths = Array.from({ length: s }, (_, j) => targetPrefixLength(j, k, s));
  const firstBreak = new Array<number>(s).fill(0);
  const pairs = new Map<string, PairTally>();
  let correct = 0;
  let unbroken = 0;
  let brokenButCorrect = 0;
  let wroteNext = 0;
  let wroteBefore = 0;
  instances.forEach((inst, n) => {
    const prefix = prefixProducts(g.table, inst.chain);
    const targets = lengths.map((L) => prefix[L - 1]);
    const at = (j: number): number => n * shape.T + shape.Lp + positions[j];
    // As the verifier reads it: an EOS the policy writes ends the scratchpad, later y's are missing.
    let cut = false;
    const ys = positions.map((_, j) => {
      const token = tokens[at(j)];
      const element = token - NUM_SPECIAL;
      const y = !cut && element >= 0 && element < g.order ? element : -1;
      if (token === EOS) cut = true;
      return y;
    });
    const right = ys[s - 1] === targets[s - 1];
    if (right) correct++;
    const j = ys.findIndex((y, i) => y !== targets[i]);
    if (j < 0) {
      unbroken++;
      return;
    }
    firstBreak[j]++;
    if (right) brokenButCorrect++;
    const before = j === 0 ? null : targets[j - 1];
    const next = inst.chain.slice(j === 0 ? 0 : lengths[j - 1], lengths[j]);
    if (next.length === 1 && ys[j] === next[0]) wroteNext++;
    else if (before !== null && ys[j] === before) wroteBefore++;
    const key = `${before}:${next.join(',')}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { before, next, right: targets[j], wrote: -1, count: 0, pRight: 0, pWrote: 0, wroteCounts: new Map() };
      pairs.set(key, pair);
    }
    pair.count++;
    pair.pRight += Math.exp(rightLogp[at(j) - 1]);
    pair.pWrote += Math.exp(greedyLogp[at(j)]);
    pair.wroteCounts.set(ys[j], (pair.wroteCounts.get(ys[j]) ?? 0) + 1);
  });
  const list = pairList(pairs.values());
  return {
    group: g.name,
    layout: params.layout,
    length: k,
    scratch: s,
    order: g.order,
    elementNames: [...g.elementNames],
    prompts: instances.length,
    correct,
    unbroken,
    firstBreak,
    brokenButCorrect,
    wroteNext,
    wroteBefore,
    pairs: list,
    collapsed: list.filter((p) => p.pRight < COLLAPSED_BELOW).length,
  };
}

/** The report as lines of text: the first-break positions, then the products most often wrong. */
export function chainBreakLines(r: ChainBreakReport, maxPairs = 10): string[] {
  const names = r.elementNames;
  const name = (e: number): string => (e >= 0 ? names[e] : '(not an element)');
  const percent = (x: number): string => `${((100 * x) / Math.max(1, r.prompts)).toFixed(0)}%`;
  const lines = [
    `where the greedy chain first breaks (${r.prompts} prompts, ${r.group} length ${r.length}, ${r.layout}, ${r.scratch} scratchpad token${r.scratch === 1 ? '' : 's'}):`,
  ];
  const head = ['first wrong', ...r.firstBreak.map((_, j) => `y${j + 1}`), 'none'];
  const row = ['prompts', ...r.firstBreak.map(String), String(r.unbroken)];
  const width = head.map((h, i) => Math.max(h.length, row[i].length));
  lines.push('  ' + head.map((h, i) => h.padStart(width[i])).join('  '));
  lines.push('  ' + row.map((c, i) => c.padStart(width[i])).join('  '));
  lines.push(
    `  answer right: ${r.correct} (${percent(r.correct)}); chain broken but answer right: ${r.brokenButCorrect}`,
  );
  if (r.scratch === 1) {
    lines.push('  one answer token: no intermediate products to compare');
    return lines;
  }
  if (r.pairs.length === 0) return lines;
  const broken = r.prompts - r.unbroken;
  if (r.scratch === r.length) {
    lines.push(
      `  the first wrong token copied the next element in ${r.wroteNext} of ${broken} broken chains, the running product before it in ${r.wroteBefore}`,
    );
  }
  const stepWord = r.scratch === r.length ? 'running product · next element' : 'running product · next elements';
  lines.push(
    `products it gets wrong first (${stepWord} → right; greedy wrote; p(right), chance 1/${r.order} = ${(1 / r.order).toFixed(3)}):`,
  );
  const shown = r.pairs
    .slice(0, maxPairs)
    .map((p) => [
      `${p.before === null ? '(start)' : name(p.before)} · ${p.next.map(name).join(' ')} → ${name(p.right)}`,
      `wrote ${name(p.wrote)}`,
      `${p.count} prompt${p.count === 1 ? '' : 's'}`,
      `p(right) ${p.pRight.toFixed(3)}${p.pRight < COLLAPSED_BELOW ? ' collapsed' : ''}`,
    ]);
  const w = [0, 1, 2].map((i) => Math.max(...shown.map((c) => c[i].length)));
  for (const c of shown) lines.push(`  ${c[0].padEnd(w[0])}  ${c[1].padEnd(w[1])}  ${c[2].padStart(w[2])}  ${c[3]}`);
  if (r.pairs.length > maxPairs) lines.push(`  … and ${r.pairs.length - maxPairs} more (--json lists them all)`);
  lines.push(
    `  ${r.collapsed} of ${r.pairs.length} wrong products collapsed (p(right) < ${COLLAPSED_BELOW}): their groups are all wrong, so only the regulator can pull them back`,
  );
  return lines;
}

/**
 * One greedy decode through the probe, the probability of the right running product at every y
 * under those prefixes (one teacher-forced pass), and where the chains break. Probabilities are at
 * the probe's temperature (the run's sampling temperature: 1 in every groupmul preset).
 */
export async function greedyChainBreaks(
  probe: PolicyProbe,
  instances: readonly GroupMulInstance[],
): Promise<ChainBreakReport> {
  const greedy = await probe.greedy(instances);
  const { shape } = greedy;
  const g = getGroup(instances[0].params.group);
  const positions = policyPositions(instances[0].params);
  const s = positions.length;
  const k = instances[0].params.length;
  // Row Lp + c − 1 predicts completion position c: its target is the right product of that y.
  const targets = new Int32Array(shape.N * shape.T).fill(-1);
  instances.forEach((inst, n) => {
    const prefix = prefixProducts(g.table, inst.chain);
    positions.forEach((c, j) => {
      targets[n * shape.T + shape.Lp + c - 1] = NUM_SPECIAL + prefix[targetPrefixLength(j, k, s) - 1];
    });
  });
  const rightLogp = await probe.logProbs(greedy.tokens, targets, shape.N, shape.T);
  return chainBreakReport(instances, greedy.tokens, greedy.logp, rightLogp, shape);
}

/** groupmul's Task.breaks: where greedy chains of thought first break (rlvr eval --breaks, chainBreaks in --json). */
export const groupmulBreaks: TaskBreaks<GroupMulInstance> = {
  what: 'chains',
  async report(probe, instances) {
    const report = await greedyChainBreaks(probe, instances);
    return { field: 'chainBreaks', value: report, lines: chainBreakLines(report) };
  },
};
