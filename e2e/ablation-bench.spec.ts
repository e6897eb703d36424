// How much running an ablation's runs at once buys in the page: the same grid with 1, 2 and 4
// runs at once, wall time each. A measurement tool, not a test: only with ABLATION_BENCH=1, e.g.
//   ABLATION_BENCH=1 ABLATION_STEPS=100 npx playwright test e2e/ablation-bench.spec.ts
// It fails only if an ablation does not finish.
import { test, expect } from '@playwright/test';
import { fillAblationForm, openPanel } from './helpers';

const steps = Number(process.env.ABLATION_STEPS ?? 100);
const seeds = Number(process.env.ABLATION_SEEDS ?? 2);

test("sort-easy's question (lr 0.003 vs 0.01) with 1, 2 and 4 runs at once", async ({ page }) => {
  test.setTimeout(60 * 60_000);
  const rows: string[] = [];
  for (const k of [1, 2, 4]) {
    const panel = await openPanel(page, '?preset=sort-easy', 'ablation');
    await fillAblationForm(panel, { seeds, steps, atOnce: k });
    const t0 = Date.now();
    await panel.getByTestId('ablation-start').click();
    await expect(panel.getByTestId('ablation-view')).toHaveAttribute('data-finished', 'true', { timeout: 30 * 60_000 });
    const seconds = (Date.now() - t0) / 1000;
    rows.push(`${k} at once: ${seconds.toFixed(1)} s for 2 cells × ${seeds} seeds × ${steps} steps`);
    console.log(rows.at(-1));
    await expect(panel.locator('[data-testid=ablation-job][data-status=done]')).toHaveCount(2 * seeds);
  }
  console.log(rows.join('\n'));
});
