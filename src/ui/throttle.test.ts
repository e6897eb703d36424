// The group of answers and the advantage histogram share one clock: at each tick both take the
// store's value in the same task, so they never show different steps.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SharedClock } from './throttle';

describe('SharedClock', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a change seen by one view updates every view at the same tick, at most once per interval', () => {
    let store = { rollout: 1, histogram: 1 };
    const clock = new SharedClock(700);
    const shown = { group: store.rollout, histogram: store.histogram };
    const seen: { group: number; histogram: number }[] = [];
    clock.join({ changed: () => store.rollout !== shown.group, apply: () => { shown.group = store.rollout; } });
    clock.join({ changed: () => store.histogram !== shown.histogram, apply: () => { shown.histogram = store.histogram; seen.push({ ...shown }); } });
    // Steps stream in every 100 ms; each view would lag differently on a clock of its own.
    for (let step = 2; step <= 20; step++) {
      store = { rollout: step, histogram: step };
      clock.notify();
      vi.advanceTimersByTime(100);
    }
    vi.advanceTimersByTime(1000);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.length).toBeLessThanOrEqual(4); // 2 s of steps, a tick at most every 700 ms
    for (const s of seen) expect(s.group).toBe(s.histogram);
    expect(shown).toEqual({ group: 20, histogram: 20 });
  });

  it('nothing changed, no tick; the last view to leave cancels a pending tick', () => {
    const clock = new SharedClock(700);
    const apply = vi.fn();
    const leave = clock.join({ changed: () => false, apply });
    clock.notify();
    vi.advanceTimersByTime(2000);
    expect(apply).not.toHaveBeenCalled();
    const leave2 = clock.join({ changed: () => true, apply });
    clock.notify();
    leave();
    leave2();
    vi.advanceTimersByTime(2000);
    expect(apply).not.toHaveBeenCalled();
  });
});
