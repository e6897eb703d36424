// Colour scales for the views: pure functions from numbers to CSS colours.
//
// diverging: symmetric around 0, red (−bound) → white (0) → blue (+bound); advantages and
//            log importance ratios.
// sequential: white (0) → purple (max); entropies.
// categorical: one light hue per element (Cayley tables), faded toward white by a probability.

export type Rgb = readonly [number, number, number];

export const WHITE: Rgb = [255, 255, 255];
export const NEGATIVE: Rgb = [178, 24, 43]; // red
export const POSITIVE: Rgb = [33, 102, 172]; // blue
export const SEQUENTIAL_END: Rgb = [84, 39, 143]; // purple

export function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}

/** Linear interpolation from a (t = 0) to b (t = 1), t clamped to [0, 1], channels rounded. */
export function mix(a: Rgb, b: Rgb, t: number): Rgb {
  const u = clamp01(t);
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * u)) as unknown as Rgb;
}

export function css(c: Rgb): string {
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** value/bound in [−1, 1]: −1 red, 0 white, +1 blue. A bound ≤ 0 or a non-finite value gives white. */
export function divergingRgb(value: number, bound: number): Rgb {
  if (!(bound > 0) || !Number.isFinite(value)) return WHITE;
  const t = value / bound;
  return t >= 0 ? mix(WHITE, POSITIVE, t) : mix(WHITE, NEGATIVE, -t);
}

/** value/max in [0, 1]: 0 white, 1 purple. */
export function sequentialRgb(value: number, max: number): Rgb {
  if (!(max > 0)) return WHITE;
  return mix(WHITE, SEQUENTIAL_END, value / max);
}

/** A light, distinct hue for element i of n (HSL hue i/n, saturation 65%, lightness 72%). */
export function categoricalRgb(i: number, n: number): Rgb {
  return hslToRgb((360 * i) / Math.max(1, n), 0.65, 0.72);
}

/** h in degrees, s and l in [0, 1]. */
export function hslToRgb(h: number, s: number, l: number): Rgb {
  const k = (m: number): number => (m + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (m: number): number => l - a * Math.max(-1, Math.min(k(m) - 3, 9 - k(m), 1));
  return [Math.round(255 * f(0)), Math.round(255 * f(8)), Math.round(255 * f(4))];
}

/** Relative luminance (sRGB, WCAG). */
export function luminance(c: Rgb): number {
  const lin = (v: number): number => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
}

/** Black or white text, whichever contrasts more with the background (the WCAG crossover, L ≈ 0.179). */
export function textOn(c: Rgb): string {
  return luminance(c) > 0.179 ? '#111' : '#fff';
}

/** Largest |v| over the entries where keep[i] ≠ 0 (all entries without keep); 0 when none. */
export function symmetricBound(values: ArrayLike<number>, keep?: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    if (keep && !keep[i]) continue;
    const a = Math.abs(values[i]);
    if (Number.isFinite(a) && a > m) m = a;
  }
  return m;
}
