// One group of the latest step (or of a step picked on a chart): its prompt and its G answers,
// tokens coloured by advantage. ‹ › (or Alt+← →) walks through the step's groups. For chains of
// group elements the policy's learned multiplication table is one tab away.

import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, type AppState } from '../../store/store';
import type { RolloutView } from '../../worker/protocol';
import { GroupView, groupData, type ColourBy } from '../answers';
import { TOKEN_MARK_TEXT, TOKEN_MARK_TITLE, tokenMarks } from './tokenKey';
import { LearnedGrids, LearnedRefresh } from '../LearnedTableParts';
import { hasTableProbe } from '../../rl/learned-table';
import { useThrottledSelector } from '../throttle';
import { TokenControls, type Colouring } from '../TokenControls';
import { getPreset } from '../../lessons';
import { RecordedWalksView } from '../answers/RecordedWalks';
import { PrevNext } from '../PrevNext';

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

/** Alt+← → walk through the step's groups too (shortcuts.ts). */
const GROUP_KEYS = ['Alt+←', 'Alt+→'] as const;

const COLOURINGS: Colouring[] = [
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
  } = useApp(
    useShallow((s) => ({ groupIndex: s.groupIndex, setGroupIndex: s.setGroupIndex, setViewStep: s.setViewStep })),
  );
  const hasTable = useApp((s) => s.trainerConfig !== null && hasTableProbe(s.trainerConfig));
  const walksFile = useApp((s) => (s.preset ? getPreset(s.preset).walks : undefined));
  const [tab, setTab] = useState<GroupTab>('answers');
  const [colourBy, setColourBy] = useState<ColourBy>('advantage');
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
        <GroupTitle ways={ways} rollout={rollout} shown={shown} B={B} />
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
            <PrevNext index={shown} count={B} go={setGroupIndex} testId="group" noun="group" keys={GROUP_KEYS} />
          </span>
        )}
      </div>
      {picked !== null && !ways && <PickedStep picked={picked} missing={missing} onBack={() => setViewStep(null)} />}
      {hasTable && <TableTabs tab={tab} setTab={setTab} />}
      <GroupBody
        tab={tab}
        setTab={setTab}
        hasTable={hasTable}
        walksFile={walksFile}
        rollout={rollout}
        b={shown}
        colourBy={colourBy}
      />
      {rollout && tab === 'answers' && (
        <GroupFoot rollout={rollout} b={shown} colourBy={colourBy} setColourBy={setColourBy} />
      )}
    </section>
  );
}

/** The group's answers (the ways button beside a maze), the learned table, or the ways view. */
function GroupBody({
  tab,
  setTab,
  hasTable,
  walksFile,
  rollout,
  b,
  colourBy,
}: {
  tab: GroupTab;
  setTab: (tab: GroupTab) => void;
  hasTable: boolean;
  walksFile: string | undefined;
  rollout: RolloutView | null;
  b: number;
  colourBy: ColourBy;
}) {
  const groupSize = useApp((s) => s.config.groupSize);
  const showSpecial = useApp((s) => s.showSpecial);
  const zoom = useApp((s) => s.zoom);
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
  const ways = tab === 'ways' && walksFile !== undefined;
  return (
    <div className="group-body">
      {tab === 'table' && hasTable ? (
        <LearnedTable />
      ) : ways ? (
        <RecordedWalksView file={walksFile!} fontSize={zoom ? 17 : 14} />
      ) : rollout ? (
        <GroupView
          rollout={rollout}
          b={b}
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
  );
}

/** The panel's title: the ways view, a loaded model's preview group, group b of B at its step, or none yet. */
function GroupTitle({
  ways,
  rollout,
  shown,
  B,
}: {
  ways: boolean;
  rollout: RolloutView | null;
  shown: number;
  B: number;
}) {
  return (
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
  );
}

/** The step picked on a chart (or that its rollouts are gone), and the way back to live. */
function PickedStep({ picked, missing, onBack }: { picked: number; missing: boolean; onBack: () => void }) {
  return (
    <p className="picked small" data-testid="picked-step">
      {missing
        ? `The rollouts of step ${picked} are no longer kept (the page keeps the last 30 steps); showing the latest.`
        : `Step ${picked}, picked on a chart.`}{' '}
      <button className="link-button" data-testid="back-to-live" onClick={onBack}>
        back to live
      </button>
    </p>
  );
}

type GroupTab = 'answers' | 'table' | 'ways';

/** Answers or the learned table, for chains of group elements. */
function TableTabs({ tab, setTab }: { tab: GroupTab; setTab: (tab: GroupTab) => void }) {
  return (
    <div className="tabs" role="tablist">
      <button role="tab" aria-selected={tab === 'answers'} data-testid="tab-answers" onClick={() => setTab('answers')}>
        answers
      </button>
      <button role="tab" aria-selected={tab === 'table'} data-testid="tab-table" onClick={() => setTab('table')}>
        learned table
      </button>
    </div>
  );
}

/** Under the answers: what colours the tokens, the special tokens switch, and the key to the marks. */
function GroupFoot({
  rollout,
  b,
  colourBy,
  setColourBy,
}: {
  rollout: RolloutView;
  b: number;
  colourBy: ColourBy;
  setColourBy: (by: ColourBy) => void;
}) {
  const showSpecial = useApp((s) => s.showSpecial);
  const setShowSpecial = useApp((s) => s.setShowSpecial);
  return (
    <div className="group-foot small">
      <TokenControls
        name="group-colour"
        colourings={COLOURINGS}
        colourBy={colourBy}
        setColourBy={setColourBy}
        showSpecial={showSpecial}
        setShowSpecial={setShowSpecial}
      />
      <TokenKey rollout={rollout} b={b} showSpecial={showSpecial} />
    </div>
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
