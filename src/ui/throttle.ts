// Charts re-render on their own clock, not on every store update: each chart takes the latest
// value at most once per interval, in its own timer slot, so one task renders at most one chart
// and the page never blocks for long (docs/architecture.md, "Conventions": no frame over 100 ms).

import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { AppState } from '../store/store';
import { appStore } from '../store/store';

/** How often a chart may re-render while metrics stream in. */
export const CHART_REFRESH_MS = 1000;
/** Offset between the timer slots of consecutive charts. */
export const CHART_SLOT_MS = 70;

/**
 * The selected value, refreshed at most every `intervalMs`, `slot · CHART_SLOT_MS` after a
 * change is seen (the first value is immediate). `equal` decides whether a new value is news.
 */
export function useThrottledSelector<T>(selector: (s: AppState) => T, slot: number, intervalMs = CHART_REFRESH_MS): T {
  const [value, setValue] = useState(() => selector(appStore.getState()));
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    let shown = selectorRef.current(appStore.getState());
    const apply = () => {
      timer = undefined;
      last = performance.now();
      const next = selectorRef.current(appStore.getState());
      if (!Object.is(next, shown)) {
        shown = next;
        // Render now, in this timer's task: timers that come due together must not be
        // batched into one long render.
        flushSync(() => setValue(() => next));
      }
    };
    const unsubscribe = appStore.subscribe((s) => {
      if (timer !== undefined) return;
      if (Object.is(selectorRef.current(s), shown)) return;
      const wait = Math.max(0, last + intervalMs - performance.now()) + slot * CHART_SLOT_MS;
      timer = setTimeout(apply, wait);
    });
    shown = selectorRef.current(appStore.getState());
    setValue(() => shown);
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [slot, intervalMs]);
  return value;
}
