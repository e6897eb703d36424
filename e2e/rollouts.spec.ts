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
  await expect(inspector.getByTestId('legend')).toContainText('ratio: red');
  expect(await inspector.locator('[data-testid=token][data-kind=sampled]:not([data-colour=none])').count()).toBeGreaterThan(0);
});

test('a maze preset draws the walks', async ({ page }) => {
  await openPlayground(page, '?preset=maze-grpo&batchPrompts=2&groupSize=4');
  await stepOnce(page);
  const maze = page.getByTestId('maze-view');
  await expect(maze).toBeVisible();
  await expect(maze.getByTestId('maze')).toHaveCount(2);
  await expect(maze.getByTestId('maze-path')).toHaveCount(8);
});
