// groupData: what the group view shows of a rollout, for sort, groupmul and subsetsum. (The maze:
// groupDataMaze.test.ts.)

import { describe, expect, it } from 'vitest';
import { groupmulTask, type GroupMulInstance, type GroupMulParams } from '../../tasks/groupmul';
import { sortTask } from '../../tasks/sort';
import { subsetsumTask } from '../../tasks/subsetsum';
import { getGroup, prefixProducts } from '../../tasks/groupmul';
import { EOS, NUM_SPECIAL, PAD } from '../../tasks/types';
import { makeRng } from '../../core/random';
import { css, divergingRgb, POSITIVE, sequentialRgb, WHITE } from '../views/colour';
import { correctAttr, groupData, verdictGlyph, visibleCells, type GroupViewData } from './groupData';
import { elementDisplay } from '../../tasks/groupmul';
import { signed } from './tokenCells';
import { TEST_ENTROPY, testRollout } from './testRollout';

const texts = (data: GroupViewData, g: number, showSpecial = false): string[] =>
  visibleCells(data.answers[g].cells, showSpecial).map((c) => c.text);

// ── sort: the generic rows ──────────────────────────────────────────────────────────────────

const sortParams = { length: 4, alphabet: 6, reward: 'exact' };
const sortInst = sortTask.fromJSON({ task: 'sort', params: sortParams, input: [3, 1, 0, 2] });
const L = (s: string): number[] => [...s].map((ch) => NUM_SPECIAL + ch.charCodeAt(0) - 97);
const sortCompletions = [
  [...L('abcd'), EOS], // right
  [...L('ab'), EOS, PAD, PAD], // too short
  [...L('bacd'), EOS], // wrong order
];

describe('groupData: sort (generic rows)', () => {
  const r = testRollout([sortInst], { completions: [sortCompletions] });
  const d = groupData(r, 0);

  it('reads the prompt and the right answer without special tokens', () => {
    expect(d.kind).toBe('rows');
    expect(d.task).toBe('sort');
    expect(d.prompt).toBe('d b a c');
    expect(d.question).toBe('Sort the letters.');
    expect(d.answer).toBe('a b c d');
    expect(d.rightCount).toBe(1);
    expect(d.rightText).toBe('1 of 3 right');
    expect(d.noSpread).toBe(false);
    expect(d.spreadNote).toBeNull();
  });

  it('hides <eos> and what follows it unless asked', () => {
    expect(texts(d, 0)).toEqual(['a', 'b', 'c', 'd']);
    expect(texts(d, 1)).toEqual(['a', 'b']);
    expect(texts(d, 0, true)).toEqual(['a', 'b', 'c', 'd', '<eos>']);
    expect(texts(d, 1, true)).toEqual(['a', 'b', '<eos>', '<pad>', '<pad>']);
    const cells = d.answers[1].cells;
    expect(cells.map((c) => c.special)).toEqual([false, false, true, true, true]);
    expect(cells.map((c) => c.afterEnd)).toEqual([false, false, false, true, true]);
    expect(cells.map((c) => c.kind)).toEqual(['sampled', 'sampled', 'sampled', 'untrained', 'untrained']);
  });

  it('verdict, reward and advantage per answer (GRPO: reward minus the group mean)', () => {
    expect(d.answers.map((a) => a.correct)).toEqual([true, false, false]);
    expect(d.answers.map((a) => correctAttr(a.correct))).toEqual(['true', 'false', 'false']);
    expect(d.answers.map((a) => verdictGlyph(a.correct))).toEqual(['✓', '✗', '✗']);
    expect(d.answers.map((a) => a.reward)).toEqual([1, 0, 0]);
    expect(d.answers.every((a) => a.rewardText === null)).toBe(true);
    expect(d.answers.map((a) => a.advantageText)).toEqual(['A = +0.67', 'A = -0.33', 'A = -0.33']);
    expect(d.answers[0].advantageColour).toBe(css(POSITIVE));
    expect(d.answers[1].advantageColour).toBe(css(divergingRgb(-1 / 3, 2 / 3)));
    expect(d.answers[0].advantageInk).toBe('#fff');
  });

  it("tokens are coloured by their advantage on the rollout's scale", () => {
    const bound = Math.fround(2 / 3); // the per-token advantages are float32
    for (const a of d.answers) {
      for (const c of a.cells.filter((x) => x.kind === 'sampled')) {
        expect(c.colour).toBe(css(divergingRgb(c.advantage!, bound)));
      }
      for (const c of a.cells.filter((x) => x.kind !== 'sampled')) expect(c.colour).toBeNull();
    }
    expect(d.colourAvailable).toBe(true);
    expect(d.scaleLabel).toContain('advantage');
  });

  it('colours by entropy when asked', () => {
    const e = groupData(r, 0, 'entropy');
    const c = e.answers[0].cells[0];
    expect(c.colour).toBe(css(sequentialRgb(TEST_ENTROPY, Math.log(r.vocab.length))));
  });

  it('tooltips carry the facts', () => {
    const [a] = d.answers[0].cells;
    expect(a.title).toBe(
      '"a": written by the model\nlog-prob -0.50 (probability 0.61)\nentropy 0.25 nats\nadvantage +0.67',
    );
    expect(d.answers[1].cells[3].title).toBe('"<pad>": written by the model, not trained (after its end)');
    const withRatio = groupData({ ...r, ratio: new Float32Array(r.mask.length).fill(1.25) }, 0, 'ratio');
    expect(withRatio.answers[0].cells[0].title).toContain('ratio π_new/π_old 1.250');
  });

  it('before the verify phase: no verdict, no reward, nothing counted', () => {
    const p = groupData(
      testRollout([sortInst], { completions: [sortCompletions], advantages: false, phase: 'sample' }),
      0,
    );
    expect(p.answers.map((a) => a.correct)).toEqual([null, null, null]);
    expect(p.answers.map((a) => correctAttr(a.correct))).toEqual(['pending', 'pending', 'pending']);
    expect(p.answers.every((a) => a.reward === null && a.advantageText === 'A = …' && a.advantageColour === null)).toBe(
      true,
    );
    expect(p.rightCount).toBeNull();
    expect(p.rightText).toBe('not checked yet');
    expect(p.noSpread).toBe(false);
    expect(p.colourAvailable).toBe(false);
    expect(p.answers.every((a) => a.cells.every((c) => c.colour === null))).toBe(true);
  });

  it('a group with no spread: every A = 0.00, and the view says why', () => {
    const same = groupData(testRollout([sortInst], { completions: [[sortCompletions[0], sortCompletions[0]]] }), 0);
    expect(same.noSpread).toBe(true);
    expect(same.answers.map((a) => a.advantageText)).toEqual(['A = 0.00', 'A = 0.00']);
    expect(same.spreadNote).toMatch(/same reward, so every A = 0/);
    expect(same.scaleLabel).toBe('advantage: every A is 0 (white)');
    expect(same.answers[0].cells[0].colour).toBe(css(WHITE)); // advantage 0: white
  });

  it('dense rewards are shown when neither 0 nor 1', () => {
    const inst = sortTask.fromJSON({ task: 'sort', params: { ...sortParams, reward: 'partial' }, input: [3, 1, 0, 2] });
    const p = groupData(testRollout([inst], { completions: [[sortCompletions[0], [...L('abdc'), EOS]]] }), 0);
    expect(p.answers.map((a) => a.rewardText)).toEqual([null, 'reward 0.60']);
  });

  it('rejects a group index outside the rollout', () => {
    expect(() => groupData(r, 1)).toThrow(RangeError);
  });
});

describe('signed', () => {
  it('never prints -0.00', () => {
    expect(signed(1.3)).toBe('+1.30');
    expect(signed(-0.004)).toBe('0.00');
    expect(signed(0)).toBe('0.00');
    expect(signed(-2)).toBe('-2.00');
  });
});

// ── groupmul ────────────────────────────────────────────────────────────────────────────────

const S3 = getGroup('S3');
const s3 = elementDisplay('S3');
const el = (name: string): number => s3.names.indexOf(name);
const tok = (name: string): number => NUM_SPECIAL + el(name);

function groupmulInstance(p: Partial<GroupMulParams>, chain: number[]): GroupMulInstance {
  const params = { group: 'S3', scratch: 0, layout: 'interleaved', reward: 'last', length: chain.length, ...p };
  return groupmulTask.fromJSON({ task: 'groupmul', params, chain });
}

describe('groupData: groupmul', () => {
  const chain = [el('r'), el('s'), el('r')];
  const inst = groupmulInstance({}, chain);
  const prefix = prefixProducts(S3.table, chain);
  const wrong = (e: number): number => NUM_SPECIAL + ((e + 1) % 6);
  // Interleaved region: y1 x2 y2 x3 y3 <eos>.
  const completions = [
    inst.answerTokens,
    [wrong(prefix[0]), 0, wrong(prefix[1]), 0, wrong(prefix[2]), EOS],
    [NUM_SPECIAL + prefix[0], 0, EOS, 0, NUM_SPECIAL + prefix[2], EOS],
  ];
  const d = groupData(testRollout([inst], { completions: [completions] }), 0);
  if (d.kind !== 'chain') throw new Error('expected chain data');
  const gm = d.chain;

  it('the prompt is the chain in display names, the answer its product', () => {
    expect(d.prompt).toBe('r · s · r');
    expect(d.answer).toBe(s3.names[inst.answer]);
    expect(gm.chain.map((c) => c.name)).toEqual(['r', 's', 'r']);
    expect(gm.chain.map((c) => c.label)).toEqual(['x₁', 'x₂', 'x₃']);
    expect(gm.chain[0].describe).toBe('0→1, 1→2, 2→0 (one-line 120)');
    expect(gm.product.name).toBe(s3.names[S3.table[S3.table[el('r')][el('s')]][el('r')]]);
  });

  it('the target row holds the running products, one per column (interleaved: s = k)', () => {
    expect(gm.hasScratchpad).toBe(true);
    expect(gm.chain.map((c) => c.target?.name)).toEqual(prefix.map((e) => s3.names[e]));
    expect(gm.chain.map((c) => c.target?.label)).toEqual(['y₁', 'y₂', 'y₃']);
  });

  it('marks each y against its running product, with display names', () => {
    expect(gm.rows[0].scratch.map((m) => m.mark)).toEqual(['match', 'match', 'match']);
    expect(gm.rows[0].scratch.map((m) => m.cell.text)).toEqual(prefix.map((e) => s3.names[e]));
    expect(gm.rows[1].scratch.map((m) => m.mark)).toEqual(['wrong', 'wrong', 'wrong']);
    expect(gm.rows[2].scratch.map((m) => m.mark)).toEqual(['match', 'missing', 'missing']);
    expect(gm.rows[2].scratch[1].cell.text).toBe('<eos>');
    expect(gm.rows[2].scratch[2].cell.kind).toBe('untrained');
    expect(gm.rows[0].scratch.map((m) => m.column)).toEqual([0, 1, 2]);
    expect(gm.rows[1].scratch[0].title).toContain(`should be ${s3.names[prefix[0]]} = x₁: ✗ not the running product`);
    expect(gm.rows[0].scratch[2].title).toContain('= x₁⋯x₃: ✓');
  });

  it('CoT alignment per answer', () => {
    expect(gm.rows.map((r) => r.alignment?.text)).toEqual(['CoT 3/3', 'CoT 0/3', 'CoT 1/3']);
    expect(gm.rows[2].alignment?.title).toBe('CoT alignment 33%: 1 of 3 scratchpad tokens equal their running product');
    expect(d.answers.map((a) => a.correct)).toEqual([true, false, false]);
  });

  it('x tokens the environment wrote are fixed, and read as display names', () => {
    const x2 = d.answers[0].cells[1];
    expect(x2.kind).toBe('fixed');
    expect(x2.text).toBe('s');
    expect(x2.raw).toBe(S3.elementNames[el('s')]);
    expect(x2.title).toBe(`s (token ${S3.elementNames[el('s')]}): written by the environment, not trained`);
  });

  it('no CoT alignment without a scratchpad (block layout, scratch = 1)', () => {
    const one = groupmulInstance({ layout: 'block', scratch: 1, length: 4 }, [1, 2, 3, 4]);
    const dd = groupData(testRollout([one], { completions: [[one.answerTokens, [tok('e'), EOS]]] }), 0);
    if (dd.kind !== 'chain') throw new Error('expected chain data');
    expect(dd.chain.hasScratchpad).toBe(false);
    expect(dd.chain.rows.map((r) => r.alignment)).toEqual([null, null]);
    expect(dd.chain.chain.map((c) => c.target !== null)).toEqual([false, false, false, true]);
    expect(dd.question).toBe('Multiply left to right; answer at once.');
  });

  it("block layout with s < k: the y's sit under x_{L_j}", () => {
    const block = groupmulInstance({ layout: 'block', scratch: 3, length: 6 }, [1, 2, 3, 4, 5, 0]);
    const dd = groupData(testRollout([block], { completions: [[block.answerTokens]] }), 0);
    if (dd.kind !== 'chain') throw new Error('expected chain data');
    expect(dd.chain.hasScratchpad).toBe(true);
    expect(dd.chain.rows[0].scratch.map((m) => m.column)).toEqual([1, 3, 5]);
    expect(dd.chain.chain.map((c) => c.target?.label ?? '')).toEqual(['', 'y₁', '', 'y₂', '', 'y₃']);
    expect(dd.chain.rows[0].alignment?.text).toBe('CoT 3/3');
  });

  it("agrees with the task's marking on random completions, every group", () => {
    const rng = makeRng(11, 1);
    for (const group of ['S3', 'D4', 'Z5', 'A4', 'Q8', 'quasi4']) {
      const p: GroupMulParams = {
        group,
        length: 5,
        scratch: 0,
        layout: group.length % 2 ? 'interleaved' : 'block',
        reward: 'dense',
      };
      const inst = groupmulTask.sample(rng, p);
      const V = groupmulTask.vocab(p).length;
      const comps = Array.from({ length: 4 }, () => inst.answerTokens.map((t) => (rng.next() < 0.5 ? t : rng.int(V))));
      const dd = groupData(testRollout([inst], { completions: [comps] }), 0);
      if (dd.kind !== 'chain') throw new Error('expected chain data');
      dd.chain.rows.forEach((row, g) => {
        const v = groupmulTask.verify(
          inst,
          comps[g].map((t, c) => inst.fixed[c] ?? t),
        );
        expect(row.alignment?.matched).toBe(v.details.prefixMatches);
        expect(row.scratch[row.scratch.length - 1].mark === 'match').toBe(v.correct);
      });
    }
  });
});

// ── subsetsum ───────────────────────────────────────────────────────────────────────────────

describe('groupData: subsetsum', () => {
  const params = { count: 4, maxValue: 20 };
  const inst = subsetsumTask.fromJSON({ task: 'subsetsum', params, numbers: [3, 17, 8, 12], target: 25 });
  const vocab = subsetsumTask.vocab(params);
  const I = (...xs: number[]): number[] => xs.map((x) => vocab.indexOf(`i${x}`));
  const d = groupData(
    testRollout([inst], { completions: [[[...I(1, 2), EOS], [...I(0, 1), EOS], [...I(1, 1), EOS], [EOS]]] }),
    0,
  );

  it('numbers in the prompt, index tokens read as the numbers they pick, the sum as a note', () => {
    expect(d.prompt).toBe('3, 17, 8, 12');
    expect(d.question).toBe('Pick numbers that add up to 25.');
    expect(d.answer).toBe('17 + 8');
    expect(texts(d, 0)).toEqual(['17', '8']);
    expect(d.answers[0].cells[0].title.startsWith('17 (token i1): written by the model')).toBe(true);
    expect(d.answers.map((a) => a.note)).toEqual(['sum 25', 'sum 20', 'used a number twice', 'picked nothing']);
    expect(d.answers.map((a) => a.correct)).toEqual([true, false, false, false]);
  });
});
