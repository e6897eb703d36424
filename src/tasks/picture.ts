// The pictures a task gives of a group of answers (Task.display.picture, src/tasks/types.ts):
// plain data, built in the task's folder from the group's answers, that the page draws by the
// picture's kind (src/ui/answers/taskViews.tsx). No React and no colours: a walk carries a tone in
// [−1, 1], the page its palette; a scratchpad token carries its completion position, the page its
// token box.
//
// A task without a picture is drawn as token rows. A new kind of picture is a new member of
// TaskPicture here and one entry of the page's taskViews.tsx.

/** A grid cell, [row, column]. */
export type Cell = readonly [number, number];

/** One group of answers as a picture reads it: G answers, their verdicts and advantages. */
export interface PictureAnswers {
  readonly G: number;
  /** The task's vocabulary, id → text. */
  readonly vocab: readonly string[];
  /** Answer g's completion tokens (the whole completion region). */
  completion(g: number): readonly number[];
  /** The verifier's verdict on answer g; null before the verify phase. */
  correct(g: number): boolean | null;
  /** Answer g's sequence advantage; undefined before the advantages phase. */
  advantage(g: number): number | undefined;
  /** The |A| that gives a full tone (the group's largest); 0 when there is none. */
  readonly advantageBound: number;
}

// ── chain: a chain of group elements, each answer's scratchpad under the running products ──

/** How a group's elements read: names, hover texts, a legend, a reading order. */
export interface ElementDisplay {
  /** names[i]: display name of element i (index as in getGroup(name).elementNames). */
  names: string[];
  /** describe[i]: hover text, e.g. "0→1, 1→2, 2→0 (one-line 120)". */
  describe: string[];
  /** One-line legend for the whole group. */
  key: string;
  /** Element indices in reading order for a key (e, r, r², …, s, sr, …; index order for letters). */
  order: number[];
}

/** A scratchpad token against its running product: equal, another element, or no element (not one, or after the end). */
export type Mark = 'match' | 'wrong' | 'missing';

/** What scratchpad position j should hold. */
export interface ScratchTarget {
  j: number;
  /** "y₁". */
  label: string;
  element: number;
  name: string;
  /** L_j: the y should be x₁⋯x_{L_j}. */
  prefixLength: number;
  /** "x₁⋯x₃" (the prefix it should be the product of). */
  prefix: string;
}

export interface ChainColumn {
  /** 0-based position in the chain. */
  t: number;
  /** "x₁". */
  label: string;
  element: number;
  name: string;
  describe: string;
  /** The scratchpad position whose y belongs under this x, if any. */
  target: ScratchTarget | null;
}

export interface Alignment {
  matched: number;
  total: number;
  /** "CoT 4/5". */
  text: string;
  title: string;
}

/** One scratchpad token of an answer, marked against its running product. */
export interface ChainScratch {
  j: number;
  /** Chain column it sits under. */
  column: number;
  /** Its completion position (where the page finds its token). */
  pos: number;
  mark: Mark;
  /** What it should have been and its mark, in words (the tooltip's second line). */
  note: string;
}

export interface ChainRow {
  g: number;
  scratch: ChainScratch[];
  /** CoT alignment; null without a scratchpad (one y: the answer itself). */
  alignment: Alignment | null;
}

/** One prompt's chain, as the chain picture lays it out. */
export interface ChainLayout {
  group: string;
  display: ElementDisplay;
  layout: 'block' | 'interleaved';
  /** Chain length. */
  k: number;
  /** Scratchpad length (number of y's). */
  s: number;
  /** More than one y: the model writes intermediate running products (CoT). */
  hasScratchpad: boolean;
  chain: ChainColumn[];
  targets: ScratchTarget[];
  product: { element: number; name: string };
}

/** The chain and every answer's scratchpad in its columns. */
export interface ChainPicture extends ChainLayout {
  rows: ChainRow[];
}

// ── board: walks on a grid, each ending marked ──

/** Why a walk stopped early: a move into a wall or off the grid, a token that is no move, a move past the budget. */
export type WalkBreak = 'wall' | 'offgrid' | 'badtoken' | 'overbudget';
export type FailureKind = WalkBreak | 'stopped';
export type MazeOutcome = 'goal' | FailureKind;

export interface DecodedPath {
  /** Cells visited, start first; the last is where the walk stopped. */
  cells: Cell[];
  /** Moves followed (cells.length − 1). */
  moves: string;
  /** Why the walk stopped early, or null when it ran to its EOS (or the end of the region). */
  broken: WalkBreak | null;
  /** Completion position of the token where the walk stopped (the failing move or the EOS). */
  stop: number;
}

export interface MazeFailure {
  kind: FailureKind;
  /** The last cell the walk stood on. */
  at: Cell;
  /** wall / offgrid: the cell it tried to enter (off the grid for offgrid); otherwise null. */
  into: Cell | null;
  /** Completion position of the token that failed (the bad move or token, or the <eos>); null when it ran out of room. */
  c: number | null;
  /** One plain sentence. */
  why: string;
}

/** One walk: its path, how it ended, and that in one sentence. */
export interface WalkEnd {
  g: number;
  path: DecodedPath;
  outcome: MazeOutcome;
  failure: MazeFailure | null;
  /** One plain sentence: how the walk ended. */
  summary: string;
}

/** One mark at the end of one or more walks (several failures at one point are one mark with a count). Geometry in cell units. */
export interface MazeMarker {
  kind: 'goal' | 'failure';
  /** Glyph position, in cell units. */
  x: number;
  y: number;
  /** A short line from the cell the walk stood on toward what it hit; null for stops and bad tokens. */
  stub: { x1: number; y1: number; x2: number; y2: number } | null;
  /** Failure kinds met here (one, usually). */
  kinds: MazeOutcome[];
  count: number;
  /** Where the count ("×3") is drawn, in cell units, beside the glyph and inside its cell; null for one walk. */
  countAt: { x: number; y: number } | null;
  /** The answers (g) that end here. */
  gs: number[];
  title: string;
}

export interface BoardWalk extends WalkEnd {
  /** The verifier's verdict; null before the verify phase. */
  correct: boolean | null;
  /** Sequence advantage; undefined before the advantages phase. */
  advantage: number | undefined;
  /** The stroke's sign and strength in [−1, 1] (blue > 0, red < 0); undefined: grey (A = 0 or not computed yet). */
  tone: number | undefined;
  /** Perpendicular offset in cells, so that walks along the same corridor stay visible. */
  offset: number;
  /** Stroke width relative to a group's walks (recorded walks: thicker the more often taken); default 1. */
  weight?: number;
  /** The hover text, when not the group's "answer g (verdict, A)". */
  title?: string;
}

export interface BoardPicture {
  grid: string[];
  size: number;
  start: Cell;
  goal: Cell;
  shortest: number;
  shortestPaths: number;
  walks: BoardWalk[];
  /** End markers; empty before the verify phase (the picture does not judge before the verifier has). */
  markers: MazeMarker[];
}

/** SVG polyline points of a path: cell centres (cell size `px`), shifted by `offset` cells along both axes. */
export function pathPoints(cells: readonly Cell[], px: number, offset: number): string {
  return cells
    .map(([r, c]) => `${((c + 0.5 + offset) * px).toFixed(1)},${((r + 0.5 + offset) * px).toFixed(1)}`)
    .join(' ');
}

/** A group's picture, by kind. */
export type TaskPicture = { kind: 'chain'; chain: ChainPicture } | { kind: 'board'; board: BoardPicture };

// ── recorded answers: several models' answers to the same problems, drawn side by side ──

/** One model's answers to one recorded problem, drawn. */
export interface RecordedPicture {
  board: BoardPicture;
  /** Sampled answers that were right, of answersPerProblem. */
  reached: number;
  /** Distinct right answers. */
  distinct: number;
  caption: string;
}

/** A recorded answers file as the page reads it. */
export interface RecordedAnswers {
  /** The problems the file holds (every model answered the same ones). */
  readonly problems: number;
  /** The models, the base model first. */
  readonly models: readonly { label: string; answersPerProblem: number }[];
  /** Model m's answers to problem b. */
  picture(m: number, b: number): RecordedPicture;
  /** Model `base` against `trained` over all the problems: a sentence, and one more (at a matched count when `matched`). */
  summary(base: number, trained: number): { head: string; detail: string; matched: boolean };
}

/** A task's recorded answers (`rlvr eval --branching G --walks-out FILE`), for the page. */
export interface RecordedPictures {
  /** The file, or why it is not one. */
  read(raw: unknown): RecordedAnswers | string;
}
