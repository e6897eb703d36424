// The view of one group of rollouts (one prompt and its G answers), for every task.
//
// GroupView    — the component: prompt, "k of G right", one row per answer; groupmul draws the
//                chain with its running products, maze the walks on the grid.
// ElementKey   — the display names of a groupmul group's elements, permutations on hover.
// elementDisplay — readable element names (e, r, r², s, sr, …) for a group name.
// groupData    — everything GroupView draws, as plain data (pure; unit-tested).

export { GroupView, type GroupViewProps } from './GroupView';
export { ElementKey, type ElementKeyProps } from './ElementKey';
export { elementDisplay, describePermutation, superscript, subscript, type ElementDisplay } from './elementNames';
export {
  groupData, visibleCells, correctAttr, verdictGlyph,
  type ColourBy, type GroupAnswer, type GroupViewData,
} from './groupData';
export { groupmulData, hasScratchpad, type GroupMulData, type GroupMulRow, type ScratchCell, type ScratchTarget, type ChainColumn, type Mark } from './groupmulData';
export { mazeData, mazeMarkers, walkFailure, walkColour, type MazeData, type MazeWalk, type MazeMarker, type MazeFailure, type FailureKind } from './mazeData';
export { answerCells, cellTitle, type GroupCell } from './tokenCells';
