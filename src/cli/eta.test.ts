import { describe, expect, it } from 'vitest';
import { etaText, formatDuration } from './eta';

describe('the time left of a long command', () => {
  it('formats seconds, minutes and hours', () => {
    expect(formatDuration(45.4)).toBe('45s');
    expect(formatDuration(200)).toBe('3m 20s');
    expect(formatDuration(3720)).toBe('1h 02m');
  });
  it('extrapolates the pace so far, and says nothing before the first step or after the last', () => {
    expect(etaText(60, 100, 400)).toBe('ETA 3m 00s');
    expect(etaText(10, 0, 400)).toBe('');
    expect(etaText(60, 400, 400)).toBe('');
  });
});
