import { test, expect } from '@playwright/test';

test('without WebGPU the page explains what is missing and what works', async ({ page }) => {
  await page.goto('/');
  const box = page.getByTestId('no-webgpu');
  await expect(box).toBeVisible();
  await expect(box).toContainText('needs WebGPU');
  await expect(box).toContainText('--enable-unsafe-webgpu');
  await expect(page.getByTestId('adapter-panel')).toHaveCount(0);
});
