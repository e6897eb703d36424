// When the GPU device is lost the page explains it and resumes from the last checkpoint it
// kept; a training fault pauses with its message.
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { knobInput, openPlayground, stepOnce } from './helpers';

/** After a resume the page is idle at `step`, and one more step goes on with the same run: one run in the list, one step longer. */
async function continuesFrom(page: Page, step: number): Promise<void> {
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  await expect(page.getByTestId('step-count')).toHaveText(String(step));
  await stepOnce(page);
  await expect(page.getByTestId('run-item')).toHaveCount(1);
  await expect(page.getByTestId('run-item').first()).toHaveAttribute('data-steps', String(step + 1));
}

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
  await continuesFrom(page, 2);
});

test('a checkpoint with non-finite weights is refused before anything is replaced', async ({ page }) => {
  await openPlayground(page, '?preset=sort-easy');
  await stepOnce(page);
  const download = page.waitForEvent('download');
  await page.getByTestId('export-checkpoint').click();
  const bytes = readFileSync(await (await download).path());
  const headerEnd = 8 + Number(bytes.readBigUInt64LE(0));
  for (let at = headerEnd; at + 4 <= bytes.length; at += 4) bytes.writeFloatLE(NaN, at);
  await page
    .getByTestId('import-file')
    .setInputFiles({ name: 'nan.safetensors', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(page.getByTestId('notice')).toContainText('Could not import nan.safetensors');
  await expect(page.getByTestId('notice')).toContainText('non-finite');
  // The model and its run are as they were.
  await expect(page.getByTestId('step-count')).toHaveText('1');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('run-item')).toHaveCount(1);
  await stepOnce(page);
});

test('an update that blows up pauses the run with the check that fired; a lower lr continues it from the weights kept', async ({
  page,
}) => {
  await openPlayground(page, '?preset=sort-easy&lr=1&beta2=0&adamEps=1e-12&evalEvery=0');
  await page.getByTestId('start').click();
  const fault = page.getByTestId('fault');
  await expect(fault).toBeVisible({ timeout: 60_000 });
  await expect(fault).toContainText('blew up');
  await expect(fault).not.toHaveAttribute('data-check', 'non-finite');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'fault');
  await expect(page.getByTestId('start')).toBeDisabled();
  const kept = Number(await page.getByTestId('step-count').textContent());
  // Adam with β2 = 0 divides by the latest gradient alone: calm both.
  const lr = await knobInput(page, 'lr');
  await lr.fill('0.003');
  await lr.press('Enter');
  const beta2 = await knobInput(page, 'beta2');
  await beta2.fill('0.99');
  await beta2.press('Enter');
  await expect(fault).toContainText('with lr 1→0.003, β2 0→0.99');
  await page.getByTestId('fault-continue').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  await expect(page.getByTestId('step-count')).toHaveText(String(kept));
  await stepOnce(page);
  await stepOnce(page);
  await expect(page.getByTestId('fault')).toHaveCount(0);
  await expect(page.getByTestId('run-label').first()).toContainText(
    `continued after the fault at step ${kept + 1}: lr 1→0.003, β2 0→0.99`,
  );
});

test("a reload loses nothing: the run's last checkpoint is kept and the page offers to continue it", async ({
  page,
}) => {
  await openPlayground(page, '?preset=sort-easy&seed=4');
  for (let i = 0; i < 3; i++) await stepOnce(page);
  await page.waitForTimeout(1500); // the checkpoint asked for after the step, written to IndexedDB
  await page.reload();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  const offer = page.getByTestId('kept-run');
  await expect(offer).toContainText('was at step 3 when the page was left; its weights from then were kept');
  await page.getByTestId('continue-kept').click();
  await continuesFrom(page, 3);
});
