// The rollout inspector and the task views, mounted on the latest step's rollouts.
import { test, expect } from '@playwright/test';
import { openPlayground, stepOnce } from './helpers';

test('the inspector shows G completions per prompt with coloured tokens', async ({ page }) => {
  await openPlayground(page, '?preset=sort-easy&batchPrompts=3&groupSize=4');
  await stepOnce(page);
  const inspector = page.getByTestId('rollout-panel').getByTestId('inspector');
  await expect(inspector).toBeVisible();
  const groups = inspector.getByTestId('group');
  await expect(groups).toHaveCount(3);
  for (let b = 0; b < 3; b++) await expect(groups.nth(b).getByTestId('completion')).toHaveCount(4);
  await expect(inspector.getByTestId('token').first()).toBeVisible();
  const coloured = await inspector.locator('[data-testid=token]:not([data-colour=none])').count();
  expect(coloured).toBeGreaterThan(0);
  // After the update each trained token also has its importance ratio π_new/π_old.
  const ratio = inspector.getByTestId('colour-ratio');
  await expect(ratio).toBeEnabled();
  await ratio.check();
  expect(
    await inspector.locator('[data-testid=token][data-kind=sampled]:not([data-colour=none])').count(),
  ).toBeGreaterThan(0);
  // Special tokens (<bos>, <eos>, …) are hidden unless asked for.
  await expect(inspector.getByTestId('group-prompt').first()).not.toContainText('<bos>');
});

test('a maze preset draws the walks', async ({ page }) => {
  await openPlayground(page, '?preset=maze-grpo&batchPrompts=2&groupSize=4');
  await stepOnce(page);
  const panel = page.getByTestId('rollout-panel');
  await expect(panel.getByTestId('maze-board')).toHaveCount(2);
  await expect(panel.getByTestId('maze-path')).toHaveCount(8);
  // A failed walk is marked where it failed, counted once per point.
  const failures = await panel
    .getByTestId('maze-failure')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count'))));
  const goals = await panel
    .getByTestId('maze-goal')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-count') ?? 1)));
  expect(failures.reduce((a, b) => a + b, 0) + goals.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(8);
});
