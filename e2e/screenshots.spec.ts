// Screenshots of the main views for the README (docs/screenshots/*.png). Not part of the
// regular suite (playwright.config.ts ignores it unless SCREENSHOTS=1):
//   npx vite build && SCREENSHOTS=1 npx playwright test e2e/screenshots.spec.ts
import { test, expect, type Page } from '@playwright/test';
import { knobInput, openPlayground, stepOnce } from './helpers';

const DIR = 'docs/screenshots';

test.use({ viewport: { width: 1440, height: 1000 } });

/** The sticky toolbar would cover element screenshots taken below it. */
async function unstick(page: Page) {
  await page.addStyleTag({ content: '.toolbar { position: static !important; }' });
}

test('screenshots of the main views', async ({ page }) => {
  test.setTimeout(600_000);
  await test.step('the playground training sort-easy, two runs overlaid', async () => {
    await openPlayground(page, '?preset=sort-easy&steps=120');
    await page.getByTestId('start').click();
    await expect(page.getByTestId('step-count')).toHaveText('120', { timeout: 120_000 });
    const lr = await knobInput(page, 'lr');
    await lr.fill('0.01');
    await lr.press('Enter');
    await page.getByTestId('reset').click();
    await expect(page.getByTestId('status')).toHaveText('idle');
    await page.getByTestId('start').click();
    await expect(page.getByTestId('step-count')).toHaveText('120', { timeout: 120_000 });
    await page.getByTestId('run-overlay').first().check();
    await page.waitForTimeout(1500); // charts refresh on their own clock
    await page.screenshot({ path: `${DIR}/playground.png` });
    await unstick(page);
    await page.locator('.charts').screenshot({ path: `${DIR}/charts-overlay.png` });
  });
  await test.step('phase by phase, the rollout inspector', async () => {
    await openPlayground(page, '?preset=sort-easy&batchPrompts=3&groupSize=6');
    for (let i = 0; i < 5; i++) await stepOnce(page);
    for (let i = 0; i < 3; i++) {
      await page.getByTestId('phase-step').click();
      await expect(page.getByTestId('phase')).toHaveText(['sample', 'verify', 'advantages'][i]);
    }
    await page.waitForTimeout(1200);
    await page.locator('.toolbar').screenshot({ path: `${DIR}/toolbar-phases.png` });
    await unstick(page);
    await page.getByTestId('rollout-panel').screenshot({ path: `${DIR}/inspector.png` });
  });
  await test.step('groupmul: the learned table and the scratchpads', async () => {
    await openPlayground(page, '?preset=cot-discovery&batchPrompts=3&groupSize=4&curriculum=off&task.length=3&refSync=none');
    for (let i = 0; i < 4; i++) await stepOnce(page);
    await page.getByTestId('learned-refresh').click();
    await expect(page.getByTestId('learned-table')).toBeVisible({ timeout: 60_000 });
    await page.waitForTimeout(1200);
    await unstick(page);
    await page.getByTestId('rollout-panel').screenshot({ path: `${DIR}/groupmul.png` });
  });
  await test.step('mazes: the walks of each group', async () => {
    await openPlayground(page, '?preset=maze-grpo&batchPrompts=4&groupSize=4');
    for (let i = 0; i < 10; i++) await stepOnce(page);
    await page.waitForTimeout(1200);
    await unstick(page);
    await page.getByTestId('maze-view').screenshot({ path: `${DIR}/maze.png` });
  });
  await test.step('the config form with a knob\'s documentation, and a bad URL explained', async () => {
    await openPlayground(page, '?preset=clip-higher&groupSize=100&lr=fast');
    const tip = page.getByTestId('knob-groupSize').locator('.tip');
    await tip.hover();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${DIR}/config-and-url-errors.png`, clip: { x: 0, y: 0, width: 1000, height: 760 } });
  });
});
