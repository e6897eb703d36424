// The ablation: the lesson's question answered over seeds. One click trains every cell (the
// lesson and its variants, or a grid of values) on every seed, K runs at once; then the mean
// curve of each cell with its 95% band, "solved by step t", a table with intervals, and a
// verdict that claims a difference only where the seeds support it (AblationView.tsx). Export as
// JSON (and import it back to view) or as an SVG figure for a report. The leaderboard's recorded
// runs (RecordedRuns.tsx) load beside it and are drawn, dashed, over its charts.

import { createContext, useContext, useState } from 'react';
import { getPreset, type Preset } from '../../lessons';
import { ablationCells, ablationSpec, versusCustomGrid, type AblationSpec } from '../../ablation/spec';
import { useApp } from '../../store/store';
import { ablationFromJson } from './ablationFile';
import { AblationView } from './AblationView';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY, type AblationRunner } from './runner';
import { loadCheckpoint } from '../../store/checkpointFile';
import { fetchSiteFile } from '../siteFile';
import { RecordedRunsLoader, RecordedRunsView } from './RecordedRuns';
import { JsonFileButton } from './JsonFileButton';
import { Checkbox } from '../Checkbox';
import type { RecordedOverlay } from './recordedSeries';

/** The page's ablation runner (null while the page starts). */
export const AblationRunnerContext = createContext<AblationRunner | null>(null);

/**
 * The spec a lesson offers: its own question, else its variants side by side; null when it has
 * neither. With `code` (your estimator, from the code panel), the cells are the lesson's
 * estimator and estimator=custom running that code, unless the lesson already compares estimators.
 */
function lessonSpec(
  preset: string | undefined,
  seeds: number,
  steps: number,
  code: string | null,
): { spec: AblationSpec | null; error: string | null } {
  if (!preset)
    return { spec: null, error: 'Pick a lesson: an ablation compares a lesson with its variants over seeds.' };
  const p = getPreset(preset);
  const versus = code !== null ? versusCustomGrid(preset) : undefined;
  const variants = p.ablation || versus ? undefined : (p.variants ?? []).map((v) => v.label);
  if (!p.ablation && !versus && variants?.length === 0)
    return { spec: null, error: `${p.title} has no variants to compare.` };
  try {
    const sets = code !== null ? [`customEstimator=${code}`] : [];
    return {
      spec: ablationSpec(preset, {
        ...(variants ? { variants } : {}),
        ...(versus ? { grid: versus } : {}),
        sets,
        seeds: Array.from({ length: seeds }, (_, i) => i),
        steps,
      }),
      error: null,
    };
  } catch (e) {
    return { spec: null, error: (e as Error).message };
  }
}

/** The form's seeds, steps and "vs. your estimator", and the spec they make with the lesson (or why none). */
function useAblationSpec(preset: string | undefined, lesson: Preset | null) {
  const [seeds, setSeeds] = useState(String(lesson?.ablation?.seeds ?? 4));
  const [steps, setSteps] = useState(String(lesson?.ablation?.steps ?? 300));
  const nSeeds = Number(seeds);
  const nSteps = Number(steps);
  const inputError =
    !Number.isInteger(nSeeds) || nSeeds < 1 || nSeeds > 32
      ? 'seeds must be a whole number in [1, 32]'
      : !Number.isInteger(nSteps) || nSteps < 1
        ? 'steps must be a positive whole number'
        : null;
  const ownCustom = Boolean(lesson?.ablation?.grid?.estimator?.includes('custom'));
  const [versusCode, setVersusCode] = useState(false);
  const code = useApp((s) => s.config.customEstimator);
  const unread = useApp((s) => s.codeReview !== null && s.codeReview.sources.includes(s.config.customEstimator));
  const withCode = ownCustom || versusCode ? code : null;
  const { spec, error } = inputError
    ? { spec: null, error: inputError }
    : unread && withCode !== null
      ? {
          spec: null,
          error: 'Your estimator came with a link or a file: read it in the code panel and press Run there first.',
        }
      : lessonSpec(preset, nSeeds, nSteps, withCode);
  return { seeds, setSeeds, steps, setSteps, ownCustom, versusCode, setVersusCode, spec, error };
}

export function AblationPanel() {
  const preset = useApp((s) => s.preset);
  const lesson = preset ? getPreset(preset) : null;
  const ablation = useApp((s) => s.ablation);
  const form = useAblationSpec(preset, lesson);
  const { spec, error } = form;
  const running = ablation !== null && ablation.finishedAt === null && !ablation.importedFrom;
  // The leaderboard's recorded runs, when loaded: drawn on their own and over the live charts.
  const [recorded, setRecorded] = useState<RecordedOverlay | null>(null);
  return (
    <section className="panel ablation" data-testid="ablation" aria-label="ablation">
      <h2>
        Ablation
        {lesson?.ablation ? `: ${lesson.ablation.question}` : lesson ? `: ${lesson.title}, with its variants` : ''}
      </h2>
      {lesson?.ablation && (
        <details className="small">
          <summary>what the literature says, and how to read the answer</summary>
          <p>{lesson.ablation.literature}</p>
          <p>{lesson.ablation.reading}</p>
        </details>
      )}
      <AblationForm form={form} versusOffered={Boolean(lesson) && !form.ownCustom} running={running} />
      {spec?.init && (
        <p className="muted small" data-testid="ablation-init">
          Every run starts from the lesson&apos;s “
          {lesson?.checkpoints?.find((c) => c.file === spec.init)?.label ?? spec.init}” weights (trained ▾), not from
          random ones.
        </p>
      )}
      {error && !ablation && (
        <p className="muted small" data-testid="ablation-unavailable">
          {error}
        </p>
      )}
      <RecordedRunsLoader onLoad={setRecorded} />
      {ablation && <AblationView a={ablation} recorded={recorded} />}
      {recorded && <RecordedRunsView overlay={recorded} onChange={setRecorded} onClose={() => setRecorded(null)} />}
    </section>
  );
}

/** The row of the form: seeds, steps each, runs at once, "vs. your estimator", run, stop, import. */
function AblationForm({
  form,
  versusOffered,
  running,
}: {
  form: ReturnType<typeof useAblationSpec>;
  versusOffered: boolean;
  running: boolean;
}) {
  const [concurrency, setConcurrency] = useState(DEFAULT_CONCURRENCY);
  const { seeds, setSeeds, steps, setSteps, versusCode, setVersusCode } = form;
  return (
    <div className="ablation-form row small">
      <label>
        seeds <input data-testid="ablation-seeds" value={seeds} onChange={(e) => setSeeds(e.target.value)} size={3} />
      </label>
      <label>
        steps each{' '}
        <input data-testid="ablation-steps" value={steps} onChange={(e) => setSteps(e.target.value)} size={5} />
      </label>
      <label title="Runs trained at once, each in its own worker on the GPU">
        at once{' '}
        <select
          data-testid="ablation-concurrency"
          value={concurrency}
          onChange={(e) => setConcurrency(Number(e.target.value))}
        >
          {Array.from({ length: MAX_CONCURRENCY }, (_, i) => i + 1).map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      {versusOffered && (
        <Checkbox
          title="The code panel's estimator (estimator = custom) as a cell beside the lesson's estimator"
          testId="ablation-versus-code"
          checked={versusCode}
          onChange={setVersusCode}
        >
          vs. your estimator
        </Checkbox>
      )}
      <StartStop spec={form.spec} concurrency={concurrency} running={running} />
      <AblationImport />
    </div>
  );
}

/** ▶ Run (every cell on every seed, from the lesson's base weights when it has them), and stop while it runs. */
function StartStop({
  spec,
  concurrency,
  running,
}: {
  spec: AblationSpec | null;
  concurrency: number;
  running: boolean;
}) {
  const runner = useContext(AblationRunnerContext);
  const notify = useApp((s) => s.notify);
  const cells = spec ? ablationCells(spec).length : 0;
  return (
    <>
      <button
        data-testid="ablation-start"
        disabled={!runner || !spec || running}
        onClick={async () => {
          try {
            // A lesson whose runs start from its base model: every run gets those weights.
            const init = spec!.init;
            const params = init !== null ? loadCheckpoint(await fetchSiteFile(init), init).params : undefined;
            runner?.start(spec!, concurrency, params);
          } catch (e) {
            notify('error', `The ablation cannot run: ${(e as Error).message}`);
          }
        }}
      >
        ▶ Run {spec ? `${cells} ${spec.grid.length ? 'cells' : 'recipes'} × ${spec.seeds.length} seeds` : 'ablation'}
      </button>
      {running && (
        <button data-testid="ablation-stop" onClick={() => runner?.stop()}>
          stop
        </button>
      )}
    </>
  );
}

/** Import…: an ablation's JSON file, shown as it was exported. */
function AblationImport() {
  const setAblation = useApp((s) => s.setAblation);
  const notify = useApp((s) => s.notify);
  return (
    <JsonFileButton
      testId="ablation-import"
      inputTestId="ablation-import-file"
      onFile={async (file) => {
        try {
          setAblation(ablationFromJson(await file.text(), file.name));
        } catch (err) {
          notify('error', `Could not import ${file.name}: ${(err as Error).message}`);
        }
      }}
    >
      Import…
    </JsonFileButton>
  );
}
