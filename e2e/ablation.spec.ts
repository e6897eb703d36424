// An ablation in the page: a lesson's question over seeds, several runs at once, the statistics,
// and the report exported and imported back.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fillAblationForm, openPanel } from './helpers';

test('one click runs a 2-value × 2-seed ablation, 2 at once: mean curves with bands, the table, the verdict; export and import', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const panel = await openPanel(page, '?preset=sort-easy', 'ablation');
  await fillAblationForm(panel, { seeds: 2, steps: 4, atOnce: 2 });
  await panel.getByTestId('ablation-start').click();
  await expect(panel.getByTestId('ablation-job')).toHaveCount(4);
  await expect(panel.getByTestId('ablation-view')).toHaveAttribute('data-finished', 'true', { timeout: 150_000 });
  await expect(panel.locator('[data-testid=ablation-job][data-status=done]')).toHaveCount(4);
  console.log(`ablation: ${await panel.getByTestId('ablation-view').locator('p').first().textContent()}`);
  await expect(panel.getByTestId('ablation-curves')).toHaveAttribute('data-series', '2');
  // Each cell: a mean curve over a shaded 95% band, in the cell's colour; and its "solved by step" staircase.
  const curves = panel.getByTestId('plot-ablation');
  await expect(curves.locator('.recharts-area')).toHaveCount(2);
  await expect(curves.getByTestId('plot-series')).toHaveCount(2);
  expect(
    new Set(await curves.getByTestId('plot-series').evaluateAll((els) => els.map((e) => e.getAttribute('stroke'))))
      .size,
  ).toBe(2);
  await expect(panel.getByTestId('plot-ablation-solved').getByTestId('plot-series')).toHaveCount(2);
  await expect(panel.getByTestId('ablation-row')).toHaveCount(2);
  await expect(panel.getByTestId('ablation-row').first()).toContainText('lr=0.003');
  await expect(panel.getByTestId('ablation-verdict')).toContainText(/seed/);
  // The question answered in one line, above everything else: two seeds a cell cannot tell.
  await expect(panel.getByTestId('ablation-answer')).toHaveText(
    /^lr=0\.003 vs lr=0\.01, final .+: too few seeds to tell \(2 seeds a cell: the smallest possible p is 0\.33\)/,
  );
  await expect(panel.getByTestId('ablation-waiting')).toHaveCount(0);
  // Each run is a kept run, labelled by its cell and seed.
  await expect(page.getByTestId('run-label').filter({ hasText: 'lr=0.01 · seed 1' })).toHaveCount(1);

  const download = page.waitForEvent('download');
  await panel.getByTestId('ablation-export-json').click();
  const file = readFileSync(await (await download).path());
  const svgDownload = page.waitForEvent('download');
  await panel.getByTestId('ablation-export-svg').click();
  const svg = readFileSync(await (await svgDownload).path(), 'utf8');
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // The figure holds both charts whole: their bands, curves, and titled axes.
  expect(svg.match(/recharts-area"/g)).toHaveLength(2);
  expect(svg.match(/data-testid="plot-series"/g)).toHaveLength(4);
  expect(svg).toContain('share of seeds solved');
  expect(svg).toContain('>step<');
  const table = await panel.getByTestId('ablation-table').textContent();
  await page.reload();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  await panel
    .getByTestId('ablation-import-file')
    .setInputFiles({ name: 'abl.json', mimeType: 'application/json', buffer: file });
  await expect(panel.getByTestId('ablation-view')).toContainText('Imported from abl.json');
  await expect(panel.getByTestId('ablation-table')).toHaveText(table!);
});

test("a maze lesson's ablation starts every run from the lesson's base model, not from random weights", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const panel = await openPanel(page, '?preset=maze-grpo', 'ablation');
  await expect(panel.getByTestId('ablation-init')).toContainText('“base model” weights');
  await fillAblationForm(panel, { seeds: 1, steps: 1, atOnce: 2 });
  await panel.getByTestId('ablation-start').click();
  await expect(panel.getByTestId('ablation-view')).toHaveAttribute('data-finished', 'true', { timeout: 150_000 });
  await expect(panel.locator('[data-testid=ablation-job][data-status=done]')).toHaveCount(2);
  // The base model's walks end on G about a third of the time at the first level; random weights' never
  // (rlvr train --preset maze-grpo --steps 1 without --init: reward 0 on seeds 0-2).
  await expect(panel.getByTestId('ablation-table').locator('th').nth(2)).toHaveText('final reward');
  const rows = panel.getByTestId('ablation-row');
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    const cells = await row.locator('td').allTextContents();
    expect(Number(cells[2]), cells.join(' | ')).toBeGreaterThan(0.1);
  }
});
