// One group of rollouts: the prompt and its G answers, in plain language. The task's view decides
// the picture (taskViews.tsx: the chain with running products, the walks on the board, or token
// rows); every answer shows ✓/✗, its tokens coloured (advantage by default) and its A.
// The data comes from groupData.ts (pure, tested); this file only lays it out.

import { useMemo, type ReactNode } from 'react';
import type { RolloutView } from '../../worker/protocol';
import { groupData, type ColourBy, type GroupViewData } from './groupData';
import { TaskBody, VIEW_LEGEND } from './taskViews';
import * as S from './styles';

export interface GroupViewProps {
  rollout: RolloutView;
  /** Which group (prompt) of the rollout, 0 ≤ b < B. */
  b: number;
  /** Token colouring (default advantage). */
  colourBy?: ColourBy;
  /** Show special tokens (<eos>, <pad>, …) and what the model wrote after its end. */
  showSpecial?: boolean;
  /** Base font size in px (default 15). */
  fontSize?: number;
  /** Tighter spacing, for a small side panel. */
  compact?: boolean;
  /** Beside the task's picture where it has room (right of a maze). */
  aside?: ReactNode;
}

function Header({ data, compact }: { data: GroupViewData; compact: boolean }) {
  return (
    <div style={S.header}>
      <div data-testid="group-prompt">
        Prompt: <span style={S.promptText}>{data.prompt}</span>
        {data.question && <span style={S.muted}> — {data.question}</span>}
      </div>
      <div>
        <b data-testid="group-right">{data.rightText}</b>
        {/* Compact sits beside the loop, whose step 4 tells the same: a word here, the sentence on hover. */}
        {data.spreadNote && compact && (
          <span data-testid="group-no-spread" style={S.muted} title={data.spreadNote}>
            {' '}
            · all equal
          </span>
        )}
        <span style={S.muted}> · right answer: {data.answer}</span>
      </div>
      {data.spreadNote && !compact && (
        <div data-testid="group-no-spread" style={S.small}>
          {data.spreadNote}
        </div>
      )}
      {!compact && (
        <div style={S.small}>
          colour: {data.scaleLabel} · ✓ right · ✗ wrong{VIEW_LEGEND[data.kind] ?? ''}
        </div>
      )}
    </div>
  );
}

export function GroupView({
  rollout,
  b,
  colourBy = 'advantage',
  showSpecial = false,
  fontSize = S.DEFAULT_FONT_SIZE,
  compact = false,
  aside,
}: GroupViewProps) {
  // A caller may hold on to b while a new step brings fewer prompts: say so rather than throw.
  const data = useMemo(
    () => (b >= 0 && b < rollout.shape.B ? groupData(rollout, b, colourBy) : null),
    [rollout, b, colourBy],
  );
  if (!data) {
    return (
      <div
        data-testid="group-view"
        data-b={b}
        style={{ ...S.rootStyle(fontSize, compact), ...S.muted }}
      >{`No group ${b + 1} in this step.`}</div>
    );
  }
  return (
    <div data-testid="group-view" data-b={b} data-task={data.task} style={S.rootStyle(fontSize, compact)}>
      <Header data={data} compact={compact} />
      <TaskBody data={data} showSpecial={showSpecial} fontSize={fontSize} compact={compact} aside={aside} />
    </div>
  );
}
