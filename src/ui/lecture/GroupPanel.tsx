// One group of the latest step (or of a step picked on a chart): its prompt and its G answers,
// tokens coloured by advantage. ‹ › (or Alt+← →) walks through the step's groups. For chains of
// group elements the policy's learned multiplication table is one tab away.

import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, type AppState } from '../../store/store';
import type { RolloutView } from '../../worker/protocol';
import { GroupView, groupData, type ColourBy } from '../group';
import { TOKEN_MARK_TEXT, TOKEN_MARK_TITLE, tokenMarks } from './tokenKey';
import { LearnedGrids, LearnedRefresh } from '../LearnedTableParts';
import { hasTableProbe } from '../../rl/learned-table';
import { useThrottledSelector } from '../throttle';
import { getPreset } from '../../config';
import { RecordedWalksView } from '../group/RecordedWalks';

/** While training streams steps, the group is redrawn at most this often. */
const GROUP_REFRESH_MS = 700;

const selectRollout = (s: AppState) => s.rollout;

/** The rollouts to show: the step picked on a chart when it is kept, else the latest. */
export function useShownRollout(): { rollout: RolloutView | null; picked: number | null; missing: boolean } {
  const live = useThrottledSelector(selectRollout, 0, GROUP_REFRESH_MS);
  const viewStep = useApp((s) => s.viewStep);
  const history = useApp((s) => s.rolloutHistory);
  if (viewStep === null) return { rollout: live, picked: null, missing: false };
  const kept = history.find((r) => r.step === viewStep) ?? null;
  return { rollout: kept ?? live, picked: viewStep, missing: kept === null };
}

const COLOURINGS: { by: ColourBy; label: string }[] = [
  { by: 'advantage', label: 'advantage' },
  { by: 'entropy', label: 'entropy' },
  { by: 'ratio', label: 'ratio π/π_old' },
];

export function GroupPanel() {
  const { rollout, picked, missing } = useShownRollout();
  const {
    groupIndex: b,
    setGroupIndex,
    setViewStep,
    showSpecial,
    setShowSpecial,
    zoom,
  } = useApp(
    useShallow((s) => ({
      groupIndex: s.groupIndex,
      setGroupIndex: s.setGroupIndex,
      setViewStep: s.setViewStep,
      showSpecial: s.showSpecial,
      setShowSpecial: s.setShowSpecial,
      zoom: s.zoom,
    })),
  );
  const hasTable = useApp((s) => s.trainerConfig !== null && hasTableProbe(s.trainerConfig));
  const groupSize = useApp((s) => s.config.groupSize);
  const walksFile = useApp((s) => (s.preset ? getPreset(s.preset).walks : undefined));
  const [tab, setTab] = useState<'answers' | 'table' | 'ways'>('answers');
  const [colourBy, setColourBy] = useState<ColourBy>('advantage');
  // Maze lessons with recorded walks: a button beside the maze, not a row of tabs (on a projector the answers need that row).
  const waysButton =
    walksFile && !hasTable ? (
      <button
        className="small-button ways-toggle"
        data-testid="tab-ways"
        onClick={() => setTab('ways')}
        title="recorded walks: the base model's ways to G beside a trained model's"
      >
        ways to G
      </button>
    ) : null;
  // The ways view belongs to the lesson that has recorded walks: another lesson shows its group.
  const ways = tab === 'ways' && walksFile !== undefined;
  const B = rollout?.shape.B ?? 0;
  const shown = Math.min(b, Math.max(0, B - 1));
  return (
    <section
      className="group-panel panel"
      data-testid="rollout-panel"
      data-highlight="group"
      aria-label="one group of answers"
    >
      <div className="group-head">
        <h2>
          {ways ? (
            'Ways to G: base vs RL'
          ) : rollout?.preview ? (
            <span
              title="one group sampled from the loaded model, scored and with advantages; no update: ▶ trains from here"
              data-testid="preview-group"
            >
              Step {rollout.step} <span className="muted">· no update</span>
            </span>
          ) : rollout ? (
            <>
              Group {shown + 1} of {B}{' '}
              <span className="muted">
                · step {rollout.step}
                {rollout.phase ? ` (after ${rollout.phase})` : ''}
              </span>
            </>
          ) : (
            'A group of answers'
          )}
        </h2>
        {ways && (
          <button
            className="small-button ways-toggle"
            data-testid="tab-answers"
            onClick={() => setTab('answers')}
            title="back to the group's answers"
          >
            answers
          </button>
        )}
        {rollout && !ways && (
          <span className="group-nav">
            <button
              data-testid="group-prev"
              disabled={shown === 0}
              onClick={() => setGroupIndex(shown - 1)}
              aria-label="previous group (Alt+←)"
              title="previous group (Alt+←)"
            >
              ‹
            </button>
            <button
              data-testid="group-next"
              disabled={shown >= B - 1}
              onClick={() => setGroupIndex(shown + 1)}
              aria-label="next group (Alt+→)"
              title="next group (Alt+→)"
            >
              ›
            </button>
          </span>
        )}
      </div>
      {picked !== null && !ways && (
        <p className="picked small" data-testid="picked-step">
          {missing
            ? `The rollouts of step ${picked} are no longer kept (the page keeps the last 30 steps); showing the latest.`
            : `Step ${picked}, picked on a chart.`}{' '}
          <button className="link-button" data-testid="back-to-live" onClick={() => setViewStep(null)}>
            back to live
          </button>
        </p>
      )}
      {hasTable && (
        <div className="tabs" role="tablist">
          <button
            role="tab"
            aria-selected={tab === 'answers'}
            data-testid="tab-answers"
            onClick={() => setTab('answers')}
          >
            answers
          </button>
          <button role="tab" aria-selected={tab === 'table'} data-testid="tab-table" onClick={() => setTab('table')}>
            learned table
          </button>
        </div>
      )}
      <div className="group-body">
        {tab === 'table' && hasTable ? (
          <LearnedTable />
        ) : ways ? (
          <RecordedWalksView file={walksFile!} fontSize={zoom ? 17 : 14} />
        ) : rollout ? (
          <GroupView
            rollout={rollout}
            b={shown}
            colourBy={colourBy}
            showSpecial={showSpecial}
            fontSize={zoom ? 17 : 14}
            compact
            aside={waysButton}
          />
        ) : (
          <>
            <p className="muted">
              Press ▶, → (one step) or Shift+→ (one phase): the prompt, the {groupSize} answers sampled for it, their
              scores and advantages appear here.
            </p>
            {waysButton}
          </>
        )}
      </div>
      {rollout && tab === 'answers' && (
        <div className="group-foot small">
          <span role="radiogroup" aria-label="colour tokens by">
            colour:{' '}
            {COLOURINGS.map(({ by, label }) => (
              <label key={by}>
                <input
                  type="radio"
                  name="group-colour"
                  data-testid={`colour-${by}`}
                  checked={colourBy === by}
                  onChange={() => setColourBy(by)}
                />{' '}
                {label}
              </label>
            ))}
          </span>
          <label>
            <input
              type="checkbox"
              data-testid="show-special"
              checked={showSpecial}
              onChange={(e) => setShowSpecial(e.target.checked)}
            />{' '}
            special tokens
          </label>
          <TokenKey rollout={rollout} b={shown} showSpecial={showSpecial} />
        </div>
      )}
    </section>
  );
}

function LearnedTable() {
  const step = useApp((s) => s.learnedTable?.step);
  const running = useApp((s) => s.status === 'running');
  return (
    <div className="learned">
      <p className="small muted">
        The model&apos;s most likely answer for every (running product, next element) pair, beside the true table
        {step !== undefined ? ` (step ${step})` : ''}. <LearnedRefresh disabled={running} />
      </p>
      <LearnedGrids />
    </div>
  );
}

/** A key for the marks on screen that need one: ∅, struck-through (untrained) and dashed (the task's) boxes. */
function TokenKey({ rollout, b, showSpecial }: { rollout: RolloutView; b: number; showSpecial: boolean }) {
  const marks = useMemo(
    () => (b < rollout.shape.B ? tokenMarks(groupData(rollout, b, 'advantage'), showSpecial) : []),
    [rollout, b, showSpecial],
  );
  if (marks.length === 0) return null;
  return (
    <span className="token-key" data-testid="token-key">
      {marks.map((m) => (
        <span key={m} data-mark={m} title={TOKEN_MARK_TITLE[m]}>
          <span className={`key-box key-${m}`}>{TOKEN_MARK_TEXT[m].sample}</span> {TOKEN_MARK_TEXT[m].text}
        </span>
      ))}
    </span>
  );
}
