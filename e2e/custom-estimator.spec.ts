// Your own estimator in the tab (docs/custom-estimators.md): written in the code panel, run in
// the training worker's sandbox, drawn in the charts; broken code stops the run at its step with
// its line and keeps the run; a link's code waits until Run; an ablation's custom cell gets a verdict.
import { test, expect, type Page } from '@playwright/test';
import { downloadText, fillAblationForm, openPanel } from './helpers';

/** Replaces the code panel's text, as typing would (the editor is CodeMirror). */
async function setCode(page: Page, code: string): Promise<void> {
  const editor = page.getByTestId('code-panel').getByTestId('code-editor-content');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(code);
  await expect(editor).toContainText(code.split('\n')[0]);
}

const CONSTANT = 'function advantages(batch) {\n  return new Array(batch.N).fill(0.25);\n}\n';

test('write an estimator in the panel, run it, see it in the charts; the exported run carries the code', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const panel = await openPanel(page, '?preset=sort-easy&steps=3&evalEvery=0', 'code-panel');
  await setCode(page, CONSTANT);
  await panel.getByTestId('code-run').click();
  await expect(page.getByTestId('step-count')).toHaveText('3', { timeout: 90_000 });
  await expect(page.getByTestId('chart-reward')).toHaveAttribute('data-points', '3');
  await expect(page.getByTestId('plot-advantages')).toBeVisible();
  await expect(panel.getByTestId('code-use')).toBeChecked();
  const download = page.waitForEvent('download');
  await page.locator('.run-item.active').getByTestId('export-json').click();
  const run = JSON.parse(await downloadText(await download));
  expect(run.config).toMatchObject({ estimator: 'custom', customEstimator: CONSTANT });
  // Every trained token got exactly the code's advantage.
  for (const p of run.points) expect([p.scalars['advantages/min'], p.scalars['advantages/max']]).toEqual([0.25, 0.25]);
});

test('broken code stops with its line and keeps the run: wrong length, NaN, an endless loop, a syntax error', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const panel = await openPanel(page, '?preset=sort-easy&evalEvery=0&customTimeLimitMs=500', 'code-panel');
  const fault = page.getByTestId('fault');
  const failure = panel.getByTestId('code-failure');

  // A wrong length at step 3: two good steps, then the fault names the line; the run keeps its 2 steps.
  await setCode(
    page,
    '// short at step 3\nfunction advantages(batch) {\n  if (batch.step === 3) return [1, 2];\n  return batch.rewards;\n}\n',
  );
  await panel.getByTestId('code-run').click();
  await expect(fault).toBeVisible({ timeout: 90_000 });
  await expect(fault).toHaveAttribute('data-check', 'custom-code');
  await expect(fault).toContainText('step 3: your estimator, line 2: advantages(batch) returned 2 values');
  await expect(failure).toHaveAttribute('data-line', '2');
  await expect(page.getByTestId('code-editor').locator('.cm-lint-marker-error')).toHaveCount(1);
  await expect(page.getByTestId('step-count')).toHaveText('2');
  await expect(page.getByTestId('chart-reward')).toHaveAttribute('data-points', '2');

  // An endless loop at the next step: stopped at the time limit, still at step 2.
  await setCode(page, 'function advantages(batch) {\n  while (true) {}\n}\n');
  await panel.getByTestId('code-continue').click();
  await expect(fault).toContainText('did not return within 500 ms', { timeout: 60_000 });
  await expect(page.getByTestId('step-count')).toHaveText('2');

  // NaN: the first bad value is named.
  await setCode(
    page,
    'function advantages(batch) {\n  const a = Array.from(batch.rewards);\n  a[5] = 0 / 0;\n  return a;\n}\n',
  );
  await panel.getByTestId('code-continue').click();
  await expect(fault).toContainText('NaN at index 5; every value must be finite', { timeout: 60_000 });

  // Fixed: the paused run continues from its weights (a run of its own, drawn over the one that paused).
  await setCode(page, 'function advantages(batch) {\n  return batch.rewards;\n}\n');
  await panel.getByTestId('code-continue').click();
  await expect
    .poll(async () => Number(await page.getByTestId('step-count').textContent()), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(3);
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });

  // A syntax error: nothing loads, the line is marked, and the runs made so far are all kept.
  const runs = await page.getByTestId('run-item').count();
  await setCode(page, 'function advantages(batch) {\n  return batch.rewards.map((r) => r *);\n}\n');
  await panel.getByTestId('code-run').click();
  await expect(failure).toContainText('Did not load, line 2', { timeout: 60_000 });
  await expect(failure).toContainText('SyntaxError');
  await expect(page.getByTestId('error')).toContainText('your estimator, line 2');
  await expect(page.getByTestId('run-item')).toHaveCount(runs);
});

test('a shared link with code shows it and runs nothing until Run is pressed', async ({ page }) => {
  test.setTimeout(120_000);
  const code = 'function advantages(batch) {\n  return Array.from(batch.rewards, (r) => 2 * r);\n}\n';
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  await page.goto(
    `/?preset=sort-easy&steps=2&evalEvery=0&estimator=custom&customEstimator=${encodeURIComponent(code)}`,
  );
  // The lecture view opens its drawer on the code, with the note; no model was built.
  const panel = page.getByTestId('drawer').getByTestId('code-panel');
  await expect(panel.getByTestId('code-review')).toContainText('This link brought this code. Nothing of it has run.');
  await expect(panel.getByTestId('code-editor-content')).toContainText('2 * r');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('num-params')).toHaveCount(0);
  // ▶ does not run it either: it points at the code.
  await page.getByTestId('drawer-close').click();
  await page.getByTestId('start').click();
  await expect(page.getByTestId('notice')).toContainText('This link carries code (your estimator)');
  await expect(page.getByTestId('drawer')).toHaveAttribute('data-tab', 'code');
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('step-count')).toHaveText('0');
  await expect(page.getByTestId('num-params')).toHaveCount(0);
  // Read, then Run: now it trains.
  await panel.getByTestId('code-run').click();
  await expect(panel.getByTestId('code-review')).toHaveCount(0);
  await expect(page.getByTestId('step-count')).toHaveText('2', { timeout: 90_000 });
});

test('an ablation with the custom cell finishes with a verdict that names it', async ({ page }) => {
  test.setTimeout(240_000);
  const panel = await openPanel(page, '?preset=your-estimator', 'ablation');
  await fillAblationForm(panel, { seeds: 2, steps: 3, atOnce: 2 });
  await expect(panel.getByTestId('ablation-start')).toContainText('2 cells × 2 seeds');
  await panel.getByTestId('ablation-start').click();
  await expect(panel.getByTestId('ablation-view')).toHaveAttribute('data-finished', 'true', { timeout: 200_000 });
  await expect(panel.locator('[data-testid=ablation-job][data-status=done]')).toHaveCount(4);
  await expect(panel.getByTestId('ablation-row').nth(1)).toContainText('estimator=custom');
  await expect(panel.getByTestId('ablation-verdict')).toContainText('estimator=custom');
  console.log(`verdict: ${await panel.getByTestId('ablation-verdict').textContent()}`);
  const download = page.waitForEvent('download');
  await panel.getByTestId('ablation-export-json').click();
  const file = JSON.parse(await downloadText(await download));
  const custom = file.runs.find((r: { config: { estimator: string } }) => r.config.estimator === 'custom');
  expect(custom.config.customEstimator).toContain('const denom = 1;');
});
