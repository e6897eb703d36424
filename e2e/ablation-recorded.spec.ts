// The leaderboard's recorded runs in the ablation view: the shipped sorting curves load, each
// shown method a dashed mean curve over its band, GRPO against the methods told apart from it;
// a short live ablation then draws them over its own charts; a user's file of the same format
// loads too, so do the shipped S3 chains' curves, and a file of another format is refused by
// field. Screenshots at 1280×720 and 1024×768 go to test-results/ (to look at, not kept).
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fillAblationForm, openPanel } from './helpers';

const shipped = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { methods: { label: string }[] };
const SHIPPED = shipped('public/reference/leaderboard-sorting.json');
const S3 = shipped('public/reference/leaderboard-s3-chains.json');

test("the leaderboard's recorded sorting runs load, draw dashed over their bands, and overlay a live ablation", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  const panel = await openPanel(page, '?preset=sort-easy', 'ablation');
  await panel.getByTestId('recorded-load-sorting').click();
  const recorded = panel.getByTestId('recorded-runs');
  await expect(recorded).toContainText('Recorded runs, not live');
  await expect(recorded.getByTestId('recorded-summary')).toContainText(
    `${SHIPPED.methods.length} methods × 6 seeds × 500 steps of sorting`,
  );
  // By default GRPO and the methods the leaderboard marks as different (MaPP, pass@k): dashed, each over its band.
  const main = recorded.getByTestId('plot-recorded-main');
  await expect(main.getByTestId('plot-series')).toHaveCount(3);
  await expect(main.locator('.recharts-area')).toHaveCount(3);
  const dashes = await main
    .getByTestId('plot-series')
    .evaluateAll((els) => els.map((e) => e.getAttribute('stroke-dasharray')));
  expect(dashes).toEqual(['6 3', '6 3', '6 3']);
  await expect(recorded.getByTestId('recorded-curves').first().locator('.chart-legend')).toContainText(
    'GRPO, recorded (6 seeds)',
  );
  await expect(recorded.getByTestId('recorded-curves').first().locator('.chart-legend')).toContainText(
    'MaPP, recorded',
  );
  await expect(recorded.getByTestId('plot-recorded-reward').getByTestId('plot-series')).toHaveCount(3);
  await expect(recorded.getByTestId('plot-recorded-solved').getByTestId('plot-series')).toHaveCount(3);
  await expect(recorded.getByTestId('ablation-row')).toHaveCount(SHIPPED.methods.length);
  // A method ticked on is drawn too.
  await recorded.getByTestId('recorded-methods').getByLabel('RLOO').check();
  await expect(main.getByTestId('plot-series')).toHaveCount(4);
  await page.mouse.move(0, 0);
  await main.evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: 'test-results/ablation-recorded-1280x720.png' });

  // A live ablation (1 seed × 2 steps a cell) gets the recorded curves over its own, marked so.
  await fillAblationForm(panel, { seeds: 1, steps: 2, atOnce: 2 });
  await panel.getByTestId('ablation-start').click();
  await expect(panel.getByTestId('ablation-view')).toHaveAttribute('data-finished', 'true', { timeout: 150_000 });
  const live = panel.getByTestId('ablation-curves');
  await expect(live).toContainText('dashed: recorded runs of the leaderboard, not live');
  await expect(live).toHaveAttribute('data-series', '6');
  const stroke = await panel
    .getByTestId('plot-ablation')
    .getByTestId('plot-series')
    .evaluateAll((els) => els.map((e) => e.getAttribute('stroke-dasharray') ?? ''));
  expect(stroke.filter((d) => d === '6 3')).toHaveLength(4);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.mouse.move(0, 0);
  // After the resize's layout: the live chart with the recorded curves over it, in view.
  await expect(live).toBeVisible();
  await live.evaluate((e) => e.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: 'test-results/ablation-recorded-1024x768.png' });

  // A user's own file of the format: here the shipped one cut to two methods.
  const own = JSON.parse(readFileSync('public/reference/leaderboard-sorting.json', 'utf8'));
  own.methods = own.methods.slice(0, 2);
  await panel
    .getByTestId('recorded-file')
    .setInputFiles({ name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(own)) });
  await expect(recorded.getByTestId('recorded-summary')).toContainText('2 methods × 6 seeds × 500 steps of sorting');
  await expect(recorded.getByTestId('recorded-summary')).toContainText('from mine.json');
  // The S3 chains' shipped curves, with their curriculum level as the main metric.
  await panel.getByTestId('recorded-load-s3-chains').click();
  await expect(recorded.getByTestId('recorded-summary')).toContainText(
    `${S3.methods.length} methods × 6 seeds × 500 steps of S3 chains of length 4 (cot-discovery`,
  );
  await expect(recorded.getByTestId('ablation-row')).toHaveCount(S3.methods.length);
  await expect(recorded.getByTestId('recorded-curves').first()).toContainText('curriculum level');
  expect(await main.getByTestId('plot-series').count()).toBeGreaterThanOrEqual(2);
  await panel.getByTestId('recorded-file').setInputFiles({
    name: 'abl.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"rlvr-playground-ablation"}'),
  });
  await expect(
    page.getByText(/Could not load abl\.json: abl\.json: format must be "rlvr-leaderboard-curves"/),
  ).toBeVisible();
});
