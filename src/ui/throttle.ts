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
 * How long a view waits to show news: the rest of its interval since it last rendered, then its
 * slot's offset. A view that shows nothing yet (`showsNothing`: a chart before its first point)
 * waits for its slot only: "no data yet" must not stay up for a second after the first step.
 */
export function refreshDelay(sinceLastMs: number, intervalMs: number, slot: number, showsNothing: boolean): number {
  const rest = showsNothing ? 0 : Math.max(0, intervalMs - sinceLastMs);
  return rest + slot * CHART_SLOT_MS;
}

/**
 * The selected value, refreshed at most every `intervalMs`, `slot · CHART_SLOT_MS` after a
 * change is seen (the first value is immediate; see refreshDelay for `showsNothing`).
 */
export function useThrottledSelector<T>(
  selector: (s: AppState) => T,
  slot: number,
  intervalMs = CHART_REFRESH_MS,
  showsNothing: (shown: T) => boolean = () => false,
): T {
  const [value, setValue] = useState(() => selector(appStore.getState()));
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  const showsNothingRef = useRef(showsNothing);
  showsNothingRef.current = showsNothing;
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
      timer = setTimeout(
        apply,
        refreshDelay(performance.now() - last, intervalMs, slot, showsNothingRef.current(shown)),
      );
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
