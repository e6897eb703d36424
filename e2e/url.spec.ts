// The whole config lives in the URL: opening a URL reproduces the setup, editing a knob
// rewrites the URL, and bad values are named on the page (never a crash).
import { test, expect } from '@playwright/test';
import { knobInput, openPlayground } from './helpers';

test('a URL with knobs set shows them in the controls; changing a knob updates the URL', async ({ page }) => {
  await openPlayground(page, '?preset=sort-easy&seed=7&epsHigh=0.28&groupSize=4&estimator=rloo');
  await expect(page.getByTestId('preset')).toHaveValue('sort-easy');
  await expect(page.getByTestId('knob-seed').locator('input[type=text]')).toHaveValue('7');
  await expect(page.getByTestId('knob-epsHigh').locator('input[type=text]')).toHaveValue('0.28');
  await expect(page.getByTestId('knob-groupSize').locator('input[type=text]')).toHaveValue('4');
  await expect(page.getByTestId('knob-estimator').locator('select')).toHaveValue('rloo');
  // the sort task's own parameters come from the preset
  await expect(page.getByTestId('knob-task.length').locator('input[type=text]')).toHaveValue('3');
  // a knob without effect for this estimator is greyed
  await expect(page.getByTestId('knob-grpoScale')).toHaveAttribute('data-active', 'false');
  // each control's tooltip: what it does, its range, the paper it comes from
  await page.getByTestId('knob-epsHigh').locator('.tip').hover();
  const tip = page.getByTestId('knob-tooltip');
  await expect(tip).toBeVisible();
  await expect(tip).toContainText('range: [0, 10]');
  await expect(tip).toContainText('DAPO clip-higher');
  await expect(page.getByTestId('url-errors')).toHaveCount(0);

  const lr = await knobInput(page, 'lr');
  await lr.fill('0.005');
  await lr.press('Enter');
  await expect(page).toHaveURL(/[?&]lr=0\.005(&|$)/);
  await expect(page).toHaveURL(/^[^?]*\?preset=sort-easy&seed=7&/);
  await page.getByTestId('knob-estimator').locator('select').selectOption('grpo');
  await expect(page).not.toHaveURL(/estimator=/);
  await expect(page.getByTestId('knob-grpoScale')).toHaveAttribute('data-active', 'true');

  // opening the new URL reproduces the setup
  const url = page.url();
  await page.goto(url);
  await expect(await knobInput(page, 'lr')).toHaveValue('0.005');
  await expect(page.getByTestId('knob-epsHigh').locator('input[type=text]')).toHaveValue('0.28');
});

test('a malformed or out-of-range URL value is named on the page and the default is used', async ({ page }) => {
  await page.goto('/?preset=sort-easy');
  const presetLr = await (await knobInput(page, 'lr')).inputValue();
  const presetGroupSize = await (await knobInput(page, 'groupSize')).inputValue();
  await openPlayground(page, '?preset=sort-easy&groupSize=100&lr=abc&bogus=1&seed=3');
  const box = page.getByTestId('url-errors');
  await expect(box).toBeVisible();
  await expect(box).toContainText('groupSize must be an integer in [1, 64], got "100"');
  await expect(box).toContainText('lr must be a number');
  await expect(box).toContainText('bogus');
  // the preset's values stand in for the bad ones; the good one is kept
  await expect(await knobInput(page, 'groupSize')).toHaveValue(presetGroupSize);
  await expect(await knobInput(page, 'lr')).toHaveValue(presetLr);
  await expect(page.getByTestId('knob-seed').locator('input[type=text]')).toHaveValue('3');
  await expect(page.getByTestId('adapter')).not.toBeEmpty();
  await expect(page.getByTestId('step')).toBeEnabled();
});

test("an invalid value typed into a control shows the knob's message and keeps the previous value", async ({
  page,
}) => {
  await openPlayground(page, '?preset=sort-easy');
  const before = page.url();
  const input = await knobInput(page, 'lr');
  const previous = await input.inputValue();
  await input.fill('2');
  await input.press('Enter');
  await expect(page.getByTestId('knob-error-lr')).toContainText('lr must be a number in [0.000001, 1], got "2"');
  await input.blur();
  await expect(input).toHaveValue(previous);
  expect(page.url()).toBe(before);
  // a rule between knobs: minibatches must divide B·G
  const mb = await knobInput(page, 'minibatches');
  await mb.fill('3');
  await mb.press('Enter');
  await expect(page.getByTestId('knob-error-minibatches')).toContainText(
    'minibatches must divide batchPrompts·groupSize',
  );
  await mb.fill('4');
  await mb.press('Enter');
  await expect(page.getByTestId('knob-error-minibatches')).toHaveCount(0);
  await expect(page).toHaveURL(/minibatches=4/);
});
