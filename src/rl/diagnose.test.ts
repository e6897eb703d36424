// A task's diagnoses through an engine's probe, on groupmul's chain-break report: hand-made
// completions (every field checked), a stub policy with one collapsed product, and a tiny CPU
// model (the same prompts and verdicts as evaluate()).

import { describe, expect, it } from 'vitest';
import { mergeConfig } from '../config/config';
import { presetConfig } from '../lessons/presets';
import { makeRng, STREAM } from '../core/random';
import { groupmulTask, type GroupMulInstance, type GroupMulParams } from '../tasks/groupmul';
import { getGroup } from '../tasks/groupmul';
import { parseParams } from '../tasks/params';
import { EOS, NUM_SPECIAL } from '../tasks/types';
import { chainBreakLines, chainBreakReport, COLLAPSED_BELOW, greedyChainBreaks } from '../tasks/groupmul';
import { diagnoseBreaks, engineProbe } from './diagnose';
import { CpuEngine } from './cpu-engine';
import type { SampleResult } from '../core/abi';
import type { PolicyEngine } from './engine';
import { buildTemplate, rolloutShape } from './rollout';
import { Trainer } from './trainer';

const S3 = getGroup('S3');
const el = (name: string): number => S3.elementNames.indexOf(name);

function instance(chain: string[], extra: Partial<GroupMulParams> = {}): GroupMulInstance {
  const params = parseParams(groupmulTask, { group: 'S3', length: chain.length, layout: 'interleaved', ...extra });
  return groupmulTask.fromJSON({ task: 'groupmul', params, chain: chain.map(el) });
}

/** Sequences [N,T] of the template with the y's written as given (element names; 'EOS' for the end token). */
function writeYs(instances: GroupMulInstance[], ys: string[][]): Int32Array {
  const shape = rolloutShape(instances, 1);
  const tokens = buildTemplate(instances, shape);
  instances.forEach((inst, n) => {
    const ypos = inst.fixed.flatMap((f, c) => (f === null ? [c] : []));
    ypos.forEach(
      (c, j) => (tokens[n * shape.T + shape.Lp + c] = ys[n][j] === 'EOS' ? EOS : NUM_SPECIAL + el(ys[n][j])),
    );
  });
  return tokens;
}

describe('chainBreakReport', () => {
  // Chain r·r·s: running products r, r², r²s (names are the one-line tokens).
  const r = 'p120';
  const r2 = 'p201';
  const s = 'p021';
  const r2s = S3.elementNames[S3.table[el(r2)][el(s)]];

  it('finds the first wrong y, the product that broke, and a right answer after a broken chain', () => {
    const insts = [instance([r, r, s]), instance([r, r, s]), instance([r, r, s]), instance([s, r, r])];
    const tokens = writeYs(insts, [
      [r, r2, r2s], // unbroken
      [r, s, r2s], // breaks at y2 (r·r), answer right anyway
      [s, r2, 'EOS'], // breaks at y1 (a copy), and the EOS cuts the answer
      [s, S3.elementNames[S3.table[el(s)][el(r)]], S3.elementNames[0]], // breaks at y3
    ]);
    const shape = rolloutShape(insts, 1);
    const rightLogp = new Float32Array(shape.N * shape.T).fill(Math.log(0.5));
    const report = chainBreakReport(
      insts,
      tokens,
      new Float32Array(shape.N * shape.T).fill(Math.log(0.25)),
      rightLogp,
      shape,
    );
    expect(report).toMatchObject({ group: 'S3', layout: 'interleaved', length: 3, scratch: 3, order: 6, prompts: 4 });
    expect(report.firstBreak).toEqual([1, 1, 1]);
    expect(report.unbroken).toBe(1);
    expect(report.correct).toBe(2);
    expect(report.brokenButCorrect).toBe(1);
    // y2 = s copies x2? No: x2 = r. y1 = s is not x1 = r either; y3 = e is neither x3 = r nor y2.
    expect([report.wroteNext, report.wroteBefore]).toEqual([0, 0]);
    expect(report.pairs).toHaveLength(3);
    const atY2 = report.pairs.find((p) => p.before === el(r));
    expect(atY2).toEqual({
      before: el(r),
      next: [el(r)],
      right: el(r2),
      wrote: el(s),
      count: 1,
      pRight: expect.closeTo(0.5, 6),
      pWrote: expect.closeTo(0.25, 6),
    });
    const atY1 = report.pairs.find((p) => p.before === null);
    expect(atY1).toMatchObject({ next: [el(r)], right: el(r), wrote: el(s) });
    expect(report.collapsed).toBe(0);
  });

  it('block layout with a short scratchpad: a step multiplies several elements in', () => {
    const params = parseParams(groupmulTask, { group: 'S3', length: 4, layout: 'block', scratch: 2 });
    const inst = groupmulTask.fromJSON({ task: 'groupmul', params, chain: [r, r, s, s].map(el) }) as GroupMulInstance;
    const shape = rolloutShape([inst], 1);
    const tokens = buildTemplate([inst], shape);
    tokens[shape.Lp] = NUM_SPECIAL + el(r2); // x1·x2 = r², right
    tokens[shape.Lp + 1] = NUM_SPECIAL + el(s); // the full product is r², wrong
    const zeros = new Float32Array(shape.T);
    const report = chainBreakReport([inst], tokens, zeros, zeros, shape);
    expect(report.firstBreak).toEqual([0, 1]);
    expect(report.pairs[0]).toMatchObject({
      before: el(r2),
      next: [el(s), el(s)],
      right: el(r2),
      wrote: el(s),
      pRight: 1,
    });
  });
});

/** A policy that knows the S3 table except one product, which it writes as `wrong` with p(right) = pRight. */
function stubPolicy(bad: [number, number], wrong: number, pRight: number, T: number): PolicyEngine {
  const t = S3.table;
  const element = (token: number): number => token - NUM_SPECIAL;
  const productAt = (tokens: Int32Array, row: number, c: number): { right: number; broken: boolean } => {
    // Interleaved: BOS x1 | y1 x2 y2 …; y at completion position c follows y_{t−1} (or x1) and x_t.
    if (c === 0) return { right: element(tokens[row + 1]), broken: false };
    const before = element(tokens[row + 2 + c - 2]);
    const x = element(tokens[row + 2 + c - 1]);
    return { right: t[before][x], broken: before === bad[0] && x === bad[1] };
  };
  return {
    async sample(fixed: Int32Array, N: number): Promise<SampleResult> {
      const tokens = fixed.slice();
      const logp = new Float32Array(N * T);
      for (let n = 0; n < N; n++) {
        for (let pos = 2; pos < T; pos++) {
          const i = n * T + pos;
          if (tokens[i] !== -1) continue;
          const { right, broken } = productAt(tokens, n * T, pos - 2);
          tokens[i] = NUM_SPECIAL + (broken ? wrong : right);
          logp[i] = Math.log(broken ? 1 - pRight : 0.9);
        }
      }
      return { tokens, logp, entropy: new Float32Array(N * T) };
    },
    async logProbs(tokens: Int32Array, targets: Int32Array, N: number): Promise<Float32Array> {
      const out = new Float32Array(N * T);
      for (let n = 0; n < N; n++) {
        for (let r = 0; r + 1 < T; r++) {
          if (targets[n * T + r] < 0) continue;
          const { broken } = productAt(tokens, n * T, r + 1 - 2);
          out[n * T + r] = Math.log(broken ? pRight : 0.9);
        }
      }
      return out;
    },
  } as unknown as PolicyEngine;
}

describe('greedyChainBreaks', () => {
  it('a stub policy with one collapsed product: every break is that product, p(right) as the policy says', async () => {
    const params = parseParams(groupmulTask, { group: 'S3', length: 4, layout: 'interleaved' });
    const rng = makeRng(7, STREAM.heldOut);
    const insts = Array.from({ length: 200 }, () => groupmulTask.sample(rng, params));
    const [a, x] = [el('p120'), el('p021')];
    const wrong = el('p012');
    const report = await greedyChainBreaks(engineProbe(stubPolicy([a, x], wrong, 0.002, 10), 0), insts);
    const broken = report.prompts - report.unbroken;
    expect(broken).toBeGreaterThan(0);
    expect(report.firstBreak[0]).toBe(0); // copying x1 never breaks
    expect(report.pairs).toEqual([
      {
        before: a,
        next: [x],
        right: S3.table[a][x],
        wrote: wrong,
        count: broken,
        pRight: expect.closeTo(0.002, 6),
        pWrote: expect.closeTo(0.998, 6),
      },
    ]);
    expect(report.collapsed).toBe(1);
    expect([report.wroteNext, report.wroteBefore]).toEqual([0, 0]);
    const echo = await greedyChainBreaks(engineProbe(stubPolicy([a, x], x, 0.3, 10), 0), insts);
    expect(echo.wroteNext).toBe(echo.prompts - echo.unbroken);
    expect(echo.collapsed).toBe(0);
    const text = chainBreakLines(report).join('\n');
    expect(text).toContain(`p120 · p021 → ${S3.elementNames[S3.table[a][x]]}  wrote p012`);
    expect(text).toContain('p(right) 0.002 collapsed');
    expect(chainBreakLines(echo).join('\n')).toContain(
      `copied the next element in ${echo.wroteNext} of ${echo.wroteNext} broken chains`,
    );
    expect(text).toContain(`1 of 1 wrong products collapsed (p(right) < ${COLLAPSED_BELOW})`);
  });

  it('on a tiny CPU model: the prompts evaluate() scores, the same verdicts, deterministic', async () => {
    const config = mergeConfig(presetConfig('cot-discovery'), {
      'task.length': 3,
      curriculum: 'off',
      refSync: 'none',
      'model.nEmbd': 8,
      'model.nLayer': 1,
      'model.nHead': 2,
      evalEvery: 0,
      evalPrompts: 24,
      groupSize: 4,
      seed: 5,
    });
    const trainer = await Trainer.create(config, (l, p, s) => new CpuEngine(l, p, s));
    const insts = trainer.heldOutPrompts(trainer.level, 24) as GroupMulInstance[];
    const report = await greedyChainBreaks(engineProbe(trainer.engine, config.seed), insts);
    // Through the task's hook, as rlvr eval --breaks asks it: the same report, its text and its --json field.
    const hooked = await diagnoseBreaks(trainer.task, trainer.engine, insts, config.seed);
    expect(hooked).toEqual({ field: 'chainBreaks', value: report, lines: chainBreakLines(report) });
    const again = await greedyChainBreaks(engineProbe(trainer.engine, config.seed), insts);
    const evaluated = await trainer.evaluate();
    expect(again).toEqual(report);
    expect(report.prompts).toBe(24);
    expect(report.correct).toBe(Math.round(evaluated['eval/pass@1_greedy'] * 24));
    expect(report.unbroken + report.firstBreak.reduce((s, c) => s + c, 0)).toBe(24);
    expect(report.pairs.reduce((s, p) => s + p.count, 0)).toBe(24 - report.unbroken);
    for (const p of report.pairs) {
      expect(p.pRight).toBeGreaterThan(0);
      expect(p.pRight).toBeLessThan(1);
      expect(p.wrote).not.toBe(p.right);
    }
    trainer.destroy();
  });
});
