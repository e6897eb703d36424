import { describe, expect, it } from 'vitest';
import { groupmulTask, type GroupMulInstance, type GroupMulParams } from '../../tasks/groupmul';
import { mazeTask, type MazeInstance } from '../../tasks/maze';
import { sortTask } from '../../tasks/sort';
import { subsetsumTask } from '../../tasks/subsetsum';
import { getGroup, prefixProducts } from '../../tasks/groupmul';
import { EOS, NUM_SPECIAL, PAD } from '../../tasks/types';
import { makeRng } from '../../core/random';
import { css, divergingRgb, mix, NEGATIVE, POSITIVE, sequentialRgb, WHITE } from '../views/colour';
import {
  cappedCells,
  COMPACT_ROW_TOKENS,
  correctAttr,
  groupData,
  verdictGlyph,
  visibleCells,
  type GroupViewData,
} from './groupData';
import { elementDisplay } from '../../tasks/groupmul';
import { walkColour, ZERO_ADVANTAGE_STROKE } from './mazeData';
import { signed } from './tokenCells';
import { TEST_ENTROPY, testRollout } from './testRollout';
import { testMazeParams } from '../../tasks/maze/testParams';

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

// ── maze ────────────────────────────────────────────────────────────────────────────────────

const mazeVocab = mazeTask.vocab(testMazeParams());
const M = (s: string): number[] => [...s].map((ch) => mazeVocab.indexOf(ch));
// S.#
// #..
// #.G
const mazeInst = mazeTask.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['S.#', '#..', '#.G'] });
const walks = [
  [...M('RDRD'), EOS], // 0 goal
  [...M('RR'), EOS], // 1 into the wall at (0,2)
  [...M('U'), EOS], // 2 off the grid from (0,0)
  [...M('R#D'), EOS], // 3 a cell token where a move belongs
  [EOS], // 4 stops at the start
  [...M('RRD'), EOS], // 5 the same wall as 1
  [...M('RDDR'), EOS], // 6 goal, the other shortest path
  M('RLRLRLRLRL'), // 7 no end token: move 10 fills the last slot, past the 9-move budget
];

describe('groupData: maze', () => {
  const r = testRollout([mazeInst], { completions: [walks] });
  const d = groupData(r, 0);
  if (d.kind !== 'board') throw new Error('expected board data');
  const mz = d.board;

  it('the prompt names the maze, the answer the shortest path', () => {
    expect(d.prompt).toBe('a 3×3 maze');
    expect(d.question).toBe('Walk from S to G.');
    expect(d.answer).toBe('shortest path 4 moves, 2 of them');
    expect(d.rightText).toBe('2 of 8 right');
  });

  it('moves read as arrows; specials and what follows the end are hidden, except a lone end token', () => {
    expect(texts(d, 0)).toEqual(['→', '↓', '→', '↓']);
    expect(texts(d, 3)).toEqual(['→', '#', '↓']);
    // A walk that stops at the start keeps its end token (drawn ∅), not an empty row.
    expect(texts(d, 4)).toEqual(['<eos>']);
    expect(visibleCells(d.answers[4].cells, false).map((c) => c.special)).toEqual([true]);
  });

  it('a side panel cuts a long walk to its first tokens and counts the rest', () => {
    const cells = visibleCells(d.answers[7].cells, false);
    expect(cells).toHaveLength(10);
    const { shown, more } = cappedCells(cells, COMPACT_ROW_TOKENS);
    expect(shown.map((c) => c.text)).toEqual(['→', '←', '→', '←']);
    expect(more).toBe(6);
    expect(cappedCells(visibleCells(d.answers[0].cells, false), COMPACT_ROW_TOKENS)).toMatchObject({ more: 0 });
  });

  it('each walk: how it ended, where, and which token failed', () => {
    expect(mz.walks.map((w) => w.outcome)).toEqual([
      'goal',
      'wall',
      'offgrid',
      'badtoken',
      'stopped',
      'wall',
      'goal',
      'overbudget',
    ]);
    expect(mz.walks[1].failure).toEqual({
      kind: 'wall',
      at: [0, 1],
      into: [0, 2],
      c: 1,
      why: 'walked into the wall at row 1, column 3',
    });
    expect(mz.walks[2].failure).toMatchObject({ kind: 'offgrid', at: [0, 0], into: [-1, 0], c: 0 });
    expect(mz.walks[2].failure?.why).toBe('walked off the grid from row 1, column 1 (move ↑)');
    expect(mz.walks[3].failure).toMatchObject({
      kind: 'badtoken',
      at: [0, 1],
      c: 1,
      why: 'wrote "#" where a move belongs, at row 1, column 2',
    });
    expect(mz.walks[4].failure).toMatchObject({
      kind: 'stopped',
      at: [0, 0],
      c: 0,
      why: 'stopped at row 1, column 1, 4 moves from the goal',
    });
    expect(mz.walks[7].failure).toMatchObject({
      kind: 'overbudget',
      at: [0, 1],
      c: 9,
      why: 'made move 10, past the 9-move budget, at row 1, column 2',
    });
    expect(mz.walks[0].summary).toBe('reached the goal in 4 moves (shortest 4)');
    expect(d.answers.map((a) => a.failureAt)).toEqual([null, 1, 0, 1, 0, 1, null, 9]);
    expect(d.answers[1].note).toBe('walked into the wall at row 1, column 3');
  });

  it('markers: a ✓ at the goal, each failure where it happened, repeats counted once', () => {
    const byKind = Object.fromEntries(mz.markers.map((m) => [m.kinds.join(' '), m]));
    expect(mz.markers).toHaveLength(5);
    expect(byKind.goal).toMatchObject({ kind: 'goal', count: 2, gs: [0, 6] });
    // On the edge between (0,1) and the wall at (0,2), with a stub from the cell's centre.
    expect(byKind.wall).toMatchObject({
      kind: 'failure',
      x: 2,
      y: 0.5,
      count: 2,
      gs: [1, 5],
      stub: { x1: 1.5, y1: 0.5, x2: 2, y2: 0.5 },
    });
    expect(byKind.offgrid).toMatchObject({ x: 0.5, y: 0, count: 1 });
    // No wall to point at: a corner of its cell, the one farthest from the other marks.
    // The bad token and the move past the budget both failed on (0,1): one mark, two kinds.
    const badtoken = byKind['badtoken overbudget'];
    expect(badtoken).toMatchObject({ stub: null, count: 2, gs: [3, 7] });
    expect([Math.abs(badtoken.x - 1.5), Math.abs(badtoken.y - 0.5)].map((v) => v.toFixed(2))).toEqual(['0.27', '0.27']);
    expect(byKind.stopped).toMatchObject({ count: 1, gs: [4] });
    expect([Math.abs(byKind.stopped.x - 0.5), Math.abs(byKind.stopped.y - 0.5)].map((v) => v.toFixed(2))).toEqual([
      '0.27',
      '0.27',
    ]);
    expect(byKind.wall.title).toBe('2 failed here (answers 2, 6):\nwalked into the wall at row 1, column 3');
  });

  it('walk colours follow the sequence advantage', () => {
    // Rewards 2 of 8: A = +0.75 for the right walks, −0.25 for the others; bound 0.75.
    expect(mz.walks[0].colour).toBe(css(POSITIVE));
    expect(mz.walks[1].colour).toBe(css(mix(WHITE, NEGATIVE, 0.4 + 0.6 / 3)));
    expect(walkColour(0, 1)).toBe(ZERO_ADVANTAGE_STROKE);
    expect(walkColour(undefined, 1)).toBe(ZERO_ADVANTAGE_STROKE);
    expect(walkColour(0.1, 0)).toBe(ZERO_ADVANTAGE_STROKE);
    expect(mz.walks.map((w) => w.offset)).toEqual(mz.walks.map((_, g) => (g / 7 - 0.5) * 0.5));
  });

  it('before the verify phase: walks drawn, nothing judged', () => {
    const p = groupData(testRollout([mazeInst], { completions: [walks], advantages: false, phase: 'sample' }), 0);
    if (p.kind !== 'board') throw new Error('expected board data');
    expect(p.board.markers).toEqual([]);
    expect(p.answers.every((a) => a.note === null && a.failureAt === null)).toBe(true);
    expect(p.board.walks.every((w) => w.correct === null && w.colour === ZERO_ADVANTAGE_STROKE)).toBe(true);
  });

  it('agrees with the verifier on random walks', () => {
    const rng = makeRng(12, 1);
    for (let i = 0; i < 30; i++) {
      const params = testMazeParams({ size: 3 + (i % 4), braid: i % 2 });
      const inst: MazeInstance = mazeTask.sample(rng, params);
      const comps = Array.from({ length: 4 }, () =>
        Array.from({ length: inst.completionLength }, () => {
          const u = rng.next();
          return u < 0.85 ? M('UDLR')[rng.int(4)] : u < 0.95 ? EOS : rng.int(mazeVocab.length);
        }),
      );
      const dd = groupData(testRollout([inst], { completions: [comps] }), 0);
      if (dd.kind !== 'board') throw new Error('expected board data');
      dd.board.walks.forEach((w, g) => {
        const sig = mazeTask.errorSignature(inst, comps[g]);
        const expected =
          w.outcome === 'goal' ? 'correct' : w.outcome === 'stopped' ? `stopped@${w.failure!.at.join(',')}` : w.outcome;
        expect(sig).toBe(expected);
        expect(w.correct).toBe(sig === 'correct');
      });
    }
  });
});

// ── subsetsum ───────────────────────────────────────────────────────────────────────────────

describe('groupData: subsetsum', () => {
  const inst = subsetsumTask.fromJSON({
    task: 'subsetsum',
    params: { count: 4, maxValue: 20 },
    numbers: [3, 17, 8, 12],
    target: 25,
  });
  const vocab = subsetsumTask.vocab(inst.params);
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
