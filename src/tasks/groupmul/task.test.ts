import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRng, STREAM } from '../../core/random';
import { getGroup, GROUP_NAMES } from './groups';
import { groupmulTask as groupmul, scratchLength, targetPrefixLength, type GroupMulInstance } from '.';
import { parseParams } from '../params';
import { EOS, NUM_SPECIAL, SEP } from '../types';

function draw(raw: Record<string, unknown>, seed = 1): GroupMulInstance {
  return groupmul.sample(makeRng(seed, STREAM.tasks), parseParams(groupmul, raw));
}

/** Policy positions of the completion region (the y's). */
function yPositions(inst: GroupMulInstance): number[] {
  return inst.fixed.flatMap((f, i) => (f === null ? [i] : []));
}

const groupName = fc.constantFrom(...GROUP_NAMES);
const seed = fc.nat();

describe('groupmul answers', () => {
  it('equal the chain applied point by point (right action), independent of the table', () => {
    fc.assert(
      fc.property(
        groupName.filter((g) => !g.startsWith('quasi')),
        fc.integer({ min: 1, max: 16 }),
        seed,
        (group, length, s) => {
          const inst = draw({ group, length }, s);
          const perms = inst.perms ?? [];
          const n = perms[0].length;
          // Apply x1 first, then x2, …: the image of each point.
          const image = Array.from({ length: n }, (_, x) => inst.chain.reduce((p, g) => perms[g][p], x));
          expect(perms[inst.answer]).toEqual(image);
          expect(inst.table).toBeUndefined();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('fold quasigroup chains left', () => {
    const inst = draw({ group: 'quasi6', length: 5 }, 3);
    const t = inst.table ?? [];
    const [a, b, c, d, e] = inst.chain;
    expect(inst.answer).toBe(t[t[t[t[a][b]][c]][d]][e]);
    expect(inst.perms).toBeUndefined();
  });

  it('write the running products in the scratchpad, spread evenly when it is shorter than the chain', () => {
    const inst = draw({ group: 'S4', length: 6, scratch: 3 }, 9);
    const t = getGroup('S4').table;
    const prefix = (L: number): number => inst.chain.slice(0, L).reduce((acc, x) => t[acc][x]);
    expect(inst.answerTokens).toEqual([prefix(2), prefix(4), prefix(6)].map((x) => x + NUM_SPECIAL).concat(EOS));
    expect([0, 1, 2].map((j) => targetPrefixLength(j, 6, 3))).toEqual([2, 4, 6]);
    expect([0, 1].map((j) => targetPrefixLength(j, 5, 2))).toEqual([3, 5]);
  });

  it('with scratch 1 answer at once', () => {
    const inst = draw({ group: 'D5', length: 7, scratch: 1 });
    expect(inst.answerTokens).toEqual([NUM_SPECIAL + inst.answer, EOS]);
    expect(inst.fixed).toEqual([null, EOS]);
  });
});

describe('groupmul layouts', () => {
  it('block: BOS chain SEP, then s sampled positions and an environment-written EOS', () => {
    const inst = draw({ group: 'Z7', length: 5 });
    expect(inst.promptTokens).toEqual([1, ...inst.chain.map((x) => x + NUM_SPECIAL), SEP]);
    expect(inst.fixed).toEqual([null, null, null, null, null, EOS]);
  });

  it('interleaved: BOS x1, then y1 x2 y2 … xk yk EOS with the x’s and EOS fixed', () => {
    const inst = draw({ group: 'S3', length: 4, layout: 'interleaved' });
    const x = inst.chain.map((c) => c + NUM_SPECIAL);
    expect(inst.promptTokens).toEqual([1, x[0]]);
    expect(inst.fixed).toEqual([null, x[1], null, x[2], null, x[3], null, EOS]);
    const t = getGroup('S3').table;
    let acc = inst.chain[0];
    const ys = [acc];
    for (const c of inst.chain.slice(1)) ys.push((acc = t[acc][c]));
    expect(yPositions(inst).map((p) => inst.answerTokens[p] - NUM_SPECIAL)).toEqual(ys);
  });

  it('interleaved: the verifier reads only the y positions', () => {
    const inst = draw({ group: 'Q8', length: 5, layout: 'interleaved' });
    const scrambled = inst.answerTokens.map((t, i) => (inst.fixed[i] !== null && t !== EOS ? NUM_SPECIAL : t));
    expect(groupmul.verify(inst, scrambled).correct).toBe(true);
  });
});

describe('groupmul rewards', () => {
  /** The y positions the policy writes (the closing EOS left out). */
  const writtenYs = (inst: GroupMulInstance): number[] => yPositions(inst).filter((p) => inst.answerTokens[p] !== EOS);
  /** The token of the element `shift` steps (1 … order − 1) on from `token`'s: another element. */
  const otherElement = (inst: GroupMulInstance, token: number, shift = 1): number =>
    NUM_SPECIAL + ((token - NUM_SPECIAL + shift) % inst.elementNames.length);
  const params = fc.record({
    group: groupName,
    length: fc.integer({ min: 1, max: 16 }),
    layout: fc.constantFrom('block', 'interleaved'),
  });

  it('last: a wrong final token gets 0; wrong earlier tokens do not matter', () => {
    fc.assert(
      fc.property(params, seed, fc.nat(), (raw, s, pick) => {
        const inst = draw({ ...raw, reward: 'last' }, s);
        const ys = writtenYs(inst);
        const last = ys[ys.length - 1];
        const wrongLast = [...inst.answerTokens];
        wrongLast[last] = otherElement(inst, inst.answerTokens[last], 1 + (pick % (inst.elementNames.length - 1)));
        expect(groupmul.verify(inst, wrongLast)).toMatchObject({ reward: 0, correct: false });
        expect(groupmul.errorSignature(inst, wrongLast)).toBe(
          `answer:${inst.elementNames[wrongLast[last] - NUM_SPECIAL]}`,
        );
        if (ys.length > 1) {
          const wrongEarly = [...inst.answerTokens];
          const p = ys[pick % (ys.length - 1)];
          wrongEarly[p] = otherElement(inst, wrongEarly[p]);
          expect(groupmul.verify(inst, wrongEarly)).toMatchObject({ reward: 1, correct: true });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('dense: each wrong running product costs 1/s', () => {
    fc.assert(
      fc.property(params, seed, fc.nat(), (raw, s, pick) => {
        const inst = draw({ ...raw, reward: 'dense' }, s);
        const ys = writtenYs(inst);
        const wrong = [...inst.answerTokens];
        const p = ys[pick % ys.length];
        wrong[p] = otherElement(inst, wrong[p]);
        const r = groupmul.verify(inst, wrong);
        expect(r.reward).toBeCloseTo((ys.length - 1) / ys.length, 12);
        expect(r.correct).toBe(p !== ys[ys.length - 1]);
      }),
      { numRuns: 60 },
    );
  });

  it('an EOS inside the scratchpad cuts it short: the answer after it does not count', () => {
    const inst = draw({ group: 'S3', length: 4 });
    const cut = [...inst.answerTokens];
    cut[1] = EOS;
    expect(groupmul.verify(inst, cut).reward).toBe(0);
    expect(groupmul.verify(inst, []).reward).toBe(0);
    expect(groupmul.verify(inst, [SEP, ...inst.answerTokens]).reward).toBe(0);
    expect(groupmul.errorSignature(inst, cut)).toBe('answer:none');
    // A missing closing EOS, or junk after the region, changes nothing.
    expect(groupmul.verify(inst, inst.answerTokens.slice(0, -1)).correct).toBe(true);
    expect(groupmul.verify(inst, [...inst.answerTokens, 99, 4]).correct).toBe(true);
  });
});

describe('groupmul metrics and signatures', () => {
  it('tell a left-to-right scratchpad from a right-to-left one', () => {
    // S3 chain where prefix and suffix running products differ at the first position.
    let inst = draw({ group: 'S3', length: 6 });
    for (let s = 2; inst.chain[0] === inst.chain[5]; s++) inst = draw({ group: 'S3', length: 6 }, s);
    const t = getGroup('S3').table;
    const suffix: number[] = [];
    let acc = inst.chain[5];
    suffix.push(acc);
    for (let i = 4; i >= 0; i--) suffix.push((acc = t[inst.chain[i]][acc]));
    const rightToLeft = [...suffix.map((x) => x + NUM_SPECIAL), EOS];
    expect(groupmul.signature(inst, inst.answerTokens)).toBe('prefix');
    expect(groupmul.signature(inst, rightToLeft)).toBe('suffix');
    expect(groupmul.signature(inst, [NUM_SPECIAL, EOS])).toBe('other');
    expect(groupmul.verify(inst, rightToLeft).correct).toBe(true); // S3 is associative: same product
    const m = groupmul.groupMetrics?.(inst, [inst.answerTokens, rightToLeft]) ?? {};
    expect(m.cot_alignment_prefix).toBeGreaterThanOrEqual(0.5);
    expect(m.cot_alignment_prefix).toBeLessThan(1);
    expect(m.cot_alignment_suffix).toBeGreaterThanOrEqual(0.5);
    expect(groupmul.groupMetrics?.(inst, [inst.answerTokens, inst.answerTokens])).toEqual({
      cot_alignment_prefix: 1,
      cot_alignment_suffix: expect.any(Number),
    });
    expect(groupmul.groupMetrics?.(inst, [])).toEqual({});
    // Answer at once (a one-token scratchpad): there is no chain of thought to align.
    const atOnce = draw({ group: 'S3', length: 6, scratch: 1 });
    expect(groupmul.groupMetrics?.(atOnce, [atOnce.answerTokens])).toEqual({});
  });

  it('scratch length resolves 0 to the chain length', () => {
    expect(scratchLength(parseParams(groupmul, { length: 9 }))).toBe(9);
    expect(scratchLength(parseParams(groupmul, { length: 9, scratch: 2 }))).toBe(2);
  });
});

describe('groupmul fromJSON', () => {
  it('names the field that is wrong', () => {
    const base = { task: 'groupmul', params: { group: 'Z5', length: 3 } };
    expect(() => groupmul.fromJSON({ ...base, chain: [0, 1] })).toThrow('instance.chain must have length 3, got 2');
    expect(() => groupmul.fromJSON({ ...base, chain: [0, 1, 5] })).toThrow(
      'instance.chain[2] must be an integer in [0, 5), got 5',
    );
    expect(() => groupmul.fromJSON({ ...base, chain: [0, 1, 2], group: 'S3' })).toThrow(/instance\.group/);
    expect(() => groupmul.fromJSON({ ...base, task: 'maze', chain: [0, 1, 2] })).toThrow(/instance\.task/);
    expect(() => groupmul.fromJSON({ ...base, params: { group: 'Z5', length: 30 }, chain: [] })).toThrow(
      'groupmul.length must be an integer in [1, 16], got 30',
    );
    expect(groupmul.fromJSON({ ...base, chain: [1, 2, 4] }).answer).toBe(2);
  });
});
