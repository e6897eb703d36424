import { describe, expect, it } from 'vitest';
import { CHART_REFRESH_MS, CHART_SLOT_MS, refreshDelay } from './throttle';

describe('refreshDelay: when a chart shows news', () => {
  it('waits out the rest of its interval, then its slot', () => {
    expect(refreshDelay(300, CHART_REFRESH_MS, 2, false)).toBe(CHART_REFRESH_MS - 300 + 2 * CHART_SLOT_MS);
    expect(refreshDelay(5000, CHART_REFRESH_MS, 3, false)).toBe(3 * CHART_SLOT_MS);
  });

  it('a chart that shows nothing yet waits for its slot only, however recently it rendered', () => {
    expect(refreshDelay(10, CHART_REFRESH_MS, 4, true)).toBe(4 * CHART_SLOT_MS);
  });
});
