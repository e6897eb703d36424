// Starts the playground: saved runs from IndexedDB, the training worker and its controller
// (the config comes from the URL before the first render: readUrlIntoStore). Returns the
// controller and a function that stops it all.

import { getPreset, searchToConfig, searchToPage } from '../lessons';
import { appStore } from '../store/store';
import { archiveSync, openRunArchive, type KeptCheckpoint } from '../store/archive';
import { startTrainerWorker } from '../worker/client';
import { PlaygroundController } from './controller';
import { AblationRunner } from './ablation/runner';
import { downloadFile } from './download';
import { fetchSiteFile } from './siteFile';

/** How often changed runs are written to IndexedDB while training. */
const SAVE_EVERY_MS = 1500;

/**
 * The page's state from its URL: config, preset, view and zoom, and what was wrong in it.
 * Called once before the first render, so the page opens in the view the URL names.
 */
export function readUrlIntoStore(search: string): void {
  const store = appStore.getState();
  const url = searchToConfig(search);
  const page = searchToPage(search);
  store.setConfig(url.config, url.preset);
  // Code a link brings is shown, never run, until the person presses Run in the code panel.
  store.reviewCodeOf(url.config, 'link');
  if (appStore.getState().codeReview) store.setDrawer('code');
  if (page.page.view) store.setView(page.page.view);
  if (page.page.zoom !== undefined) store.setZoom(page.page.zoom);
  store.setUrlErrors([...url.errors, ...page.errors]);
}

/**
 * The lesson's trained model a link names (`trained=<label>`), or null; a label the lesson does
 * not have is reported as a URL error naming the labels it has, and nothing is loaded.
 */
export function trainedOfUrl(search: string): { file: string; label: string } | null {
  const label = searchToPage(search).page.trained;
  if (label === undefined) return null;
  const store = appStore.getState();
  const lesson = store.preset === undefined ? undefined : getPreset(store.preset);
  const found = lesson?.checkpoints?.find((c) => c.label === label);
  if (found) return { file: found.file, label: found.label };
  const labels = lesson?.checkpoints?.map((c) => JSON.stringify(c.label)) ?? [];
  const message =
    labels.length > 0
      ? `trained must be one of ${labels.join(', ')} for the lesson ${store.preset}; got ${JSON.stringify(label)}`
      : `trained names a lesson's trained model, and ${store.preset === undefined ? 'no lesson is open' : `the lesson ${store.preset} has none`}; got ${JSON.stringify(label)}`;
  store.setUrlErrors([...store.urlErrors, { knob: 'trained', message }]);
  return null;
}

export function startPlayground(): { controller: PlaygroundController; ablation: AblationRunner; stop(): void } {
  const store = appStore;
  // Set once the archive is open; until then (and without IndexedDB) checkpoints live in memory only.
  let keepCheckpoint: (ck: KeptCheckpoint) => void = () => {};

  const controller = new PlaygroundController(store, startTrainerWorker(), {
    requestFrame: (fn) => {
      // A hidden tab gets no animation frames: a timer makes sure metrics still land.
      let done = false;
      const once = () => {
        if (!done) {
          done = true;
          fn();
        }
      };
      requestAnimationFrame(once);
      setTimeout(once, 250);
    },
    replaceSearch: (search) => {
      const url = `${window.location.pathname}${search ? `?${search}` : ''}${window.location.hash}`;
      window.history.replaceState(window.history.state, '', url);
    },
    download: downloadFile,
    keepCheckpoint: (ck) => keepCheckpoint(ck),
    fetchBytes: fetchSiteFile,
  });
  // Read before syncUrl rewrites the URL: a link may name a trained model of its lesson.
  const trained = trainedOfUrl(window.location.search);
  controller.syncUrl();
  controller.prepare();
  if (trained) void controller.loadLessonCheckpoint(trained.file, trained.label);
  // Ablations train in workers of their own, several at once.
  const ablation = new AblationRunner(store, {
    makePort: startTrainerWorker,
    requestFrame: (fn) => requestAnimationFrame(() => fn()),
    now: () => Date.now(),
  });
  // For the end-to-end tests: lose the GPU device on purpose (the recovery path).
  (window as unknown as { __rlvrTest?: object }).__rlvrTest = { loseDevice: () => controller.simulateDeviceLoss() };

  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribe = () => {};
  openRunArchive()
    .then(async (archive) => {
      if (!archive || stopped) return;
      const saved = await archive.load();
      if (stopped) return;
      store.getState().hydrateRuns(saved);
      const kept = await archive.keptCheckpoint();
      if (kept && !stopped) controller.offerKeptCheckpoint(kept);
      keepCheckpoint = (ck) => void archive.keepCheckpoint(ck).catch(() => {});
      const sync = archiveSync(archive, saved);
      let dirty = false;
      const save = () => {
        if (!dirty) return;
        dirty = false;
        sync(store.getState().runs).catch((e: Error) =>
          store.getState().notify('error', `Could not save runs: ${e.message}`),
        );
      };
      unsubscribe = store.subscribe((s, prev) => {
        if (s.runs === prev.runs) return;
        dirty = true;
        // A run added or removed (an import, a deletion) is saved at once: a reload right after
        // must find it. Metrics streaming in are saved every SAVE_EVERY_MS.
        if (s.runs.length !== prev.runs.length) setTimeout(save, 0);
      });
      timer = setInterval(save, SAVE_EVERY_MS);
      window.addEventListener('pagehide', save);
    })
    .catch((e: Error) =>
      store.getState().notify('error', `Runs will not survive a reload: IndexedDB failed (${e.message}).`),
    );

  return {
    controller,
    ablation,
    stop() {
      ablation.stop();
      stopped = true;
      if (timer) clearInterval(timer);
      unsubscribe();
      controller.dispose();
    },
  };
}
