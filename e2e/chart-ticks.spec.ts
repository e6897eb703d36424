// Tick labels never collide: in every lesson, at 1280×720 without the projector zoom (A+), each
// chart's tick labels keep apart from each other and from the chart's other texts (axis titles,
// the chance and ln V labels, curriculum markers). The other three screens (both sizes with A+,
// 1024×768 without) are held by e2e/projector.spec.ts, whose layout report (projector-layout.ts)
// makes the same check among its others; running them here too only doubled the time.
import { test, expect, type Page } from '@playwright/test';
import { PRESET_NAMES } from '../src/lessons/presets';

interface ChartTicks {
  chart: string;
  /** Tick labels on the x axis and on the y axis. */
  ticks: [number, number];
  overlaps: string[];
}

/** Per chart of the lecture: how many tick labels it draws and which pairs of texts overlap. */
async function tickReport(page: Page): Promise<ChartTicks[]> {
  return page.evaluate(() => {
    const overlap = (a: DOMRect, b: DOMRect): boolean =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const out: ChartTicks[] = [];
    for (const chart of document.querySelectorAll<HTMLElement>('[data-testid=lecture] figure[data-testid^=chart-]')) {
      const ticks = [...chart.querySelectorAll<SVGTextElement>('.recharts-cartesian-axis-tick-value')];
      const texts = [...chart.querySelectorAll<SVGTextElement>('svg text')].filter((t) => t.textContent!.trim() !== '');
      const overlaps: string[] = [];
      for (const t of ticks) {
        const a = t.getBoundingClientRect();
        for (const u of texts) {
          if (u === t || (ticks.includes(u) && ticks.indexOf(u) < ticks.indexOf(t))) continue;
          if (overlap(a, u.getBoundingClientRect())) overlaps.push(`"${t.textContent}" × "${u.textContent}"`);
        }
      }
      const count = (axis: string): number =>
        chart.querySelectorAll(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`).length;
      out.push({ chart: chart.dataset.testid!, ticks: [count('xAxis'), count('yAxis')], overlaps });
    }
    return out;
  });
}

test("1280×720: no tick label overlaps another text in any lesson's charts", async ({ page }) => {
  test.setTimeout(PRESET_NAMES.length * 30_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/?preset=${PRESET_NAMES[0]}`);
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  for (const preset of PRESET_NAMES) {
    await page.getByTestId('preset').selectOption(preset);
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
    await expect(page.getByTestId('step-count')).toHaveText('0');
    // Charts redraw on their own clock: wait until every chart has its axes, then until no labels overlap.
    await expect
      .poll(async () => (await tickReport(page)).filter((c) => Math.min(...c.ticks) < 2), {
        message: `${preset}: axes drawn`,
      })
      .toEqual([]);
    await expect
      .poll(async () => (await tickReport(page)).filter((c) => c.overlaps.length > 0), {
        message: `${preset}: overlapping labels`,
        timeout: 5_000,
      })
      .toEqual([]);
  }
});
