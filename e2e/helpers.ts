// Shared steps of the playground specs.
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

/**
 * Opens the playground with a query string and waits until the worker's model is ready. The
 * dashboard view (settings, every chart, every group, runs side by side) unless the query
 * string names a view.
 */
export async function openPlayground(
  page: Page,
  search = '',
  view: 'lecture' | 'dashboard' = 'dashboard',
): Promise<void> {
  page.on('pageerror', (e) => console.log(`pageerror: ${e.message}`));
  const withView =
    /[?&]view=/.test(search) || view === 'lecture'
      ? search
      : `${search}${search.includes('?') ? '&' : '?'}view=${view}`;
  await page.goto(`/${withView}`);
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
}

/** Opens the playground (the dashboard unless `search` names a view) and returns the panel `testId`. */
export async function openPanel(page: Page, search: string, testId: string): Promise<Locator> {
  await openPlayground(page, search);
  return page.getByTestId(testId);
}

/** Fills the ablation panel's form: seeds a cell, steps a run, and how many runs train at once. */
export async function fillAblationForm(
  panel: Locator,
  form: { seeds: number; steps: number; atOnce: number },
): Promise<void> {
  await panel.getByTestId('ablation-seeds').fill(String(form.seeds));
  await panel.getByTestId('ablation-steps').fill(String(form.steps));
  await panel.getByTestId('ablation-concurrency').selectOption(String(form.atOnce));
}

/**
 * A lesson's load button for one of its trained models (`file`: a CSS attribute selector on its
 * data-file), with the "trained ▾" menu opened first where the guide folds the buttons into it.
 */
export async function trainedModelButton(page: Page, file: string): Promise<Locator> {
  const load = page.getByTestId('load-trained').and(page.locator(file));
  if (!(await load.isVisible())) await page.getByTestId('menu-trained').locator('summary').click();
  return load;
}

/** Clicks Step and waits for the counter to move by exactly one. */
export async function stepOnce(page: Page): Promise<number> {
  const before = Number(await page.getByTestId('step-count').textContent());
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText(String(before + 1));
  await expect(page.getByTestId('step')).toBeEnabled();
  return before + 1;
}

export async function downloadText(download: Download): Promise<string> {
  return readFileSync(await download.path(), 'utf8');
}

/** The values of one CSV column (numbers), rows in order. */
export function csvColumn(csv: string, name: string): number[] {
  const [header, ...rows] = csv.trim().split('\n');
  const at = header.split(',').indexOf(name);
  if (at < 0) throw new Error(`no column ${name} in ${header}`);
  return rows.map((r) => Number(r.split(',')[at]));
}

export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The text input of a knob, its form section opened first (in the lecture view: the settings drawer). */
export async function knobInput(page: Page, key: string) {
  const knob = page.getByTestId(`knob-${key}`);
  await page.getByTestId('app').waitFor(); // the page is past its GPU probe: its view is mounted
  if ((await knob.count()) === 0) await page.getByTestId('open-settings').click();
  await knob.evaluate((el) => {
    const details = el.closest('details');
    if (details) details.open = true;
  });
  return knob.locator('input[type=text], select').first();
}
