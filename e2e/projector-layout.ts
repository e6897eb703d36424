// What the projector rule measures on the lecture screen: one screen (no page scroll either way),
// nothing cut off, every text at least 16 px, no chart tick label over another chart text, and
// how many answers of the shown group are wholly in view.
import type { Page } from '@playwright/test';

export interface ProjectorReport {
  scroll: { w: number; h: number };
  /** Texts smaller than 16 px: "text (px)". */
  small: string[];
  /** Texts cut off by the window or by a box that hides its overflow. */
  clipped: string[];
  /** Pairs of chart texts that overlap, with a tick label among them. */
  overlaps: string[];
  /** Charts with fewer than two tick labels on an axis (not drawn yet). */
  undrawn: string[];
  /** Answers of the group panel wholly in view, and how many the group has. */
  answers: { visible: number; total: number };
}

export async function projectorReport(page: Page): Promise<ProjectorReport> {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const app = document.querySelector<HTMLElement>('[data-testid=app]')!;
    const label = (el: Element): string => (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    const hidden = (el: Element): boolean => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.display === 'none' || s.visibility === 'hidden' || s.opacity === '0') return true;
        if (e.tagName === 'DETAILS' && !(e as HTMLDetailsElement).open && e !== el.closest('summary')?.parentElement)
          return true;
      }
      return false;
    };
    const small: string[] = [];
    const clipped: string[] = [];
    for (const el of app.querySelectorAll<HTMLElement | SVGElement>('*')) {
      if (el.closest('.drawer, .tip-body, .expect-pop, .guide-details-body, .adapter-name, option, title')) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim().length > 0);
      if (!own) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || hidden(el)) continue;
      const px = parseFloat(getComputedStyle(el).fontSize);
      if (px < 15.99) small.push(`${label(el)} (${px})`);
      // The group's answers scroll in their own box: counted below, not here.
      if (el.closest('.group-body')) continue;
      // Cut off: out of the window, or out of an ancestor that hides or scrolls its overflow.
      if (r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5)
        clipped.push(`${label(el)} (window)`);
      // An SVG text's box runs a little past its glyphs (ascent, descent).
      const slack = el instanceof SVGElement ? 4 : 1;
      for (let a = el.parentElement; a && a !== app; a = a.parentElement) {
        if (a instanceof SVGElement) continue;
        const s = getComputedStyle(a);
        if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (
          r.left < b.left - slack ||
          r.top < b.top - slack ||
          r.right > b.right + slack ||
          r.bottom > b.bottom + slack
        ) {
          clipped.push(`${label(el)} (in .${a.className || a.tagName})`);
          break;
        }
      }
      // Text cut by its own box (ellipsis, or text taller than its box). The lesson's expectation
      // too: it shows whole clauses and "more" (a popover) for the rest, never a word cut with "…".
      if (el instanceof HTMLElement && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
        const s = getComputedStyle(el);
        if (s.overflowX !== 'visible' || s.overflowY !== 'visible') clipped.push(`${label(el)} (own box)`);
      }
    }
    const overlap = (a: DOMRect, b: DOMRect): boolean =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const overlaps: string[] = [];
    const undrawn: string[] = [];
    for (const chart of document.querySelectorAll<HTMLElement>('[data-testid=lecture] figure[data-testid^=chart-]')) {
      const ticks = [...chart.querySelectorAll<SVGTextElement>('.recharts-cartesian-axis-tick-value')];
      const texts = [...chart.querySelectorAll<SVGTextElement>('svg text')].filter((t) => t.textContent!.trim() !== '');
      // The empty state ("no data yet") is a chart text too: clear of the ticks and the reference labels.
      const empties = [...chart.querySelectorAll<HTMLElement>('.plot-empty > span')];
      for (const t of [...ticks, ...empties]) {
        const a = t.getBoundingClientRect();
        for (const u of [...texts, ...empties]) {
          if (
            u === t ||
            (ticks.includes(u as SVGTextElement) &&
              ticks.indexOf(u as SVGTextElement) < ticks.indexOf(t as SVGTextElement))
          )
            continue;
          if (empties.includes(t as HTMLElement) && ticks.includes(u as SVGTextElement)) continue; // the pair is counted from the tick
          if (overlap(a, u.getBoundingClientRect()))
            overlaps.push(`${chart.dataset.testid}: "${t.textContent}" × "${u.textContent}"`);
        }
      }
      // A chart text past its chart's drawing (an SVG hides what overflows it). Recharts pushes an
      // end tick label that would overflow back in, flush with the edge: a tick label that touches
      // the edge is one that did not fit (the last x tick above all).
      const surface = chart.querySelector('svg.recharts-surface')?.getBoundingClientRect();
      if (surface) {
        for (const t of texts) {
          const r = t.getBoundingClientRect();
          const inset = ticks.includes(t) ? 1 : -4; // an SVG text's box runs a little past its glyphs
          if (r.width > 0 && (r.left < surface.left + inset || r.right > surface.right - inset))
            clipped.push(`${chart.dataset.testid}: "${t.textContent}" at or past the chart's edge`);
        }
      }
      const count = (axis: string): number =>
        chart.querySelectorAll(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`).length;
      if (chart.querySelector('.recharts-surface') && Math.min(count('xAxis'), count('yAxis')) < 2)
        undrawn.push(chart.dataset.testid!);
    }
    const body = document.querySelector('[data-testid=rollout-panel] .group-body');
    const completions = [...document.querySelectorAll('[data-testid=rollout-panel] [data-testid=completion]')];
    let visible = 0;
    if (body) {
      const b = body.getBoundingClientRect();
      for (const c of completions) {
        const r = c.getBoundingClientRect();
        if (
          r.height > 0 &&
          r.top >= b.top - 1 &&
          r.bottom <= Math.min(b.bottom, vh) + 1 &&
          r.right <= Math.min(b.right, vw) + 1
        )
          visible++;
      }
    }
    return {
      scroll: { w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight },
      small,
      clipped,
      overlaps,
      undrawn,
      answers: { visible, total: completions.length },
    };
  });
}
