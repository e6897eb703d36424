// Guides a lecturer can read aloud: every lesson's steps are possible when shown, point at things
// that are on its screen, and use the metrics' display names.

import { describe, expect, it } from 'vitest';
import { METRICS } from '../../config';
import { PRESETS } from '../../lessons';
import { guideStepReady } from './guide';
import { shortcutFor } from './shortcuts';

describe('lesson guides', () => {
  it.each(PRESETS.map((p) => [p.name, p] as const))(
    '%s: a summary sentence, 2–6 steps, 3–4 charts, its "show me" targets on screen',
    (_, p) => {
      expect(p.summary.length).toBeGreaterThan(40);
      expect(p.summary.length).toBeLessThan(260);
      expect(p.guide.length).toBeGreaterThanOrEqual(2);
      expect(p.guide.length).toBeLessThanOrEqual(6);
      expect(p.charts.length).toBeGreaterThanOrEqual(3);
      expect(p.charts.length).toBeLessThanOrEqual(4);
      expect(p.charts[0]).toBe('reward');
      for (const step of p.guide) {
        if (step.show?.startsWith('chart-')) expect(p.charts, step.text).toContain(step.show.slice(6));
        if (step.show === 'variants') expect(p.variants?.length, step.text).toBeGreaterThan(0);
        if (step.show === 'jump') expect(p.checkpoints?.length, step.text).toBeGreaterThan(0);
      }
      expect(p.expect).not.toMatch(/EXPECT_/);
    },
  );

  it('guides say metrics by their display names, never by their CSV keys', () => {
    const keys = Object.keys(METRICS).filter((k) => METRICS[k].name !== k && /[_/]/.test(k));
    for (const p of PRESETS) {
      for (const text of [p.summary, ...p.guide.map((g) => g.text)]) {
        for (const k of keys) expect(text, `${p.name}: "${k}"`).not.toContain(k);
      }
    }
  });

  it('no step is offered before it can be done', () => {
    const before = { stepsDone: 0, hasAdvantages: false };
    expect(guideStepReady({ text: 'look at the loop', show: 'loop' }, before)).toBe(true);
    expect(guideStepReady({ text: 'open a group', show: 'group', needs: 'step' }, before)).toBe(false);
    expect(
      guideStepReady({ text: 'open a group', show: 'group', needs: 'step' }, { stepsDone: 1, hasAdvantages: true }),
    ).toBe(true);
    expect(guideStepReady({ text: 'advantages', needs: 'advantages' }, { stepsDone: 0, hasAdvantages: true })).toBe(
      true,
    );
  });
});

describe('keyboard shortcuts', () => {
  const key = (
    k: string,
    mods: Partial<{ shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {},
  ) => ({
    key: k,
    shiftKey: false,
    altKey: false,
    ctrlKey: false,
    metaKey: false,
    ...mods,
  });
  it('Space plays or pauses, → steps, Shift+→ steps one phase, Alt+←/→ change the group', () => {
    expect(shortcutFor(key(' '), 'BODY')).toBe('toggle-play');
    expect(shortcutFor(key(' '), 'BUTTON')).toBe('toggle-play');
    expect(shortcutFor(key('ArrowRight'), 'BODY')).toBe('step');
    expect(shortcutFor(key('ArrowRight', { shiftKey: true }), 'BODY')).toBe('phase');
    expect(shortcutFor(key('ArrowRight', { altKey: true }), 'BODY')).toBe('next-group');
    expect(shortcutFor(key('ArrowLeft', { altKey: true }), 'BODY')).toBe('previous-group');
    expect(shortcutFor(key('Escape'), 'INPUT')).toBe('close-drawer');
  });
  it('keys typed into a form control, and browser shortcuts, are left alone', () => {
    expect(shortcutFor(key(' '), 'INPUT')).toBeNull();
    expect(shortcutFor(key('ArrowRight'), 'SELECT')).toBeNull();
    expect(shortcutFor(key('ArrowRight', { ctrlKey: true }), 'BODY')).toBeNull();
    expect(shortcutFor(key('a'), 'BODY')).toBeNull();
  });
});
