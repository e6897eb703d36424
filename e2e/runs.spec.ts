// Runs: each reset keeps a run labelled by its config difference, runs overlay on the charts,
// export and import (JSON run, .safetensors checkpoint), and survive a reload.
import { test, expect } from '@playwright/test';
import { openPlayground, stepOnce } from './helpers';

test('two runs overlaid, labelled by their config difference; export and import a run; runs survive a reload', async ({
  page,
}) => {
  await openPlayground(page, '?preset=sort-easy');
  await stepOnce(page);
  await stepOnce(page);
  const epsHigh = page.getByTestId('knob-epsHigh').locator('input[type=text]');
  await epsHigh.fill('0.28');
  await epsHigh.press('Enter');
  await expect(page.getByTestId('pending-config')).toContainText('ε_high 0.2→0.28');
  await page.getByTestId('reset').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
  await stepOnce(page);
  await stepOnce(page);
  await stepOnce(page);

  const items = page.getByTestId('run-item');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0).getByTestId('run-label')).toHaveText('sort-easy: ε_high 0.2→0.28');
  await expect(items.nth(1).getByTestId('run-label')).toHaveText('sort-easy');
  const legend = page.getByTestId('chart-reward').locator('.chart-legend');
  await expect(legend).toContainText('pass@1');
  await items.nth(1).getByTestId('run-overlay').check();
  // Overlaid: one metric per chart, colour = run, the legend names the runs.
  await expect(legend).toContainText('#1 sort-easy');
  await expect(legend).toContainText('#2 sort-easy: ε_high 0.2→0.28');
  await expect(legend).not.toContainText('pass@1');
  // One line per run, each in its run's colour.
  const lines = page.getByTestId('plot-reward').getByTestId('plot-series');
  await expect(lines).toHaveCount(2);
  expect(new Set(await lines.evaluateAll((els) => els.map((e) => e.getAttribute('stroke')))).size).toBe(2);
  await expect(page.getByTestId('chart-advantages').getByTestId('hist-run')).toHaveCount(2);

  // export run #2 as JSON and import it back
  const download = page.waitForEvent('download');
  await items.nth(0).getByTestId('export-json').click();
  const file = await (await download).path();
  await page.getByTestId('import-file').setInputFiles({
    name: 'run-2.json',
    mimeType: 'application/json',
    buffer: (await import('node:fs')).readFileSync(file),
  });
  await expect(items).toHaveCount(3);
  await expect(items.nth(0).getByTestId('run-label')).toHaveText('imported: sort-easy: ε_high 0.2→0.28');
  await expect(items.nth(0)).toHaveAttribute('data-steps', '3');
  await expect(page.getByTestId('notice')).toContainText('Imported run');
  await expect(page.getByTestId('notice')).not.toHaveAttribute('role', 'alert');

  // a malformed file is refused with a message
  await page.getByTestId('import-file').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"rlvr-playground-run","version":1,"config":{"groupSize":0},"points":[]}'),
  });
  await expect(page.getByTestId('notice')).toContainText('groupSize must be an integer');
  // announced at once by a screen reader
  await expect(page.getByRole('alert').filter({ hasText: 'groupSize must be an integer' })).toBeVisible();
  await expect(items).toHaveCount(3);

  // runs are kept in IndexedDB
  await page.waitForTimeout(2000);
  await page.reload();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  await expect(items).toHaveCount(3);
  await expect(page.getByTestId('run-label').first()).toHaveText('imported: sort-easy: ε_high 0.2→0.28');
});

test('a checkpoint saves as .safetensors and loads back with its run config', async ({ page }) => {
  await openPlayground(page, '?preset=sort-easy&seed=11');
  await stepOnce(page);
  await stepOnce(page);
  const download = page.waitForEvent('download');
  await page.getByTestId('export-checkpoint').click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/\.safetensors$/);
  const bytes = (await import('node:fs')).readFileSync(await saved.path());

  // somewhere else: the defaults, then the checkpoint
  await openPlayground(page, '?preset=none');
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'ck.safetensors', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(page.getByTestId('notice')).toContainText('Loaded ck.safetensors');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('step-count')).toHaveText('2');
  await expect(page.getByTestId('knob-task').locator('select')).toHaveValue('sort');
  await expect(page.getByTestId('knob-seed').locator('input[type=text]')).toHaveValue('11');
  await stepOnce(page);
  await expect(page.getByTestId('run-item').first().getByTestId('run-label')).toHaveText('from ck.safetensors');
});
