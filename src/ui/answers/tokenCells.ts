// The token boxes of one answer, in display form: the inspector's cells (kind, facts, colour,
// from inspector-data.ts) plus a readable text, a special-token flag and a plain-language tooltip.

import type { RolloutView } from '../../worker/protocol';
import { EOS, NUM_SPECIAL } from '../../tasks/types';
import { completionTokens, type ColourScale, type TokenCell } from '../views/inspector-data';

export interface GroupCell extends TokenCell {
  /** Token id. */
  token: number;
  /** The vocabulary text (what the model wrote). `text` is the display form. */
  raw: string;
  /** <pad>, <bos>, <sep>, <eos>: hidden by the view unless asked for. */
  special: boolean;
  /** After the answer's first <eos>: the verifier ignores it, so the view hides it unless asked for. */
  afterEnd: boolean;
  /** Native tooltip: the token and its facts. */
  title: string;
}

/** Display text of a (non-special) token, given its id and vocabulary text. */
export type DisplayText = (token: number, raw: string) => string;

export const rawText: DisplayText = (_token, raw) => raw;

export function isSpecialToken(token: number): boolean {
  return Number.isInteger(token) && token >= 0 && token < NUM_SPECIAL;
}

/** "+1.30", "-0.45", and "0.00" for anything that rounds to zero (no "-0.00"). */
export function signed(x: number, digits = 2): string {
  const text = x.toFixed(digits);
  if (Number(text) === 0) return (0).toFixed(digits);
  return x > 0 ? `+${text}` : text;
}

/** The cells of sequence n's completion region, coloured on `scale`. */
export function answerCells(r: RolloutView, n: number, scale: ColourScale, display: DisplayText): GroupCell[] {
  const { Lp, T } = r.shape;
  let end = Infinity;
  return completionTokens(r, n, scale).map((cell) => {
    const token = r.tokens[n * T + Lp + cell.c];
    const special = isSpecialToken(token);
    const afterEnd = cell.c > end;
    if (token === EOS && end === Infinity) end = cell.c;
    const out: GroupCell = {
      ...cell,
      token,
      raw: cell.text,
      text: special ? cell.text : display(token, cell.text),
      special,
      afterEnd,
      title: '',
    };
    out.title = cellTitle(out);
    return out;
  });
}

/** The tooltip: what the token is, who wrote it, and its numbers. */
export function cellTitle(cell: GroupCell): string {
  const name = cell.text === cell.raw ? `"${cell.raw}"` : `${cell.text} (token ${cell.raw})`;
  if (cell.kind === 'fixed') return `${name}: written by the environment, not trained`;
  if (cell.kind === 'untrained') {
    return `${name}: written by the model, not trained (${cell.afterEnd ? 'after its end' : 'masked'})`;
  }
  const lines = [`${name}: written by the model`];
  if (cell.logp !== undefined)
    lines.push(`log-prob ${cell.logp.toFixed(2)} (probability ${Math.exp(cell.logp).toFixed(2)})`);
  if (cell.entropy !== undefined) lines.push(`entropy ${cell.entropy.toFixed(2)} nats`);
  lines.push(
    cell.advantage !== undefined ? `advantage ${signed(cell.advantage)}` : 'advantage: after the advantages phase',
  );
  if (cell.ratio !== undefined) lines.push(`ratio π_new/π_old ${cell.ratio.toFixed(3)}`);
  return lines.join('\n');
}
