import { test, expect } from '@playwright/test';

test('the page finds a WebGPU adapter and the kernel self-check matches the CPU twin', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByTestId('adapter')).not.toBeEmpty();
  const check = page.getByTestId('selfcheck');
  await expect(check).toHaveAttribute('data-ok', 'true');
  await expect(check).toHaveAttribute('data-maxdiff', '0');
  console.log(`adapter: ${await page.getByTestId('adapter').textContent()}`);
});
