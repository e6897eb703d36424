// When the GPU device is lost the page explains it and resumes from the last checkpoint it
// kept; a training fault pauses with its message.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { openPlayground, stepOnce } from './helpers';

test('device lost: a message, then "Resume from last saved state" continues the run', async ({ page }) => {
  await openPlayground(page, '?preset=sort-easy');
  await stepOnce(page);
  await stepOnce(page);
  await page.waitForTimeout(500); // the checkpoint asked for after the step
  await page.evaluate(() => (window as unknown as { __rlvrTest: { loseDevice(): void } }).__rlvrTest.loseDevice());
  const lost = page.getByTestId('device-lost');
  await expect(lost).toBeVisible();
  await expect(lost).toContainText('a checkpoint from step 2');
  await expect(page.getByTestId('step')).toBeDisabled();
  await page.getByTestId('resume').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  await expect(page.getByTestId('step-count')).toHaveText('2');
  await stepOnce(page);
  await expect(page.getByTestId('run-item')).toHaveCount(1);
  await expect(page.getByTestId('run-item').first()).toHaveAttribute('data-steps', '3');
});

test('a non-finite step pauses training and shows the fault', async ({ page }) => {
  // A checkpoint whose weights are all NaN: the first step's log-probabilities are non-finite.
  await openPlayground(page, '?preset=sort-easy');
  const download = page.waitForEvent('download');
  await page.getByTestId('export-checkpoint').click();
  const bytes = readFileSync(await (await download).path());
  const headerEnd = 8 + Number(bytes.readBigUInt64LE(0));
  for (let at = headerEnd; at + 4 <= bytes.length; at += 4) bytes.writeFloatLE(NaN, at);
  await page.getByTestId('import-file').setInputFiles({ name: 'nan.safetensors', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(page.getByTestId('notice')).toContainText('Loaded nan.safetensors');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
  await page.getByTestId('start').click();
  const fault = page.getByTestId('fault');
  await expect(fault).toBeVisible();
  await expect(fault).toContainText('non-finite');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'fault');
  await expect(page.getByTestId('start')).toBeDisabled();
  await expect(page.getByTestId('step-count')).toHaveText('0');
});
