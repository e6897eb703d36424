// Tooltip text of a knob, from its one entry in the knob table (src/config/knobs.ts).

import { allowedText, whenText, type KnobSpec } from '../config';

export function knobTooltip(knob: KnobSpec): { doc: string; range: string; source?: string; when?: string } {
  const range =
    knob.kind === 'enum'
      ? `values: ${allowedText(knob)}`
      : knob.kind === 'bool'
        ? 'on or off'
        : `range: ${allowedText(knob)}${knob.log ? ' (log scale)' : ''}`;
  return {
    doc: knob.doc,
    range: `${range}; default ${knob.kind === 'code' ? 'the template' : String(knob.default)}`,
    source: knob.source,
    when: knob.when ? `only has an effect when ${whenText(knob.when)}` : undefined,
  };
}

/** The same as one line of plain text (the native title attribute). */
export function knobTitle(knob: KnobSpec): string {
  const t = knobTooltip(knob);
  return [`${knob.key}: ${t.doc}`, t.range, t.source ? `from: ${t.source}` : '', t.when ?? '']
    .filter(Boolean)
    .join('\n');
}

/** Slider position ∈ [0, 1000] ↔ value, logarithmic for knobs marked `log`. */
export const SLIDER_STEPS = 1000;

export function hasSlider(knob: KnobSpec): boolean {
  if (knob.kind !== 'float' && knob.kind !== 'int') return false;
  if (knob.min === undefined || knob.max === undefined) return false;
  if (knob.kind === 'int') return knob.max - knob.min <= 64;
  return knob.log ? knob.min > 0 : knob.max - knob.min <= 100;
}

export function sliderToValue(knob: KnobSpec, pos: number): number {
  const lo = knob.min!;
  const hi = knob.max!;
  const t = Math.min(1, Math.max(0, pos / SLIDER_STEPS));
  if (knob.kind === 'int') return Math.round(lo + t * (hi - lo));
  const v = knob.log ? Math.exp(Math.log(lo) + t * (Math.log(hi) - Math.log(lo))) : lo + t * (hi - lo);
  return Math.min(hi, Math.max(lo, Number(v.toPrecision(2))));
}

export function valueToSlider(knob: KnobSpec, value: number): number {
  const lo = knob.min!;
  const hi = knob.max!;
  if (hi === lo) return 0;
  const t = knob.log ? (Math.log(value) - Math.log(lo)) / (Math.log(hi) - Math.log(lo)) : (value - lo) / (hi - lo);
  return Math.round(Math.min(1, Math.max(0, t)) * SLIDER_STEPS);
}
