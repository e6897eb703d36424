// "Ways to G" (a button beside the group's maze): a lesson's recorded walks (public/<preset.walks>),
// the base model's distinct correct walks beside a trained model's on the same held-out maze —
// BODHI's question (does RL narrow the ways a model solves a maze?) drawn rather than counted.
// ‹ › walks through the mazes. The lesson's task reads the file and draws each board
// (Task.display.picture.recorded); this file lays them out.

import { useEffect, useMemo, useState } from 'react';
import type { RecordedAnswers, RecordedPicture } from '../../tasks/picture';
import { getTask, isTaskName } from '../../tasks/registry';
import { presetConfig } from '../../lessons';
import { MazeBoard, mazeCellPx } from './MazeBoard';
import { useApp } from '../../store/store';
import { PrevNext } from '../PrevNext';

const files = new Map<string, Promise<RecordedAnswers | string>>();

/** The task the page's lesson trains (else the run's): the one that reads the lesson's recorded file. */
function useLessonTask(): string {
  return useApp((s) => (s.preset ? presetConfig(s.preset).task : s.config.task));
}

/** The file, fetched once per page and read by the task; a string says why it could not be read. */
function useRecordedAnswers(file: string, task: string): RecordedAnswers | string | null {
  const [got, setGot] = useState<RecordedAnswers | string | null>(null);
  useEffect(() => {
    const key = `${task}:${file}`;
    let request = files.get(key);
    if (!request) {
      const recorded = isTaskName(task) ? getTask(task).display.picture?.recorded : undefined;
      request = !recorded
        ? Promise.resolve(`the task ${task} draws no recorded answers`)
        : fetch(`${import.meta.env.BASE_URL}${file}`)
            .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
            .then((raw: unknown) => recorded.read(raw))
            .catch((e: unknown) => `could not read ${file}: ${(e as Error).message}`);
      files.set(key, request);
    }
    let live = true;
    void request.then((r) => live && setGot(r));
    return () => {
      live = false;
    };
  }, [file, task]);
  return got;
}

export function RecordedWalksView({ file, fontSize }: { file: string; fontSize: number }) {
  const rec = useRecordedAnswers(file, useLessonTask());
  const [b, setB] = useState(0);
  const [right, setRight] = useState<string | null>(null);
  const models = typeof rec === 'object' && rec ? rec.models.map((m, index) => ({ ...m, index })) : [];
  const base = models[0];
  const others = models.slice(1);
  // The trained model loaded from the lesson's menu, when the file recorded its walks; else the last.
  const loaded = useApp((s) => s.jump?.label);
  const trained =
    others.find((m) => m.label === right) ?? others.find((m) => m.label === loaded) ?? others[others.length - 1];
  const shown = useMemo(() => {
    if (typeof rec !== 'object' || !rec || !base || !trained) return null;
    const i = Math.min(b, rec.problems - 1);
    return { i, left: rec.picture(base.index, i), right: rec.picture(trained.index, i) };
  }, [rec, base, trained, b]);
  if (rec === null) return <p className="muted small">Loading the recorded walks…</p>;
  if (typeof rec === 'string')
    return (
      <p className="small" data-testid="ways-error">
        {rec}
      </p>
    );
  if (!shown || !base || !trained) return <p className="small">The recorded walks file needs two models.</p>;
  const px = mazeCellPx(shown.left.board.size, fontSize, true);
  const M = rec.problems;
  return (
    <div className="ways" data-testid="ways">
      <div className="ways-head small">
        <span>
          Maze {shown.i + 1} of {M}: each way to G among {base.answersPerProblem} sampled walks, the most taken thickest
        </span>
        <span className="group-nav">
          <PrevNext index={shown.i} count={M} go={setB} testId="ways" noun="maze" />
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
      <WaysSummary summary={rec.summary(base.index, trained.index)} />
    </div>
  );
}

/** A model of the file, with its place in it. */
type Model = RecordedAnswers['models'][number] & { index: number };

/** One model's board: its name (or, on the trained side with several, a picker), the walks, a caption. */
function WaysBoard({
  side,
  model,
  data,
  px,
  choice,
}: {
  side: number;
  model: Model;
  data: RecordedPicture;
  px: number;
  choice: { others: Model[]; value: string; onChange: (label: string) => void } | null;
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
function WaysSummary({ summary }: { summary: ReturnType<RecordedAnswers['summary']> }) {
  return (
    <p className="small muted ways-foot" data-testid="ways-summary">
      {summary.head} {summary.matched ? <span data-testid="ways-shortest">{summary.detail}</span> : summary.detail}
    </p>
  );
}
