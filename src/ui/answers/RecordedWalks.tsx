// "Ways to G" (a button beside the group's maze): a lesson's recorded walks (public/<preset.walks>),
// the base model's distinct correct walks beside a trained model's on the same held-out maze —
// BODHI's question (does RL narrow the ways a model solves a maze?) drawn rather than counted.
// ‹ › walks through the mazes.

import { useEffect, useMemo, useState } from 'react';
import { parseRecordedWalks, type RecordedModel, type RecordedWalks } from '../../tasks/maze';
import { MazeBoard, mazeCellPx } from './MazeBoard';
import { waysData, type WaysData } from './recordedWalksData';
import { useApp } from '../../store/store';

const files = new Map<string, Promise<RecordedWalks | string>>();

/** The file, fetched once per page; a string says why it could not be read. */
function useRecordedWalks(file: string): RecordedWalks | string | null {
  const [got, setGot] = useState<RecordedWalks | string | null>(null);
  useEffect(() => {
    let request = files.get(file);
    if (!request) {
      request = fetch(`${import.meta.env.BASE_URL}${file}`)
        .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
        .then((raw: unknown) => parseRecordedWalks(raw))
        .catch((e: unknown) => `could not read ${file}: ${(e as Error).message}`);
      files.set(file, request);
    }
    let live = true;
    void request.then((r) => live && setGot(r));
    return () => {
      live = false;
    };
  }, [file]);
  return got;
}

const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–');

export function RecordedWalksView({ file, fontSize }: { file: string; fontSize: number }) {
  const rec = useRecordedWalks(file);
  const [b, setB] = useState(0);
  const [right, setRight] = useState<string | null>(null);
  const models = typeof rec === 'object' && rec ? rec.models : [];
  const base = models[0];
  const others = models.slice(1);
  // The trained model loaded from the lesson's menu, when the file recorded its walks; else the last.
  const loaded = useApp((s) => s.jump?.label);
  const trained =
    others.find((m) => m.label === right) ?? others.find((m) => m.label === loaded) ?? others[others.length - 1];
  const shown = useMemo(() => {
    if (typeof rec !== 'object' || !rec || !base || !trained) return null;
    const i = Math.min(b, rec.mazes.length - 1);
    return { i, maze: rec.mazes[i], left: waysData(rec.mazes[i], base, i), right: waysData(rec.mazes[i], trained, i) };
  }, [rec, base, trained, b]);
  if (rec === null) return <p className="muted small">Loading the recorded walks…</p>;
  if (typeof rec === 'string')
    return (
      <p className="small" data-testid="ways-error">
        {rec}
      </p>
    );
  if (!shown || !base || !trained) return <p className="small">The recorded walks file needs two models.</p>;
  const px = mazeCellPx(shown.maze.grid.length, fontSize, true);
  const M = rec.mazes.length;
  return (
    <div className="ways" data-testid="ways">
      <div className="ways-head small">
        <span>
          Maze {shown.i + 1} of {M}: each way to G among {base.walksPerMaze} sampled walks, the most taken thickest
        </span>
        <span className="group-nav">
          <button
            data-testid="ways-prev"
            disabled={shown.i === 0}
            onClick={() => setB(shown.i - 1)}
            aria-label="previous maze"
          >
            ‹
          </button>
          <button
            data-testid="ways-next"
            disabled={shown.i >= M - 1}
            onClick={() => setB(shown.i + 1)}
            aria-label="next maze"
          >
            ›
          </button>
        </span>
      </div>
      <div className="ways-boards">
        {[
          { model: base, data: shown.left },
          { model: trained, data: shown.right },
        ].map(({ model, data }, side) => (
          <WaysBoard
            key={side}
            side={side}
            model={model}
            data={data}
            px={px}
            choice={side === 0 || others.length < 2 ? null : { others, value: trained.label, onChange: setRight }}
          />
        ))}
      </div>
      <WaysSummary base={base} trained={trained} mazes={M} />
    </div>
  );
}

/** One model's board: its name (or, on the trained side with several, a picker), the walks, a caption. */
function WaysBoard({
  side,
  model,
  data,
  px,
  choice,
}: {
  side: number;
  model: RecordedModel;
  data: WaysData;
  px: number;
  choice: { others: RecordedModel[]; value: string; onChange: (label: string) => void } | null;
}) {
  return (
    <figure
      className="ways-board"
      data-testid={side === 0 ? 'ways-base' : 'ways-trained'}
      data-distinct={data.distinct}
      data-reached={data.reached}
    >
      <figcaption>
        {choice === null ? (
          <strong>{model.label}</strong>
        ) : (
          <select
            data-testid="ways-model"
            value={choice.value}
            onChange={(e) => choice.onChange(e.target.value)}
            aria-label="trained model"
          >
            {choice.others.map((m) => (
              <option key={m.label} value={m.label}>
                {m.label}
              </option>
            ))}
          </select>
        )}
      </figcaption>
      <MazeBoard data={data.board} px={px} />
      <figcaption className="small">{data.caption}</figcaption>
    </figure>
  );
}

/** The numbers over all the mazes: pass@1, pass@G, and the distinct ways (at a matched count when recorded). */
function WaysSummary({ base, trained, mazes: M }: { base: RecordedModel; trained: RecordedModel; mazes: number }) {
  return (
    <p className="small muted ways-foot" data-testid="ways-summary">
      Over all {M} mazes: pass@1 {f2(base.passAt1)} → {f2(trained.passAt1)}, pass@{base.walksPerMaze} {f2(base.passAtG)}{' '}
      → {f2(trained.passAtG)}.
      {base.branching && trained.branching ? (
        // BODHI's measure at a matched count: the first k shortest (correct) walks of each maze,
        // so that a model with more walks on G is not credited with more ways.
        <span data-testid="ways-shortest">
          {' '}
          Among the first {base.branching.k} shortest walks of a maze {f2(base.branching.matchedShortest.distinct)} →{' '}
          {f2(trained.branching.matchedShortest.distinct)} distinct paths, evenness{' '}
          {f2(base.branching.matchedShortest.simpson)} → {f2(trained.branching.matchedShortest.simpson)}; among the
          first {base.branching.k} correct walks {f2(base.branching.matchedCorrect.distinct)} →{' '}
          {f2(trained.branching.matchedCorrect.distinct)}.
        </span>
      ) : (
        <>
          {' '}
          Distinct ways to G {f2(base.distinctCorrect)} → {f2(trained.distinctCorrect)} per maze (a count that grows
          with the walks that reach G).
        </>
      )}
    </p>
  );
}
