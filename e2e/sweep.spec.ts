// A sweep runs one knob over several values on the same seed, one run after another.
import { test, expect, type Page } from '@playwright/test';
import { openPlayground } from './helpers';

/** Opens sort-easy and starts a sweep of ε_high over `values`, 4 steps a run. */
async function startSweep(page: Page, values: string): Promise<void> {
  await openPlayground(page, '?preset=sort-easy');
  await page.getByTestId('sweep-knob').selectOption('epsHigh');
  await page.getByTestId('sweep-values').fill(values);
  await page.getByTestId('sweep-steps').fill('4');
  await page.getByTestId('sweep-start').click();
}

test('a sweep over ε_high runs one labelled run per value, each for the given steps, on the same seed', async ({
  page,
}) => {
  await startSweep(page, '0.2, 0.28');
  await expect(page.getByTestId('sweep-errors')).toHaveCount(0);
  const items = page.getByTestId('run-item');
  // Both runs finish: two runs, each holding 4 steps, and the sweep is over.
  await expect
    .poll(async () => (await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-steps')))).join(','), {
      timeout: 90_000,
    })
    .toBe('4,4');
  await expect(page.getByTestId('sweep-status')).toHaveCount(0);
  const steps = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-steps')));
  const labels = await items.getByTestId('run-label').allTextContents();
  console.log(`sweep runs: ${JSON.stringify(labels)} with steps ${JSON.stringify(steps)}`);
  expect(steps.filter((s) => s === '4').length).toBeGreaterThanOrEqual(2);
  // Labelled by the value chosen; the sweep's runs are drawn together.
  expect(labels.sort()).toEqual(['ε_high = 0.2', 'ε_high = 0.28']);
  await expect(page.getByTestId('chart-reward').locator('.chart-legend')).toContainText('#1 ε_high = 0.2');
  await expect(page.getByTestId('chart-reward').locator('.chart-legend')).toContainText('#2 ε_high = 0.28');
});

test('a sweep whose values are all out of range names the knob and its range, and runs nothing', async ({ page }) => {
  await startSweep(page, '20, -1');
  await expect(page.getByTestId('sweep-errors')).toContainText('epsHigh must be');
  await expect(page.getByTestId('sweep-errors').locator('li')).toHaveCount(2);
  await expect(page.getByTestId('run-item')).toHaveCount(0);
});
