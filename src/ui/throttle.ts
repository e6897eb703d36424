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

interface ClockedView {
  /** Whether the store holds a value this view has not shown yet. */
  changed(): boolean;
  /** Shows the store's current value. */
  apply(): void;
}

/**
 * One clock for views that must show the same moment (the group of answers and the advantage
 * histogram): a change seen by any of them schedules one tick, at most every `intervalMs`, and
 * at that tick every view takes the store's value in the same task. Separate clocks drift apart
 * (a 700 ms clock and a 1 s one showed steps a few apart while training streamed).
 */
export class SharedClock {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last = -Infinity;
  private readonly views = new Set<ClockedView>();

  constructor(readonly intervalMs: number) {}

  /** Adds a view; the returned function removes it. */
  join(view: ClockedView): () => void {
    this.views.add(view);
    return () => {
      this.views.delete(view);
      if (this.views.size === 0 && this.timer !== undefined) {
        clearTimeout(this.timer);
        this.timer = undefined;
      }
    };
  }

  /** A store update: when a view's value changed, every view takes the store's value at the next tick. */
  notify(): void {
    if (this.timer !== undefined) return;
    if (![...this.views].some((v) => v.changed())) return;
    const wait = Math.max(0, this.last + this.intervalMs - performance.now());
    this.timer = setTimeout(() => this.tick(), wait);
  }

  private tick(): void {
    this.timer = undefined;
    this.last = performance.now();
    for (const v of [...this.views]) v.apply();
  }
}

/** The selected value, refreshed on `clock`'s ticks (the first value is immediate). */
export function useClockedSelector<T>(selector: (s: AppState) => T, clock: SharedClock): T {
  const [value, setValue] = useState(() => selector(appStore.getState()));
  const selectorRef = useRef(selector);
  selectorRef.current = selector;
  useEffect(() => {
    let shown = selectorRef.current(appStore.getState());
    const leave = clock.join({
      changed: () => !Object.is(selectorRef.current(appStore.getState()), shown),
      apply: () => {
        const next = selectorRef.current(appStore.getState());
        if (Object.is(next, shown)) return;
        shown = next;
        flushSync(() => setValue(() => next));
      },
    });
    const unsubscribe = appStore.subscribe(() => clock.notify());
    setValue(() => shown);
    return () => {
      unsubscribe();
      leave();
    };
  }, [clock]);
  return value;
}

/** The clock of the group of answers and of the advantage histogram: they show the same step. */
export const GROUP_CLOCK = new SharedClock(700);
