// One group of rollouts: the prompt and its G answers, in plain language. The task decides the
// picture (groupmul: the chain with running products; maze: the walks on the grid; others: token
// rows); every answer shows ✓/✗, its tokens coloured (advantage by default) and its A.
// The data comes from groupData.ts (pure, tested); this file only lays it out.

import { useMemo } from 'react';
import type { RolloutView } from '../../worker/protocol';
import { correctAttr, groupData, verdictGlyph, visibleCells, type ColourBy, type GroupAnswer, type GroupViewData } from './groupData';
import { GroupMulGrid } from './GroupMulGrid';
import { ElementKey } from './ElementKey';
import { MazeBoard, mazeCellPx } from './MazeBoard';
import { TokenBox } from './TokenBox';
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
        <span style={S.muted}> · right answer: {data.answer}</span>
      </div>
      {data.spreadNote && <div data-testid="group-no-spread" style={S.small}>{data.spreadNote}</div>}
      {!compact && (
        <div style={S.small}>
          colour: {data.scaleLabel} · ✓ right · ✗ wrong{data.kind === 'maze' ? ' · lines: blue A > 0, red A < 0, grey 0' : ''}
        </div>
      )}
    </div>
  );
}

function AnswerRow({ answer, showSpecial }: { answer: GroupAnswer; showSpecial: boolean }) {
  return (
    <tr data-testid="completion" data-correct={correctAttr(answer.correct)}>
      <td style={S.verdictStyle(answer.correct)}>{verdictGlyph(answer.correct)}</td>
      <td style={S.rowLabel}>{answer.g + 1}</td>
      <td style={S.tokensCell}>
        {visibleCells(answer.cells, showSpecial).map((cell) => (
          <TokenBox key={cell.c} cell={cell} failure={cell.c === answer.failureAt} />
        ))}
      </td>
      <td style={S.cellTop}><span style={S.advantageChip(answer.advantageColour, answer.advantageInk)}>{answer.advantageText}</span></td>
      <td style={{ ...S.cellTop, ...S.small }}>
        {[answer.rewardText, answer.note].filter((x) => x).join(' · ')}
      </td>
    </tr>
  );
}

function AnswerRows({ answers, showSpecial, compact }: { answers: GroupAnswer[]; showSpecial: boolean; compact: boolean }) {
  return (
    <table style={S.table(compact)}>
      <tbody>
        {answers.map((a) => <AnswerRow key={a.g} answer={a} showSpecial={showSpecial} />)}
      </tbody>
    </table>
  );
}

function TaskBody({ data, showSpecial, fontSize, compact }: { data: GroupViewData; showSpecial: boolean; fontSize: number; compact: boolean }) {
  if (data.kind === 'groupmul') {
    return (
      <>
        <ElementKey group={data.groupmul.group} compact={compact} />
        <div style={{ overflowX: 'auto' }}>
          <GroupMulGrid data={data.groupmul} answers={data.answers} compact={compact} />
        </div>
      </>
    );
  }
  if (data.kind === 'maze') {
    return (
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: compact ? '0.4em' : '1em', alignItems: 'flex-start' }}>
        <MazeBoard data={data.maze} px={mazeCellPx(data.maze.size, fontSize, compact)} />
        <div style={{ flex: '1 1 18em', minWidth: 0 }}>
          <AnswerRows answers={data.answers} showSpecial={showSpecial} compact={compact} />
        </div>
      </div>
    );
  }
  return <AnswerRows answers={data.answers} showSpecial={showSpecial} compact={compact} />;
}

export function GroupView({ rollout, b, colourBy = 'advantage', showSpecial = false, fontSize = S.DEFAULT_FONT_SIZE, compact = false }: GroupViewProps) {
  // A caller may hold on to b while a new step brings fewer prompts: say so rather than throw.
  const data = useMemo(() => (b >= 0 && b < rollout.shape.B ? groupData(rollout, b, colourBy) : null), [rollout, b, colourBy]);
  if (!data) {
    return <div data-testid="group-view" data-b={b} style={{ ...S.rootStyle(fontSize, compact), ...S.muted }}>{`No group ${b + 1} in this step.`}</div>;
  }
  return (
    <div data-testid="group-view" data-b={b} data-task={data.task} style={S.rootStyle(fontSize, compact)}>
      <Header data={data} compact={compact} />
      <TaskBody data={data} showSpecial={showSpecial} fontSize={fontSize} compact={compact} />
    </div>
  );
}
