// What the rollout inspector shows, computed from a RolloutView as plain data (no React), so
// it is unit-tested in Node and the component only lays it out.
//
// Index spaces (src/rl/rollout.ts): sequence n = b·G + g has T = Lp + Lc tokens; completion
// position c is token Lp + c, and completion-space arrays are indexed n·Lc + c.

import type { RolloutView } from '../../worker/protocol';
import { css, divergingRgb, sequentialRgb, symmetricBound, textOn, type Rgb } from './colour';

export type ColourBy = 'advantage' | 'entropy' | 'ratio';

/**
 * A RolloutView; its `ratio` ([N·Lc], π_new/π_old after the update, 1 where untrained) is
 * present once a step's update has run and the trainer collects ratios (the worker does).
 */
export type InspectorRollout = RolloutView;

/**
 * fixed: written by the environment (prompt or template); sampled: a trained policy token;
 * untrained: sampled by the policy but not trained (after its EOS, or a masked truncation).
 */
export type TokenKind = 'fixed' | 'sampled' | 'untrained';

export interface TokenCell {
  text: string;
  /** Position in the sequence (Lp + c). */
  pos: number;
  /** Position in the completion region. */
  c: number;
  kind: TokenKind;
  /** Facts of sampled tokens only. */
  logp?: number;
  entropy?: number;
  advantage?: number;
  ratio?: number;
  /** CSS background, or null for no colour (fixed and untrained tokens, or no data yet). */
  colour: string | null;
  /** CSS text colour that reads on the background. */
  ink: string | null;
}

export interface CompletionRowData {
  n: number;
  g: number;
  /** null before the verify phase. */
  reward: number | null;
  correct: boolean | null;
  seqAdvantage?: number;
  tokens: TokenCell[];
}

export interface GroupData {
  b: number;
  promptText: string;
  rows: CompletionRowData[];
}

export interface ColourScale {
  by: ColourBy;
  /** Data for this colouring exists in the rollout. */
  available: boolean;
  kind: 'diverging' | 'sequential';
  /** Diverging: the colour saturates at ±bound (of the value, or of log ratio); sequential: at max. */
  bound: number;
  /** One line for the legend. */
  label: string;
}

export interface InspectorData {
  step: number;
  scale: ColourScale;
  /** Which colourings the rollout has data for. */
  available: Record<ColourBy, boolean>;
  groups: GroupData[];
}

/** Rewards exist from the verify phase on (a view after 'sample' carries zeros). */
export function isVerified(r: RolloutView): boolean {
  return r.phase !== 'sample';
}

/** Correctness of sequence n, or null before the verify phase. */
export function verdict(r: RolloutView, n: number): boolean | null {
  return isVerified(r) ? r.correct[n] === 1 : null;
}

export function tokenText(vocab: readonly string[], t: number): string {
  return t >= 0 && t < vocab.length ? vocab[t] : `<?${t}>`;
}

export function availableColourings(r: InspectorRollout): Record<ColourBy, boolean> {
  return { advantage: r.advantages !== undefined, entropy: true, ratio: r.ratio !== undefined };
}

export function colourScale(r: InspectorRollout, by: ColourBy): ColourScale {
  const available = availableColourings(r)[by];
  if (by === 'entropy') {
    // Absolute scale: white = certain, full purple = uniform over the vocabulary (ln V nats).
    const max = Math.log(Math.max(2, r.vocab.length));
    return { by, available, kind: 'sequential', bound: max, label: `entropy 0 … ln V = ${max.toFixed(2)} nats` };
  }
  // Diverging scales, symmetric about the neutral value: advantage 0, log ratio 0.
  const adv = by === 'advantage';
  const values = adv ? r.advantages : r.ratio && Array.from(r.ratio, (v) => Math.log(v));
  const bound = values ? symmetricBound(values, r.mask) : 0;
  const label = !available
    ? `${by}: ${adv ? 'after the advantages phase' : 'after the update'}`
    : adv
      ? `advantage: red −${fmt(bound)} · white 0 · blue +${fmt(bound)}`
      : `ratio: red ${fmt(Math.exp(-bound))} · white 1 · blue ${fmt(Math.exp(bound))}`;
  return { by, available, kind: 'diverging', bound, label };
}

function fmt(x: number): string {
  return Math.abs(x) >= 100 || (x !== 0 && Math.abs(x) < 0.01) ? x.toExponential(1) : x.toFixed(2);
}

function cellColour(cell: TokenCell, scale: ColourScale): Rgb | null {
  if (cell.kind !== 'sampled' || !scale.available) return null;
  if (scale.by === 'entropy') return sequentialRgb(cell.entropy ?? 0, scale.bound);
  if (scale.by === 'advantage') return cell.advantage === undefined ? null : divergingRgb(cell.advantage, scale.bound);
  return cell.ratio === undefined ? null : divergingRgb(Math.log(cell.ratio), scale.bound);
}

/** The completion tokens of sequence n, with their facts and colours. */
export function completionTokens(r: InspectorRollout, n: number, scale: ColourScale): TokenCell[] {
  const { G, Lp, Lc, T } = r.shape;
  const inst = r.instances[Math.floor(n / G)];
  const cells: TokenCell[] = [];
  for (let c = 0; c < Lc; c++) {
    const j = n * Lc + c;
    const f = inst.fixed[c];
    const kind: TokenKind = f !== null && f !== undefined ? 'fixed' : r.mask[j] ? 'sampled' : 'untrained';
    const cell: TokenCell = {
      text: tokenText(r.vocab, r.tokens[n * T + Lp + c]),
      pos: Lp + c,
      c,
      kind,
      colour: null,
      ink: null,
    };
    if (kind === 'sampled') {
      cell.logp = r.logp[j];
      cell.entropy = r.entropy[j];
      if (r.advantages) cell.advantage = r.advantages[j];
      if (r.ratio) cell.ratio = r.ratio[j];
    }
    const rgb = cellColour(cell, scale);
    if (rgb) {
      cell.colour = css(rgb);
      cell.ink = textOn(rgb);
    }
    cells.push(cell);
  }
  return cells;
}

export function inspectorData(r: InspectorRollout, by: ColourBy): InspectorData {
  const { B, G } = r.shape;
  const scale = colourScale(r, by);
  const groups: GroupData[] = [];
  for (let b = 0; b < B; b++) {
    const rows: CompletionRowData[] = [];
    for (let g = 0; g < G; g++) {
      const n = b * G + g;
      rows.push({
        n,
        g,
        reward: isVerified(r) ? r.rewards[n] : null,
        correct: verdict(r, n),
        seqAdvantage: r.seqAdvantages?.[n],
        tokens: completionTokens(r, n, scale),
      });
    }
    groups.push({ b, promptText: r.instances[b].promptText, rows });
  }
  return { step: r.step, scale, available: availableColourings(r), groups };
}

/** The hover text of one token. */
export function tokenTitle(cell: TokenCell): string {
  const lines = [`"${cell.text}" at position ${cell.pos} (completion ${cell.c})`];
  if (cell.kind === 'fixed') lines.push('written by the environment');
  else if (cell.kind === 'untrained') lines.push('sampled, not trained (after the end or masked)');
  else {
    lines.push('sampled by the policy');
    if (cell.logp !== undefined) lines.push(`logp ${cell.logp.toFixed(3)} (p ${Math.exp(cell.logp).toFixed(3)})`);
    if (cell.entropy !== undefined) lines.push(`entropy ${cell.entropy.toFixed(3)} nats`);
    lines.push(cell.advantage !== undefined ? `advantage ${cell.advantage.toFixed(3)}` : 'advantage: not yet computed');
    if (cell.ratio !== undefined) lines.push(`ratio ${cell.ratio.toFixed(3)}`);
  }
  return lines.join('\n');
}
