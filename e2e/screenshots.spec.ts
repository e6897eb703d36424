// Screenshots of the main views for the README and docs/playground.md (docs/screenshots/*.png). Not part of the
// regular suite (playwright.config.ts ignores it unless SCREENSHOTS=1):
//   npx vite build && SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts
import { test, expect, type Page } from '@playwright/test';
import { knobInput, openPlayground, stepOnce, trainedModelButton } from './helpers';

const DIR = 'docs/screenshots';

async function untilStep(page: Page, n: number, timeout = 180_000): Promise<void> {
  await expect
    .poll(async () => Number(await page.getByTestId('step-count').textContent()), { timeout, intervals: [1000] })
    .toBeGreaterThanOrEqual(n);
}

test('screenshots of the main views', async ({ page }) => {
  test.setTimeout(900_000);
  await test.step('the lecture view at 1280×720: the first lesson learning', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openPlayground(page, '?preset=start-here', 'lecture');
    await page.keyboard.press(' ');
    await untilStep(page, 130);
    await page.keyboard.press(' ');
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
    await page.getByTestId('guide-next').click();
    await page.getByTestId('guide-next').click();
    await page.waitForTimeout(1500); // charts refresh on their own clock
    await page.screenshot({ path: `${DIR}/lecture.png` });
  });
  await test.step('a heavy lesson jumped ahead with A+ at 1280×720 (cot-s4 solved: its recorded runs, a group sampled from it), and its learned table', async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openPlayground(page, '?preset=cot-s4&zoom=1', 'lecture');
    await (await trainedModelButton(page, '[data-file$="cot-s4-solved.safetensors"]')).click();
    await expect(page.getByTestId('notice')).toContainText('Loaded the trained model');
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
    // No step: the recorded runs and the preview group are the point, at once.
    await expect(page.getByTestId('preview-group')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('notice')).toHaveCount(0, { timeout: 15_000 }); // an info notice goes by itself
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${DIR}/lecture-cot-trained.png` });
    await page.getByTestId('tab-table').click();
    await expect(page.getByTestId('learned-table')).toBeVisible({ timeout: 60_000 });
    await page.getByTestId('rollout-panel').screenshot({ path: `${DIR}/learned-table.png` });
  });
  await test.step("mazes: a trained model's walks on the grid, failures where they happened", async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openPlayground(page, '?preset=maze-base-rl', 'lecture');
    // The cot run the previous view left is offered for continuing; not part of this picture.
    const kept = page.getByTestId('kept-run');
    if (await kept.isVisible()) await kept.getByRole('button', { name: 'dismiss' }).click();
    // The lesson's last trained model (whole 4×4 mazes, past 0.9), then one step of its walks.
    await (await trainedModelButton(page, '[data-file$="step3600.safetensors"]')).click();
    await expect(page.getByTestId('notice')).toContainText('Loaded the trained model', { timeout: 60_000 });
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
    await stepOnce(page);
    await page.waitForTimeout(1200);
    await page.getByTestId('rollout-panel').screenshot({ path: `${DIR}/maze.png` });
  });
  await test.step('the dashboard: two runs of a lesson and its variant overlaid', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openPlayground(page, '?preset=sort-easy&steps=120');
    await page.getByTestId('start').click();
    await expect(page.getByTestId('step-count')).toHaveText('120', { timeout: 120_000 });
    const lr = await knobInput(page, 'lr');
    await lr.fill('0.01');
    await lr.press('Enter');
    await page.getByTestId('reset').click();
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
    await page.getByTestId('start').click();
    await expect(page.getByTestId('step-count')).toHaveText('120', { timeout: 120_000 });
    await page.getByTestId('run-overlay').first().check();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: `${DIR}/dashboard.png` });
  });
  await test.step("the settings drawer with a knob's documentation, and a bad URL explained", async () => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openPlayground(page, '?preset=clip-higher&groupSize=100&lr=fast', 'lecture');
    await page.getByTestId('open-settings').click();
    await page.getByTestId('knob-groupSize').locator('.tip').hover();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${DIR}/config-and-url-errors.png` });
  });
});
