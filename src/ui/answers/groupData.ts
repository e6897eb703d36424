// One group of rollouts (one prompt, its G answers) as plain data for GroupView: the prompt in
// readable form, each answer's verdict, reward, advantage and token boxes, and the task's own
// picture where it gives one (Task.display.picture: the chain and its running products, or the
// walks on the board). Pure, so it is tested in Node; it asks the task and never compares its name.
//
// Index spaces (src/rl/rollout.ts): answer g of prompt b is sequence n = b·G + g; completion-space
// arrays are indexed n·Lc + c.

import type { RolloutView } from '../../worker/protocol';
import { completionOf } from '../../rl/rollout';
import type { BoardPicture, PictureAnswers } from '../../tasks/picture';
import { getTask } from '../../tasks/registry';
import type { PromptWords, TaskInstance } from '../../tasks/types';
import { css, divergingRgb, symmetricBound, textOn } from '../views/colour';
import { colourScale, isVerified, tokenText, verdict, type ColourBy, type ColourScale } from '../views/inspector-data';
import { answerCells, isSpecialToken, rawText, signed, type DisplayText, type GroupCell } from './tokenCells';
import { chainData, type ChainData } from './chainData';

export type { ColourBy } from '../views/inspector-data';

export interface GroupAnswer {
  /** Sequence index b·G + g. */
  n: number;
  g: number;
  /** The verifier's verdict; null before the verify phase. */
  correct: boolean | null;
  /** null before the verify phase. */
  reward: number | null;
  /** "reward 0.50" when the reward is neither 0 nor 1 (dense rewards), else null. */
  rewardText: string | null;
  /** Response-level advantage; undefined before the advantages phase. */
  seqAdvantage?: number;
  /** "A = +1.30", "A = 0.00", or "A = …" before the advantages phase. */
  advantageText: string;
  /** Background and ink of the advantage chip (diverging palette), null before the advantages phase. */
  advantageColour: string | null;
  advantageInk: string | null;
  /** Every position of the completion region, in order. */
  cells: GroupCell[];
  /** A plain sentence about this answer (maze: how the walk ended; subsetsum: its sum), or null. */
  note: string | null;
  /** Completion position of the token where the answer went wrong (maze: the failing move), or null. */
  failureAt: number | null;
}

interface GroupBase {
  b: number;
  task: string;
  step: number;
  G: number;
  /** The prompt in readable form, e.g. "r · s · sr²" or "d b a c". */
  prompt: string;
  /** What the model is asked to do, one short sentence. */
  question: string;
  /** A right answer, readable. */
  answer: string;
  /** Number of right answers; null before the verify phase. */
  rightCount: number | null;
  /** "3 of 8 right", or "not checked yet". */
  rightText: string;
  /** Every answer got the same reward (no spread). */
  noSpread: boolean;
  /** The GRPO lesson in one sentence when there is no spread, else null. */
  spreadNote: string | null;
  /** One line about the colouring (its scale, or when its data comes). */
  scaleLabel: string;
  /** The colouring has data in this rollout. */
  colourAvailable: boolean;
  answers: GroupAnswer[];
}

export type GroupViewData =
  | (GroupBase & { kind: 'chain'; chain: ChainData })
  | (GroupBase & { kind: 'board'; board: BoardPicture })
  | (GroupBase & { kind: 'rows' });

/** What draws a group: the task's kind of picture, or token rows. */
export type PictureKind = GroupViewData['kind'];

/** Vocabulary texts of tokens, without the special ones. */
function plainText(vocab: readonly string[], tokens: readonly number[], display: DisplayText = rawText): string {
  return tokens
    .filter((t) => !isSpecialToken(t))
    .map((t) => display(t, tokenText(vocab, t)))
    .join(' ');
}

export type { PromptWords } from '../../tasks/types';

/** How a task's tokens read in the rows. */
function displayTextOf(inst: TaskInstance): DisplayText {
  return getTask(inst.task).display.tokenWords?.(inst) ?? rawText;
}

/** A prompt in words: what is asked, of what, and the right answer. */
export function promptWords(inst: TaskInstance, vocab: readonly string[]): PromptWords {
  const words = getTask(inst.task).display.promptWords?.(inst, vocab);
  return (
    words ?? { prompt: plainText(vocab, inst.promptTokens), question: '', answer: plainText(vocab, inst.answerTokens) }
  );
}

/** The colouring's legend; a scale with nothing to spread (every A = 0, every ratio 1) says so instead of "red −0.00". */
function scaleLabel(scale: ColourScale): string {
  if (!scale.available || scale.kind !== 'diverging' || scale.bound > 0) return scale.label;
  return scale.by === 'advantage' ? 'advantage: every A is 0 (white)' : 'ratio: every ratio is 1 (white)';
}

function rewardText(reward: number | null): string | null {
  return reward === null || reward === 0 || reward === 1 ? null : `reward ${reward.toFixed(2)}`;
}

function advantageChip(
  seqAdvantage: number | undefined,
  bound: number,
): Pick<GroupAnswer, 'advantageText' | 'advantageColour' | 'advantageInk'> {
  if (seqAdvantage === undefined) return { advantageText: 'A = …', advantageColour: null, advantageInk: null };
  const rgb = divergingRgb(seqAdvantage, bound);
  return { advantageText: `A = ${signed(seqAdvantage)}`, advantageColour: css(rgb), advantageInk: textOn(rgb) };
}

/** Said when every answer got the same reward; whether every A is 0 depends on the estimator, so it is read off the data. */
function spreadNote(answers: readonly GroupAnswer[]): string {
  const same = 'Every answer got the same reward';
  if (answers.some((a) => a.seqAdvantage === undefined)) return `${same}.`;
  const zero = answers.every((a) => Math.abs(a.seqAdvantage ?? 0) < 1e-9);
  return zero ? `${same}, so every A = 0: this group gives no learning signal.` : `${same}.`;
}

function allEqual(xs: readonly number[]): boolean {
  return xs.every((x) => x === xs[0]);
}

/** Everything GroupView draws for group b of the rollout, tokens coloured by `by`. */
export function groupData(r: RolloutView, b: number, by: ColourBy = 'advantage'): GroupViewData {
  const { G, B } = r.shape;
  if (!(b >= 0 && b < B)) throw new RangeError(`group ${b} is not in the rollout (B = ${B})`);
  const inst = r.instances[b];
  const scale = colourScale(r, by);
  const words = displayTextOf(inst);
  const seqBound = r.seqAdvantages ? symmetricBound(r.seqAdvantages) : 0;
  const nOf = (g: number): number => b * G + g;
  const completions = Array.from({ length: G }, (_, g) => completionOf(r.tokens, nOf(g), r.shape));
  const verified = isVerified(r);
  const { display } = getTask(inst.task);

  const answers = completions.map((completion, g): GroupAnswer => {
    const n = nOf(g);
    const reward = verified ? r.rewards[n] : null;
    const seqAdvantage = r.seqAdvantages?.[n];
    // Given the verdict, so that a note that judges (how a walk failed) waits for the verify phase like the ✓/✗.
    const note = display.answerNote?.(inst, r.vocab, completion, verdict(r, n)) ?? null;
    return {
      n,
      g,
      correct: verdict(r, n),
      reward,
      rewardText: rewardText(reward),
      seqAdvantage,
      ...advantageChip(seqAdvantage, seqBound),
      cells: answerCells(r, n, scale, words),
      note: note?.text ?? null,
      failureAt: note?.at ?? null,
    };
  });

  const noSpread = verified && allEqual(answers.map((a) => a.reward ?? 0));
  const rightCount = verified ? answers.filter((a) => a.correct).length : null;
  const base: GroupBase = {
    b,
    task: inst.task,
    step: r.step,
    G,
    ...promptWords(inst, r.vocab),
    rightCount,
    rightText: rightCount === null ? 'not checked yet' : `${rightCount} of ${G} right`,
    noSpread,
    spreadNote: noSpread ? spreadNote(answers) : null,
    scaleLabel: scaleLabel(scale),
    colourAvailable: scale.available,
    answers,
  };
  const answersOf: PictureAnswers = {
    G,
    vocab: r.vocab,
    completion: (g) => completions[g],
    correct: (g) => verdict(r, nOf(g)),
    advantage: (g) => r.seqAdvantages?.[nOf(g)],
    advantageBound: seqBound,
  };
  const picture = display.picture?.group(inst, answersOf);
  if (picture?.kind === 'chain')
    return { ...base, kind: 'chain', chain: chainData(picture.chain, (g) => answers[g].cells) };
  if (picture?.kind === 'board') return { ...base, kind: 'board', board: picture.board };
  return { ...base, kind: 'rows' };
}

/** The cells a row shows: without special tokens and what follows the end, unless asked for (an answer that is only its end token keeps it). */
export function visibleCells(cells: readonly GroupCell[], showSpecial: boolean): GroupCell[] {
  if (showSpecial) return [...cells];
  const shown = cells.filter((c) => !c.special && !c.afterEnd);
  // An answer that is only its end token keeps it (drawn ∅): an empty row reads as nothing sampled.
  return shown.length > 0 || cells.length === 0 ? shown : [cells[0]];
}

/** Tokens a row shows in a side panel (compact): one line, where a walk of 16 moves would wrap to four and push the other answers out of view (the board draws it whole). */
export const COMPACT_ROW_TOKENS = 4;

/** A row's cells cut to at most `max` (the rest counted, not drawn). */
export function cappedCells(cells: readonly GroupCell[], max: number): { shown: GroupCell[]; more: number } {
  return cells.length <= max
    ? { shown: [...cells], more: 0 }
    : { shown: cells.slice(0, max), more: cells.length - max };
}

/** data-correct of an answer row: "true", "false", or "pending" before the verify phase. */
export function correctAttr(correct: boolean | null): 'true' | 'false' | 'pending' {
  return correct === null ? 'pending' : correct ? 'true' : 'false';
}

/** ✓ right, ✗ wrong, · not checked yet. */
export function verdictGlyph(correct: boolean | null): string {
  return correct === null ? '·' : correct ? '✓' : '✗';
}
