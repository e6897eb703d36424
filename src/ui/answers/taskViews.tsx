// The picture of a group, by the kind of picture the task gives (Task.display.picture; token rows
// without one): the one place the page maps a task's picture to React. A new kind of picture is one
// entry here (and its data in src/tasks/picture.ts).

import type { ReactElement, ReactNode } from 'react';
import type { GroupViewData, PictureKind } from './groupData';
import { AnswerRows } from './AnswerRows';
import { ChainGrid } from './ChainGrid';
import { ElementKey } from './ElementKey';
import { MazeBoard, mazeCellPx } from './MazeBoard';

interface BodyProps<K extends PictureKind> {
  data: Extract<GroupViewData, { kind: K }>;
  showSpecial: boolean;
  fontSize: number;
  compact: boolean;
  /** Beside the picture, where it has room (the board view: right of the maze). */
  aside?: ReactNode;
}

function ChainBody({ data, compact }: BodyProps<'chain'>) {
  return (
    <>
      <ElementKey group={data.chain.group} display={data.chain.display} compact={compact} />
      <div style={{ overflowX: 'auto' }}>
        <ChainGrid data={data.chain} answers={data.answers} compact={compact} />
      </div>
    </>
  );
}

function BoardBody({ data, showSpecial, fontSize, compact, aside }: BodyProps<'board'>) {
  const board = <MazeBoard data={data.board} px={mazeCellPx(data.board.size, fontSize, compact)} />;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: compact ? '0.4em' : '1em', alignItems: 'flex-start' }}>
      {aside ? (
        <div style={{ display: 'flex', gap: '0.4em', alignItems: 'flex-end' }}>
          {board}
          {aside}
        </div>
      ) : (
        board
      )}
      <div style={{ flex: '1 1 18em', minWidth: 0 }}>
        <AnswerRows answers={data.answers} showSpecial={showSpecial} compact={compact} />
      </div>
    </div>
  );
}

function RowsBody({ data, showSpecial, compact }: BodyProps<'rows'>) {
  return <AnswerRows answers={data.answers} showSpecial={showSpecial} compact={compact} />;
}

const TASK_VIEWS: { [K in PictureKind]: (props: BodyProps<K>) => ReactElement } = {
  chain: ChainBody,
  board: BoardBody,
  rows: RowsBody,
};

/** What the legend adds for a view's own marks. */
export const VIEW_LEGEND: Partial<Record<PictureKind, string>> = { board: ' · lines: blue A > 0, red A < 0, grey 0' };

/** The task's picture of one group. */
export function TaskBody(props: BodyProps<PictureKind>) {
  const Body = TASK_VIEWS[props.data.kind] as (p: BodyProps<PictureKind>) => ReactElement;
  return <Body {...props} />;
}
