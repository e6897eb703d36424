import { describe, expect, it } from 'vitest';
import { findKnob, knobsFor } from '../config';
import { TASK_NAMES } from '../tasks/registry';
import { hasSlider, knobTitle, knobTooltip, sliderToValue, valueToSlider, SLIDER_STEPS } from './knobText';

describe('knob tooltips and sliders', () => {
  it('every knob of every task has a tooltip with its doc and allowed values', () => {
    for (const task of TASK_NAMES) {
      for (const k of knobsFor(task)) {
        const t = knobTooltip(k);
        expect(t.doc.length).toBeGreaterThan(10);
        expect(t.range).toMatch(/range|values|on or off/);
      }
    }
    const epsHigh = knobTooltip(findKnob('epsHigh')!);
    expect(epsHigh.range).toBe('range: [0, 10]; default 0.2');
    expect(epsHigh.source).toContain('DAPO');
    expect(knobTooltip(findKnob('klKind')!).when).toBe('only has an effect when klBeta ≠ 0');
    expect(knobTitle(findKnob('lr')!)).toContain('(log scale)');
  });

  it('log sliders map positions to values across the range and back', () => {
    const lr = findKnob('lr')!;
    expect(hasSlider(lr)).toBe(true);
    expect(sliderToValue(lr, 0)).toBe(1e-6);
    expect(sliderToValue(lr, SLIDER_STEPS)).toBe(1);
    expect(sliderToValue(lr, SLIDER_STEPS / 2)).toBeCloseTo(1e-3, 6);
    for (const v of [1e-5, 3e-3, 0.1]) expect(sliderToValue(lr, valueToSlider(lr, v)) / v).toBeCloseTo(1, 1);
    const groupSize = findKnob('groupSize')!;
    expect(hasSlider(groupSize)).toBe(true);
    expect(sliderToValue(groupSize, valueToSlider(groupSize, 8))).toBe(8);
    expect(hasSlider(findKnob('seed')!)).toBe(false);
    expect(hasSlider(findKnob('estimator')!)).toBe(false);
  });
});
