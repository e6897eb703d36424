// The maze lesson's "ways to G" view (a button beside the group's maze): the recorded walks file drawn, the base model's distinct
// correct walks beside a trained model's on one maze, ‹ › through the mazes, a menu of the
// trained models; with A+ at both window sizes it keeps the projector rule (e2e/projector-layout.ts).
// PROJECTOR_SHOTS=DIR also saves the screen (DIR/maze-ways-<width>.png).
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { getPreset } from '../src/lessons/presets';
import { parseRecordedWalks, type RecordedWalks } from '../src/tasks/maze';
import { projectorReport } from './projector-layout';

const file = parseRecordedWalks(
  JSON.parse(readFileSync(`public/${getPreset('maze-base-rl').walks}`, 'utf8')),
) as RecordedWalks;

for (const viewport of [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
]) {
  test(`${viewport.width}×${viewport.height} with A+: the ways to G, base model beside a trained one, on one screen`, async ({
    page,
  }) => {
    expect(typeof file).toBe('object');
    await page.setViewportSize(viewport);
    await page.goto('/?preset=maze-base-rl&zoom=1');
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
    await page.getByTestId('tab-ways').click();
    const base = page.getByTestId('ways-base');
    const trained = page.getByTestId('ways-trained');
    // Maze 1: the boards count what the file says (the last model is shown first).
    const last = file.models.at(-1)!;
    const count = (walks: { count: number }[]) => walks.reduce((a, w) => a + w.count, 0);
    await expect(base).toHaveAttribute('data-distinct', String(file.models[0].walks[0].length));
    await expect(trained).toHaveAttribute('data-distinct', String(last.walks[0].length));
    await expect(trained).toHaveAttribute('data-reached', String(count(last.walks[0])));
    await expect(trained.getByTestId('maze-path')).toHaveCount(Math.min(12, last.walks[0].length));
    await expect(page.getByTestId('ways-summary')).toContainText(`Over all ${file.mazes.length} mazes`);
    const [base0, last0] = [file.models[0].branching!, last.branching!];
    await expect(page.getByTestId('ways-shortest')).toContainText(
      `Shortest paths found ${base0.shortestFound.toFixed(2)} → ${last0.shortestFound.toFixed(2)}; among the first 4 shortest walks of a maze (${base0.matchedShortest.mazes} → ${last0.matchedShortest.mazes} mazes have 4)`,
    );
    const r = await projectorReport(page);
    expect([
      ...r.small,
      ...r.clipped,
      ...r.overlaps,
      ...(r.scroll.w > viewport.width || r.scroll.h > viewport.height ? ['page scrolls'] : []),
    ]).toEqual([]);
    if (process.env.PROJECTOR_SHOTS)
      await page.screenshot({ path: `${process.env.PROJECTOR_SHOTS}/maze-ways-${viewport.width}.png` });
    // The next maze, then another trained model.
    await page.getByTestId('ways-next').click();
    await expect(page.getByTestId('ways')).toContainText(`Maze 2 of ${file.mazes.length}`);
    await expect(base).toHaveAttribute('data-distinct', String(file.models[0].walks[1].length));
    await page.getByTestId('ways-model').selectOption(file.models[1].label);
    await expect(trained).toHaveAttribute('data-distinct', String(file.models[1].walks[1].length));
    // Another lesson, which has no recorded walks, shows its group panel, not the ways view.
    await page.getByTestId('preset').selectOption('start-here');
    await expect(page.getByTestId('ways')).toHaveCount(0);
    await expect(page.getByTestId('rollout-panel').locator('h2')).toHaveText('A group of answers');
  });
}
