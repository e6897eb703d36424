// The projector is the default case: with A+ (the lecture zoom), at 1280×720 and at 1024×768, every
// lesson is one screen — no page scroll either way, nothing cut off, no chart tick label over
// another chart text, every text at least 16 px (the top bar included) — and once a step has
// run, at least four answers of the shown group are wholly in view. The checks are
// e2e/projector-layout.ts; each lesson is opened from the lesson picker and stepped once, and each
// screen is judged at both sizes, the window resized in place (the lessons whose first step is slow
// on a software GPU are not stepped: see SLOW); every trained model is loaded once and judged as it
// arrives (its recorded runs drawn, a group sampled from it).
// PROJECTOR_SHOTS=DIR also saves each lesson's screen after its step (DIR/<lesson>-<width>.png),
// to look at them as a class would. PROJECTOR_LESSONS=a,b judges only those lessons (a new one).
import { test, expect, type Page } from '@playwright/test';
import { getPreset, PRESET_NAMES } from '../src/lessons/presets';
import { trainedModelButton } from './helpers';
import { projectorReport } from './projector-layout';

/**
 * Lessons whose first step takes 10 s or more on a software GPU, not stepped here. The A5 lessons
 * are checked at step 0 only. The maze lessons (a first step from random weights resamples its
 * all-wrong groups: 30–60 s each on a software GPU) are judged with a group on screen through their
 * trained models below, whose preview group fills the same panel; the test without A+ (below) and
 * e2e/rollouts.spec.ts step a maze lesson for real.
 */
/** The lessons judged: all, or those PROJECTOR_LESSONS names. */
const LESSONS = process.env.PROJECTOR_LESSONS
  ? PRESET_NAMES.filter((p) => process.env.PROJECTOR_LESSONS!.split(',').includes(p))
  : PRESET_NAMES;

const SLOW = new Set(['cot-a5', 'no-cot-a5', 'maze-grpo', 'maze-dr-grpo', 'maze-base-rl', 'maze-5x5']);

/** What breaks the rule on the screen now, as readable lines (none: it holds). Without A+ small text is allowed. */
async function problems(page: Page, answers: boolean, zoom = true): Promise<string[]> {
  const vp = page.viewportSize()!;
  const r = await projectorReport(page);
  const out: string[] = [];
  if (r.scroll.w > vp.width) out.push(`page ${r.scroll.w} px wide`);
  if (r.scroll.h > vp.height) out.push(`page ${r.scroll.h} px high`);
  if (zoom) out.push(...r.small.map((t) => `under 16 px: ${t}`));
  out.push(...r.clipped.map((t) => `cut off: ${t}`), ...r.overlaps.map((t) => `overlap: ${t}`));
  if (answers && r.answers.visible < Math.min(4, r.answers.total))
    out.push(`${r.answers.visible} of ${r.answers.total} answers in view`);
  return out;
}

async function expectProjectorRule(page: Page, name: string, answers: boolean, zoom = true): Promise<void> {
  // Charts and the group redraw on their own clocks: wait until every chart has its axes, then
  // until the rule holds (a layout that breaks it stays broken and fails with its list).
  await expect.poll(async () => (await projectorReport(page)).undrawn, { message: `${name}: axes drawn` }).toEqual([]);
  await expect.poll(() => problems(page, answers, zoom), { message: name, timeout: 8_000 }).toEqual([]);
}

/** The lecture at this window size, A+ on or off, opened on a lesson. */
async function openLecture(
  page: Page,
  viewport: { width: number; height: number },
  preset: string,
  zoom: boolean,
): Promise<void> {
  await page.setViewportSize(viewport);
  await page.goto(`/?preset=${preset}&zoom=${zoom ? 1 : 0}`);
  if (zoom) await expect(page.getByTestId('app')).toHaveClass(/zoom/);
  else await expect(page.getByTestId('app')).not.toHaveClass(/zoom/);
}

/** Opens a lesson from the picker, at step 0, as a teacher would. */
async function chooseLesson(page: Page, preset: string): Promise<void> {
  await page.getByTestId('preset').selectOption(preset);
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
  await expect(page.getByTestId('step-count')).toHaveText('0');
  // The previous lesson's run is offered for continuing: dismissed.
  const kept = page.getByTestId('kept-run');
  if (await kept.isVisible()) await kept.getByRole('button', { name: 'dismiss' }).click();
}

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
];

/**
 * The rule at both window sizes on the screen as it stands, the window resized in place (as when a
 * projector is plugged in mid-lesson): each lesson is stepped once and judged at both sizes.
 */
async function expectAtBothSizes(page: Page, name: string, answers: boolean, shot?: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectProjectorRule(page, `${size.width}×${size.height}: ${name}`, answers);
    if (shot && process.env.PROJECTOR_SHOTS)
      await page.screenshot({ path: `${process.env.PROJECTOR_SHOTS}/${shot}-${size.width}.png` });
  }
}

// A jump ahead makes its point at once: every trained model of every lesson is loaded once (in
// the same pass as the lesson's first step) and, within seconds on a software GPU and with no
// step, every chart draws the lesson's recorded runs up to the loaded step (or says in a line
// that it has none), the advantage chart the preview group's, and the group panel holds one group
// sampled from the model; the rule holds at both sizes once the notice "Loaded the trained model …"
// (gone by itself after 8 s, a line above the lesson until then) is dismissed.
async function expectJumpShowsThePoint(page: Page, name: string, step: number): Promise<void> {
  await expect(page.getByTestId('step-count')).toHaveText(String(step), { timeout: 60_000 });
  // One sampling pass: the group is there in seconds, marked as no update.
  await expect(page.getByTestId('preview-group')).toContainText(`Step ${step}`, { timeout: 20_000 });
  expect(
    await page.getByTestId('rollout-panel').getByTestId('completion').count(),
    `${name}: answers in the group`,
  ).toBeGreaterThan(0);
  const charts = page.getByTestId('lecture').locator('figure[data-testid^=chart-]');
  await expect
    .poll(
      () =>
        charts.evaluateAll((figs) =>
          figs
            .filter((f) =>
              f.dataset.testid === 'chart-advantages'
                ? Number(f.dataset.points) === 0
                : Number(f.dataset.recorded) === 0 && !f.querySelector('[data-testid=chart-note]'),
            )
            .map((f) => f.dataset.testid),
        ),
      { message: `${name}: every chart draws the recorded runs (or says it has none)` },
    )
    .toEqual([]);
  await expect(page.getByTestId('step-count')).toHaveText(String(step)); // the preview trained nothing
  // The notice has said its line; dismissed as a teacher would (it goes by itself after 8 s), so
  // the screen is judged as the class then sees it.
  await page.getByTestId('notice').getByRole('button', { name: 'ok' }).click();
  await expect(page.getByTestId('notice')).toHaveCount(0);
}

test('1280×720 and 1024×768 with A+: every lesson on one screen, nothing cut, no label overlap, text ≥ 16 px, four answers in view; after a jump ahead too', async ({
  page,
}) => {
  const jumps = LESSONS.filter((p) => (getPreset(p).checkpoints ?? []).length > 0);
  const loads = jumps.reduce((n, p) => n + getPreset(p).checkpoints!.length, 0);
  test.setTimeout(LESSONS.length * 40_000 + loads * 40_000);
  await openLecture(page, SIZES[0], LESSONS[0], true);
  for (const preset of LESSONS) {
    await chooseLesson(page, preset);
    await expectAtBothSizes(page, `${preset} before a step`, false);
    // A lesson a software GPU cannot show says so in a line of its own, whole.
    const needsGpu = getPreset(preset).needsGpu;
    if (needsGpu) await expect(page.getByTestId('guide-gpu')).toHaveText(needsGpu);
    else await expect(page.getByTestId('guide-gpu')).toHaveCount(0);
    if (!SLOW.has(preset)) {
      await page.keyboard.press('ArrowRight');
      await expect(page.getByTestId('step-count')).toHaveText('1', { timeout: 60_000 });
      await expect(page.getByTestId('step')).toBeEnabled();
      await expect(page.getByTestId('group-view')).toBeVisible();
      await expectAtBothSizes(page, `${preset} after one step`, true, preset);
    }
    for (const ck of getPreset(preset).checkpoints ?? []) {
      await (await trainedModelButton(page, `[data-file="${ck.file}"]`)).click();
      await expect(page.getByTestId('notice')).toContainText('Loaded the trained model', { timeout: 60_000 });
      await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
      // The note starts "seed N at step M" (a unit test holds it to the file), M the loaded step.
      const at = Number(/at step (\d+)/.exec(ck.note)![1]);
      const name = `${preset} after a jump to "${ck.label}"`;
      await expectJumpShowsThePoint(page, name, at);
      await expectAtBothSizes(page, name, true, `${preset}-${ck.file.replace(/^.*\/|\.safetensors$/g, '')}`);
    }
  }
});

// Every step of every lesson's guide, with A+ at both sizes, before a step: the guide strip grows
// with its text, so a long step must not leave the charts cut or overlapping, nor push the page down.
test('with A+: every guide step of every lesson keeps one screen, nothing cut, text ≥ 16 px', async ({ page }) => {
  test.setTimeout(Math.max(LESSONS.length * 10_000, 60_000));
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1024, height: 768 },
  ]) {
    await openLecture(page, viewport, LESSONS[0], true);
    for (const preset of LESSONS) {
      await chooseLesson(page, preset);
      for (let i = 0; i < getPreset(preset).guide.length; i++) {
        if (i > 0) await page.getByTestId('guide-next').click();
        await expect(page.getByTestId('guide-step')).toHaveAttribute('data-index', String(i));
        // The charts resize after the strip does: the rule is waited for, as after a step.
        await expectProjectorRule(page, `${viewport.width}: ${preset}, guide step ${i + 1}`, false);
      }
    }
  }
});

// The laptop without A+, in the narrower window: the same screen holds (nothing cut off, no overlap,
// no scroll) before a step, and after one in the maze lesson from its base model, whose answers
// are the longest rows.
test('1024×768 without A+: every lesson on one screen, nothing cut, no label overlap; four maze answers in view', async ({
  page,
}) => {
  test.setTimeout(Math.max(LESSONS.length * 15_000, 60_000));
  await openLecture(page, { width: 1024, height: 768 }, LESSONS[0], false);
  for (const preset of LESSONS) {
    await chooseLesson(page, preset);
    await expectProjectorRule(page, `${preset} before a step (no A+)`, false, false);
    if (preset !== 'maze-base-rl') continue;
    // Its base model walks far, with a failure note on most rows.
    await (await trainedModelButton(page, '[data-file$="base.safetensors"]')).click();
    await expect(page.getByTestId('notice')).toContainText('Loaded the trained model', { timeout: 60_000 });
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
    await page.getByTestId('step').click();
    await expect(page.getByTestId('step-count')).toHaveText('1', { timeout: 60_000 });
    await expect(page.getByTestId('group-view')).toBeVisible();
    await expectProjectorRule(page, `${preset} after one step (no A+)`, true, false);
    // Its last trained model puts a four-digit step in the top bar ("3601 / 4000"), the widest it gets.
    const last = getPreset(preset).checkpoints!.at(-1)!;
    await (await trainedModelButton(page, `[data-file="${last.file}"]`)).click();
    await expect(page.getByTestId('notice')).toContainText(`Loaded the trained model (${last.label})`, {
      timeout: 60_000,
    });
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
    await page.getByTestId('step').click();
    await expect(page.getByTestId('step-count')).toHaveText(/^\d{4}$/, { timeout: 60_000 });
    await expectProjectorRule(page, `${preset} at its last trained model (no A+)`, true, false);
  }
});

test("with A+, the top bar of both views at 1024×768 and 1280×720: its items side by side, none drawn over another's text, none past the window", async ({
  page,
}) => {
  for (const view of ['lecture', 'dashboard']) {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`/?preset=cot-discovery&view=${view}&zoom=1`);
    await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'idle', { timeout: 60_000 });
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1280, height: 720 },
    ]) {
      await page.setViewportSize(size);
      // Each item of the bar: its box, and how wide its content is (wider than the box: drawn over the
      // next; scrollWidth is a whole number of pixels, so a pixel or two of rounding is allowed).
      const faults = await page.evaluate(() => {
        const items = [...document.querySelector('.topbar')!.children].map((c) => ({
          name: c.className,
          box: c.getBoundingClientRect(),
          content: (c as HTMLElement).scrollWidth,
        }));
        const out: string[] = [];
        items.forEach((it, i) => {
          if (it.content > it.box.width + 2)
            out.push(`${it.name}: content ${it.content} px in a ${it.box.width} px box`);
          if (it.box.right > window.innerWidth + 0.5) out.push(`${it.name}: past the window`);
          const next = items[i + 1];
          if (next && it.box.right > next.box.left + 0.5) out.push(`${it.name} runs into ${next.name}`);
        });
        return out;
      });
      expect(faults, `${view} at ${size.width}×${size.height}`).toEqual([]);
    }
  }
});
