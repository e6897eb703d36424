// Decoding a maze completion into the cells it walks through, for drawing (docs/tasks.md, maze:
// the moves before the first EOS are followed from S; the walk breaks at the first move into a
// wall or off the grid, or at the first token that is not a move, or at move n² + 1, past the budget).

import { stride, type MazeInstance } from './board';
import { MOVE_DELTAS, MOVE_NAMES } from './gen';
import { SPECIAL_TOKENS, EOS } from '../types';
import type { Cell, DecodedPath } from '../picture';

export type { Cell, DecodedPath };

/** Move index (U, D, L, R → 0..3) of a token, read through the vocabulary; −1 for any other token. */
export function moveOf(vocab: readonly string[], token: number): number {
  const text = token >= 0 && token < vocab.length ? vocab[token] : '';
  return (MOVE_NAMES as readonly string[]).indexOf(text);
}

/**
 * `stride`: completion positions per move — 1, or 2 when each move is followed by a note of the
 * cell it reached (maze answer = cells; the notes are not part of the walk).
 */
export function decodeMazePath(
  grid: readonly string[],
  start: Cell,
  vocab: readonly string[],
  completion: readonly number[],
  stride = 1,
): DecodedPath {
  const size = grid.length;
  const eosText = SPECIAL_TOKENS[EOS];
  const cells: Cell[] = [start];
  let moves = '';
  let [r, c] = start;
  let i = 0;
  for (; i < completion.length; i += stride) {
    const t = completion[i];
    if (t === EOS || vocab[t] === eosText) break;
    // The move budget is n² (size²): the slot after it must hold the end token.
    if (moves.length === size * size) return { cells, moves, broken: 'overbudget', stop: i };
    const m = moveOf(vocab, t);
    if (m < 0) return { cells, moves, broken: 'badtoken', stop: i };
    const rr = r + MOVE_DELTAS[m][0];
    const cc = c + MOVE_DELTAS[m][1];
    if (rr < 0 || rr >= size || cc < 0 || cc >= size) return { cells, moves, broken: 'offgrid', stop: i };
    if (grid[rr][cc] === '#') return { cells, moves, broken: 'wall', stop: i };
    [r, c] = [rr, cc];
    cells.push([r, c]);
    moves += MOVE_NAMES[m];
    // A note slot holding the end token ends the walk too.
    if (stride > 1 && i + 1 < completion.length && (completion[i + 1] === EOS || vocab[completion[i + 1]] === eosText))
      return { cells, moves, broken: null, stop: i + 1 };
  }
  return { cells, moves, broken: null, stop: i };
}

export function decodeInstancePath(
  inst: MazeInstance,
  vocab: readonly string[],
  completion: readonly number[],
): DecodedPath {
  return decodeMazePath(inst.grid, inst.start, vocab, completion.slice(0, inst.completionLength), stride(inst.params));
}

/**
 * Perpendicular offset (in cells) of path g of G, so overlapping paths stay visible: spread
 * evenly over [−spread/2, +spread/2], 0 for a single path.
 */
export function pathOffset(g: number, G: number, spread = 0.5): number {
  return G <= 1 ? 0 : (g / (G - 1) - 0.5) * spread;
}
