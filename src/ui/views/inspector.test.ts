import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { colourScale, inspectorData, tokenTitle, type InspectorRollout } from './inspector-data';
import { RolloutInspector } from './RolloutInspector';
import { css, divergingRgb, NEGATIVE, POSITIVE, sequentialRgb } from './colour';
import { answerOrNoise, fixtureRollout } from './fixtures';

const groupmul = (advantages = true): InspectorRollout =>
  fixtureRollout({
    task: 'groupmul',
    params: { group: 'S3', length: 4, scratch: 0, layout: 'interleaved', reward: 'last' },
    B: 3,
    G: 4,
    completion: answerOrNoise(10),
    advantages,
  });
const maze = (): InspectorRollout =>
  fixtureRollout({
    task: 'maze',
    params: { size: 4, braid: 0, minDist: 2, maxDist: 99, nearGoals: 0, reward: 'binary', answer: 'moves' as const },
    B: 2,
    G: 4,
    completion: answerOrNoise(13),
  });

const count = (html: string, needle: string): number => html.split(needle).length - 1;

describe('inspector data', () => {
  it('groups B prompts of G completions; env-written tokens are fixed and uncoloured', () => {
    const r = groupmul();
    const d = inspectorData(r, 'advantage');
    expect(d.groups).toHaveLength(3);
    for (const [b, group] of d.groups.entries()) {
      expect(group.promptText).toBe(r.instances[b].promptText);
      expect(group.rows).toHaveLength(4);
      for (const row of group.rows) {
        const fixed = r.instances[b].fixed;
        // Policy positions are sampled, or untrained once the policy wrote an EOS (noise rows).
        expect(row.tokens.map((t) => (t.kind === 'untrained' ? 'sampled' : t.kind))).toEqual(
          fixed.map((f) => (f === null ? 'sampled' : 'fixed')),
        );
        if (row.g % 2 === 0) expect(row.tokens.every((t) => t.kind !== 'untrained')).toBe(true);
        expect(row.tokens.map((t) => t.pos)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
        for (const t of row.tokens) if (t.kind === 'fixed') expect(t.colour).toBeNull();
        expect(row.correct).toBe(r.correct[row.n] === 1);
        expect(row.seqAdvantage).toBe(r.seqAdvantages![row.n]);
      }
      // Even g wrote the answer: correct, and its text is the answer text.
      expect(group.rows[0].correct).toBe(true);
      expect(group.rows[0].tokens.map((t) => t.text).join(' ')).toBe(r.instances[b].answerText);
    }
  });

  it('advantage colours: symmetric scale bounded by the largest |A| of a trained token', () => {
    const r = groupmul();
    const d = inspectorData(r, 'advantage');
    const bound = Math.max(...Array.from(r.advantages!, Math.abs));
    expect(d.scale.bound).toBeCloseTo(bound, 6);
    const sampled = d.groups.flatMap((g) => g.rows.flatMap((row) => row.tokens.filter((t) => t.kind === 'sampled')));
    for (const t of sampled) expect(t.colour).toBe(css(divergingRgb(t.advantage!, d.scale.bound)));
    if (bound > 0) {
      const colours = new Set(
        sampled.filter((t) => Math.abs(Math.abs(t.advantage!) - bound) < 1e-9).map((t) => t.colour),
      );
      expect([...colours].every((c) => c === css(POSITIVE) || c === css(NEGATIVE))).toBe(true);
    }
  });

  it('entropy colours on an absolute 0 … ln V scale', () => {
    const r = groupmul();
    const d = inspectorData(r, 'entropy');
    expect(d.scale.bound).toBeCloseTo(Math.log(10), 9);
    const t = d.groups[1].rows[2].tokens[0];
    expect(t.kind).toBe('sampled');
    expect(t.colour).toBe(css(sequentialRgb(r.entropy[d.groups[1].rows[2].n * r.shape.Lc], Math.log(10))));
  });

  it('before the advantages phase, and without ratios, those colourings are unavailable', () => {
    const r = groupmul(false);
    const d = inspectorData(r, 'advantage');
    expect(d.available).toEqual({ advantage: false, entropy: true, ratio: false });
    expect(d.groups.every((g) => g.rows.every((row) => row.tokens.every((t) => t.colour === null)))).toBe(true);
    expect(colourScale(r, 'ratio').label).toBe('ratio: after the update');
  });

  it('colours by the log ratio when the rollout carries ratios', () => {
    const r = groupmul();
    const ratio = new Float32Array(r.mask.length).fill(1);
    ratio[0] = 1.5;
    ratio[2] = 1 / 1.5;
    const d = inspectorData({ ...r, ratio }, 'ratio');
    expect(d.available.ratio).toBe(true);
    expect(d.scale.bound).toBeCloseTo(Math.log(1.5), 6);
    const row = d.groups[0].rows[0].tokens;
    expect(row[0].colour).toBe(css(POSITIVE));
    expect(row[2].colour).toBe(css(NEGATIVE));
    expect(row[4].colour).toBe('rgb(255, 255, 255)');
  });

  it("maze: tokens after the policy's EOS are sampled but untrained", () => {
    const r = maze();
    const d = inspectorData(r, 'advantage');
    const row = d.groups[0].rows[0]; // the answer: moves, EOS, then padding
    const eos = row.tokens.findIndex((t) => t.text === '<eos>');
    expect(eos).toBeGreaterThan(0);
    expect(row.tokens.slice(0, eos + 1).every((t) => t.kind === 'sampled')).toBe(true);
    expect(
      row.tokens.slice(eos + 1).every((t) => t.kind === 'untrained' && t.colour === null && t.logp === undefined),
    ).toBe(true);
  });

  it('after the sample phase there is no verdict yet', () => {
    const r: InspectorRollout = { ...groupmul(false), phase: 'sample' };
    const rows = inspectorData(r, 'entropy').groups.flatMap((g) => g.rows);
    expect(rows.every((row) => row.correct === null && row.reward === null)).toBe(true);
    const html = renderToString(createElement(RolloutInspector, { rollout: r }));
    expect(count(html, 'data-correct="pending"')).toBe(12);
    expect(html).not.toContain('correct)');
  });

  it('hover text says what a token is', () => {
    const d = inspectorData(groupmul(), 'advantage');
    const [y1, x2] = d.groups[0].rows[1].tokens;
    expect(tokenTitle(y1)).toMatch(
      /position 2 \(completion 0\)\nsampled by the policy\nlogp -?\d\.\d{3} \(p \d\.\d{3}\)\nentropy \d\.\d{3} nats\nadvantage -?\d\.\d{3}/,
    );
    expect(tokenTitle(x2)).toMatch(/position 3 \(completion 1\)\nwritten by the environment$/);
  });
});

describe('RolloutInspector (server render)', () => {
  it('renders one group per prompt, one row per completion, one span per token', () => {
    const r = groupmul();
    const html = renderToString(createElement(RolloutInspector, { rollout: r }));
    expect(count(html, 'data-testid="inspector"')).toBe(1);
    expect(count(html, 'data-testid="group"')).toBe(3);
    expect(count(html, 'data-testid="completion"')).toBe(12);
    expect(count(html, 'data-testid="token"')).toBe(12 * r.shape.Lc);
    expect(count(html, 'data-kind="fixed" data-colour="none"')).toBe(12 * 4);
    expect(count(html, 'data-correct="true"')).toBe(r.correct.reduce((a, b) => a + b, 0));
    // The ratio switch is there but disabled, and says when it will have data.
    expect(html).toMatch(
      /<input[^>]*disabled=""[^>]*data-testid="colour-ratio"|<input[^>]*data-testid="colour-ratio"[^>]*disabled=""/,
    );
    expect(html).toContain('ratio: after the update');
  });

  it('follows a controlled colouring', () => {
    const r = groupmul();
    const html = renderToString(createElement(RolloutInspector, { rollout: r, colourBy: 'entropy' }));
    expect(html).toContain('entropy 0 … ln V');
    expect(html).toMatch(/<input[^>]*data-testid="colour-entropy"[^>]*checked=""/);
  });
});
