// The view of one group of rollouts (one prompt and its G answers), for every task.
//
// GroupView    — the component: prompt, "k of G right", one row per answer, and the picture of
//                the task's view (taskViews.tsx): the chain with its running products, or the walks on the board.
// ElementKey   — the display names of a groupmul group's elements, permutations on hover.
// groupData    — everything GroupView draws, as plain data (pure; unit-tested).

export { GroupView, type GroupViewProps } from './GroupView';
export { ElementKey, type ElementKeyProps } from './ElementKey';
export {
  groupData,
  visibleCells,
  correctAttr,
  verdictGlyph,
  type ColourBy,
  type GroupAnswer,
  type GroupViewData,
} from './groupData';
export {
  groupmulData,
  hasScratchpad,
  type GroupMulData,
  type GroupMulRow,
  type ScratchCell,
  type ScratchTarget,
  type ChainColumn,
  type Mark,
} from './groupmulData';
export {
  mazeData,
  mazeMarkers,
  walkFailure,
  walkColour,
  type MazeData,
  type MazeWalk,
  type MazeMarker,
  type MazeFailure,
  type FailureKind,
} from './mazeData';
export { answerCells, cellTitle, type GroupCell } from './tokenCells';
