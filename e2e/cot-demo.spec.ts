// The lecture demo, measured: open cot-discovery, press Start, and record how the page's
// reward, entropy, CoT alignment and curriculum level move over the first minutes. A
// measurement tool, not a test: only with COT_DEMO=1 (minutes of SwiftShader time), e.g.
//   COT_DEMO=1 COT_DEMO_MINUTES=6 npx playwright test e2e/cot-demo.spec.ts
// It fails only if the page breaks or nothing moves at all.
import { test, expect } from '@playwright/test';
import { openPlayground } from './helpers';

const minutes = Number(process.env.COT_DEMO_MINUTES ?? 6);

test('cot-discovery in the page: what moves in the first minutes', async ({ page }) => {
  test.setTimeout((minutes + 3) * 60_000);
  await openPlayground(page, '?preset=cot-discovery&seed=0');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'running');
  const read = async (id: string) => Number(await page.getByTestId(id).getAttribute('data-value'));
  const t0 = Date.now();
  const rows: string[] = [];
  let firstReward = NaN;
  let lastReward = NaN;
  let maxLevel = 0;
  while (Date.now() - t0 < minutes * 60_000) {
    await page.waitForTimeout(30_000);
    const step = Number(await page.getByTestId('step-count').textContent());
    if (step === 0) continue;
    const reward = await read('latest-reward');
    const entropy = await read('latest-entropy');
    const cot = await read('latest-task-cot-alignment-prefix');
    const level = Number(await page.getByTestId('latest-level').textContent());
    if (Number.isNaN(firstReward)) firstReward = reward;
    lastReward = reward;
    maxLevel = Math.max(maxLevel, level);
    rows.push(
      `${((Date.now() - t0) / 60_000).toFixed(1)} min  step ${step}  reward ${reward.toFixed(3)}  entropy ${entropy.toFixed(2)}  CoT alignment ${cot.toFixed(2)}  level ${level}`,
    );
    console.log(rows.at(-1));
  }
  await page.getByTestId('pause').click();
  console.log(
    `cot-discovery demo: first reading ${firstReward.toFixed(3)}, last ${lastReward.toFixed(3)}, highest level ${maxLevel}`,
  );
  expect(rows.length).toBeGreaterThan(0);
});
