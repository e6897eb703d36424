// The view of one group of rollouts (one prompt and its G answers), for every task.
//
// GroupView    — the component: prompt, "k of G right", one row per answer, and the picture of
//                the task's picture by its kind (taskViews.tsx): the chain with its running products,
//                the walks on the board, or token rows; the task builds the picture's data
//                (Task.display.picture, src/tasks/picture.ts).
// ElementKey   — the display names of a chain's group elements, permutations on hover.
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
export { chainData, type ChainData, type ChainRowCells, type ScratchCell } from './chainData';
export { walkColour, walkDrawOrder, ZERO_ADVANTAGE_STROKE } from './boardDraw';
export { answerCells, cellTitle, type GroupCell } from './tokenCells';
