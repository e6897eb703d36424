import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { mazeTask } from '../../tasks/maze';
import { sortTask } from '../../tasks/sort';
import { EOS, NUM_SPECIAL, PAD } from '../../tasks/types';
import { answerOrNoise, fixtureRollout } from '../views/fixtures';
import { GroupView, type GroupViewProps } from './GroupView';
import { ElementKey } from './ElementKey';
import { elementDisplay, type GroupMulParams } from '../../tasks/groupmul';
import { testRollout } from './testRollout';
import { testMazeParams } from '../../tasks/maze/testParams';

const count = (html: string, needle: string): number => html.split(needle).length - 1;
const render = (props: GroupViewProps): string => renderToString(createElement(GroupView, props));
/** The text a reader sees: tags (and their attributes, tooltips included) removed. */
const visibleText = (html: string): string => html.replace(/<[^>]*>/g, ' ');

describe('GroupView: groupmul', () => {
  /** B groups of G answers to S3 chains: right for even g, noise (of the 10 tokens) for odd g. */
  const chains = (params: Omit<GroupMulParams, 'group' | 'reward'>, B: number, G: number) =>
    fixtureRollout({
      task: 'groupmul',
      params: { group: 'S3', reward: 'last', ...params },
      B,
      G,
      completion: answerOrNoise(10),
    });
  const interleaved = chains({ length: 5, scratch: 0, layout: 'interleaved' }, 2, 4);

  it('one grid: a y box per scratchpad position, each marked, in display names', () => {
    const html = render({ rollout: interleaved, b: 1 });
    expect(count(html, 'data-testid="group-view"')).toBe(1);
    expect(html).toContain('data-b="1"');
    expect(html).toContain('data-task="groupmul"');
    expect(count(html, 'data-testid="completion"')).toBe(4);
    expect(count(html, 'data-testid="scratch-token"')).toBe(4 * 5);
    expect(count(html, 'data-testid="token"')).toBe(4 * 5); // the x's are the chain row, not repeated
    expect(count(html, 'data-mark="match"')).toBeGreaterThanOrEqual(2 * 5); // the answer rows
    expect(count(html, 'data-testid="element-key"')).toBe(1);
    expect(visibleText(html)).not.toMatch(/p[0-2]{3}/); // no p012-style token names on screen
    expect(html).toContain('CoT ');
    expect(html).not.toContain('CoT alignment prefix');
    expect(html).toMatch(/A = [+-]?\d\.\d\d/);
    expect(count(html, 'data-correct="true"')).toBe(interleaved.correct.slice(4, 8).reduce((a, b) => a + b, 0));
  });

  it("before the verify phase the y's carry no ✓/✗ yet (data-mark stays)", () => {
    const html = render({ rollout: { ...interleaved, phase: 'sample' }, b: 0 });
    expect(count(html, 'data-testid="scratch-token"')).toBe(4 * 5);
    expect(count(html, 'aria-label="match"')).toBe(0);
    expect(count(html, 'data-correct="pending"')).toBe(4);
  });

  it('no CoT alignment without a scratchpad', () => {
    const r = chains({ length: 4, scratch: 1, layout: 'block' }, 1, 3);
    const html = render({ rollout: r, b: 0 });
    expect(count(html, 'data-testid="scratch-token"')).toBe(3);
    expect(html).not.toContain('CoT');
  });

  it('honours fontSize and compact', () => {
    expect(render({ rollout: interleaved, b: 0 })).toContain('font-size:15px');
    const big = render({ rollout: interleaved, b: 0, fontSize: 22, compact: true });
    expect(big).toContain('font-size:22px');
    expect(big).not.toContain('colour: advantage'); // the legend line is left out when compact
  });

  it('ElementKey lists every element with its permutation on hover', () => {
    const html = renderToString(createElement(ElementKey, { group: 'S3', display: elementDisplay('S3') }));
    expect(html).toContain('title="0→1, 1→2, 2→0 (one-line 120)"');
    expect(html).toContain('>sr²<');
    expect(html.indexOf('>r<')).toBeLessThan(html.indexOf('>s<')); // reading order: e r r² s sr sr²
    expect(html).toContain('s = reflection swapping 1 and 2');
    expect(
      renderToString(createElement(ElementKey, { group: 'S3', display: elementDisplay('S3'), compact: true })),
    ).toContain('title="e = identity');
  });

  it('the compact key of a large group lists a few names and the count, the full key all of them', () => {
    const compact = visibleText(
      renderToString(createElement(ElementKey, { group: 'A5', display: elementDisplay('A5'), compact: true })),
    );
    expect(compact).toContain('60 in all');
    expect(compact.split('title').length).toBeLessThan(15);
    const full = renderToString(createElement(ElementKey, { group: 'A5', display: elementDisplay('A5') }));
    expect(count(full, 'cursor:help')).toBe(60);
    expect(visibleText(full)).not.toContain('in all');
    expect(
      visibleText(
        renderToString(createElement(ElementKey, { group: 'S3', display: elementDisplay('S3'), compact: true })),
      ),
    ).not.toContain('in all');
  });
});

describe('GroupView: sort (generic rows)', () => {
  const inst = sortTask.fromJSON({
    task: 'sort',
    params: { length: 3, alphabet: 5, reward: 'exact' },
    input: [2, 0, 1],
  });
  const a = (s: string): number[] => [...s].map((ch) => NUM_SPECIAL + ch.charCodeAt(0) - 97);
  const r = testRollout([inst], {
    completions: [
      [
        [...a('abc'), EOS],
        [...a('a'), EOS, PAD, PAD],
        [...a('abc'), EOS],
      ],
    ],
  });

  it('header, verdicts, tokens coloured by advantage; special tokens hidden', () => {
    const html = render({ rollout: r, b: 0 });
    expect(html).toContain('data-task="sort"');
    expect(visibleText(html)).toMatch(/Prompt:\s+c a b/);
    expect(visibleText(html)).toContain('2 of 3 right');
    expect(count(html, 'data-testid="completion"')).toBe(3);
    expect(count(html, 'data-testid="token"')).toBe(3 + 1 + 3);
    expect(count(html, 'data-kind="sampled"')).toBe(7);
    expect(html).not.toContain('&lt;eos&gt;');
    expect(html).not.toContain('&lt;pad&gt;');
    expect(html).not.toContain('data-colour="none"');
    expect(visibleText(html)).toContain('A = +0.33');
    expect(visibleText(html)).toContain('A = -0.67');
  });

  it('a group index outside the rollout renders a note, not an error', () => {
    const html = render({ rollout: r, b: 5 });
    expect(html).toContain('data-testid="group-view"');
    expect(html).toContain('No group 6 in this step.');
  });

  it('shows special tokens when asked', () => {
    const html = render({ rollout: r, b: 0, showSpecial: true });
    expect(count(html, 'data-testid="token"')).toBe(3 * 4);
    expect(html).toContain('&lt;eos&gt;');
    expect(count(html, 'data-kind="untrained" data-colour="none"')).toBe(2);
  });

  it('before the verify phase: pending rows, nothing counted', () => {
    const html = render({ rollout: { ...r, phase: 'sample', advantages: undefined, seqAdvantages: undefined }, b: 0 });
    expect(count(html, 'data-correct="pending"')).toBe(3);
    expect(visibleText(html)).toContain('not checked yet');
    expect(visibleText(html)).toContain('A = …');
  });

  it('a group with no spread keeps A = 0.00 visible and says why', () => {
    const same = testRollout([inst], {
      completions: [
        [
          [...a('abc'), EOS],
          [...a('abc'), EOS],
        ],
      ],
    });
    const html = render({ rollout: same, b: 0 });
    expect(count(html, 'A = 0.00')).toBe(2);
    expect(html).toContain('data-testid="group-no-spread"');
    expect(visibleText(html)).toContain('every A = 0');
    // Beside the loop (compact), a word on the screen and the sentence on hover.
    const side = render({ rollout: same, b: 0, compact: true });
    expect(visibleText(side)).toContain('all equal');
    expect(visibleText(side)).not.toContain('every A = 0');
    expect(side).toMatch(/data-testid="group-no-spread"[^>]*title="Every answer got the same reward, so every A = 0/);
  });
});

describe('GroupView: maze', () => {
  const vocab = mazeTask.vocab(testMazeParams());
  const M = (s: string): number[] => [...s].map((ch) => vocab.indexOf(ch));
  const inst = mazeTask.fromJSON({ task: 'maze', params: testMazeParams(), grid: ['S.#', '#..', '#.G'] });
  const walks = [
    [...M('RDRD'), EOS],
    [...M('RR'), EOS],
    [...M('RRD'), EOS],
    [...M('U'), EOS],
  ];

  it('the board: one path per walk, failures at the failure point with a count, moves as arrows', () => {
    const html = render({ rollout: testRollout([inst], { completions: [walks] }), b: 0 });
    expect(html).toContain('data-task="maze"');
    expect(count(html, 'data-testid="maze-path"')).toBe(4);
    expect(count(html, 'data-testid="maze-path" data-correct="true"')).toBe(1);
    expect(count(html, 'data-testid="maze-failure"')).toBe(2);
    expect(html).toMatch(/data-testid="maze-failure" data-count="2" data-kind="wall"/);
    expect(html).toMatch(/data-testid="maze-goal" data-count="1"/);
    expect(html).toContain('×2');
    expect(count(html, 'data-testid="completion"')).toBe(4);
    expect(html).toContain('>→<');
    expect(html).toContain('>↓<');
    expect(html).not.toContain('>R<');
    expect(visibleText(html)).toContain('walked into the wall at row 1, column 3');
  });

  it('compact (the side panel): each row keeps its reward, its failure note moves to the hover', () => {
    const html = render({ rollout: testRollout([inst], { completions: [walks] }), b: 0, compact: true });
    expect(count(html, 'data-testid="completion"')).toBe(4);
    const rows = html.slice(html.indexOf('<table')); // the board (an svg with its own titles) comes first
    expect(visibleText(rows)).not.toContain('walked into the wall');
    expect(rows).toContain('title="walked into the wall at row 1, column 3"');
  });

  it('an aside sits beside the maze, before the answer rows (the lesson\'s "ways to G" button)', () => {
    const html = render({
      rollout: testRollout([inst], { completions: [walks] }),
      b: 0,
      compact: true,
      aside: createElement('button', { 'data-testid': 'aside' }, 'ways to G'),
    });
    expect(count(html, 'data-testid="aside"')).toBe(1);
    expect(html.indexOf('data-testid="maze-board"')).toBeLessThan(html.indexOf('data-testid="aside"'));
    expect(html.indexOf('data-testid="aside"')).toBeLessThan(html.indexOf('<table'));
  });

  it('before the verify phase: paths but no marks', () => {
    const html = render({
      rollout: testRollout([inst], { completions: [walks], advantages: false, phase: 'sample' }),
      b: 0,
    });
    expect(count(html, 'data-testid="maze-path" data-correct="pending"')).toBe(4);
    expect(html).not.toContain('maze-failure');
    expect(html).not.toContain('maze-goal');
  });

  it('renders a sampled rollout of every task', () => {
    for (const [task, params, V] of [
      ['maze', testMazeParams({ size: 4, braid: 1, reward: 'progress' }), 13],
      ['subsetsum', { count: 4, maxValue: 9 }, 20],
      ['groupmul', { group: 'quasi5', length: 4, scratch: 2, layout: 'block', reward: 'dense' }, 9],
    ] as const) {
      const r = fixtureRollout({ task, params: { ...params }, B: 2, G: 3, completion: answerOrNoise(V) });
      const html = render({ rollout: r, b: 1, colourBy: 'entropy' });
      expect(count(html, 'data-testid="completion"')).toBe(3);
      expect(html).toContain(`data-task="${task}"`);
    }
  });
});
