// Inline styles of the group view. Sizes are in em, so the root's fontSize (default 15 px, big
// enough for a projector) scales everything; `compact` tightens the gaps for a side panel.
//
// Colour language: red/blue backgrounds are advantages (or the chosen colouring), ✓/✗ glyphs in
// dark ink are correctness. No green/red fills for right/wrong.

import type { CSSProperties } from 'react';
import type { GroupCell } from './tokenCells';

export const DEFAULT_FONT_SIZE = 15;

export const INK = '#1d2330';
export const MUTED = '#5f6675';
export const FAINT = '#8a8f98';
export const RULE = '#dde1e8';

export function rootStyle(fontSize: number, compact: boolean): CSSProperties {
  return {
    fontSize,
    color: INK,
    lineHeight: 1.45,
    display: 'flex',
    flexDirection: 'column',
    gap: compact ? '0.3em' : '0.6em',
    minWidth: 0,
  };
}

export const header: CSSProperties = { display: 'flex', flexDirection: 'column', gap: '0.15em' };
export const promptText: CSSProperties = { fontWeight: 600, overflowWrap: 'anywhere' };
export const muted: CSSProperties = { color: MUTED };
export const small: CSSProperties = { fontSize: '0.85em', color: MUTED };

/** Tables hug their content (the root is a flex column, which would stretch them). */
export function table(compact: boolean): CSSProperties {
  return {
    borderCollapse: 'separate',
    borderSpacing: compact ? '0.15em 0.1em' : '0.3em 0.2em',
    alignSelf: 'flex-start',
  };
}

export const cellTop: CSSProperties = { verticalAlign: 'middle', padding: 0 };
export const headCell: CSSProperties = {
  ...cellTop,
  fontWeight: 'normal',
  color: MUTED,
  textAlign: 'center',
  whiteSpace: 'nowrap',
};
export const rowLabel: CSSProperties = {
  ...cellTop,
  color: MUTED,
  textAlign: 'right',
  whiteSpace: 'nowrap',
  fontSize: '0.85em',
};
export const tokensCell: CSSProperties = { ...cellTop, lineHeight: 1.9 };

export function verdictStyle(correct: boolean | null): CSSProperties {
  return { ...cellTop, width: '1.2em', textAlign: 'center', fontWeight: 700, color: correct === null ? FAINT : INK };
}

const BOX: CSSProperties = {
  display: 'inline-block',
  minWidth: '1.5em',
  padding: '0 0.3em',
  marginRight: '0.15em',
  border: `1px solid #c3c8d2`,
  borderRadius: 4,
  textAlign: 'center',
  lineHeight: 1.5,
  fontVariantNumeric: 'tabular-nums',
  whiteSpace: 'nowrap',
};

/** A token box: sampled tokens carry the colouring; environment and untrained tokens stay plain. */
export function tokenBox(cell: GroupCell, failure: boolean): CSSProperties {
  const kind: CSSProperties =
    cell.kind === 'fixed'
      ? { background: '#f0f1f4', color: FAINT, borderStyle: 'dashed' }
      : cell.kind === 'untrained'
        ? { background: 'transparent', color: FAINT, borderStyle: 'dotted', textDecoration: 'line-through' }
        : { background: cell.colour ?? '#fff', color: cell.ink ?? INK };
  return {
    ...BOX,
    ...kind,
    ...(cell.special ? { fontSize: '0.8em' } : {}),
    ...(failure ? { outline: `2px solid ${INK}`, outlineOffset: 1 } : {}),
  };
}

export function advantageChip(colour: string | null, ink: string | null): CSSProperties {
  return {
    display: 'inline-block',
    whiteSpace: 'nowrap',
    fontVariantNumeric: 'tabular-nums',
    padding: '0 0.35em',
    borderRadius: 4,
    background: colour ?? 'transparent',
    color: colour ? (ink ?? INK) : FAINT,
  };
}

export const markGlyph: CSSProperties = {
  fontSize: '0.7em',
  fontWeight: 700,
  color: INK,
  marginLeft: '0.05em',
  verticalAlign: 'super',
};
/** In a side panel the mark sits on the box's top-right corner, half over its border: a chain of six y's fits 365 px (A+ at 1024×768). */
export const compactMarkHost: CSSProperties = {
  position: 'relative',
  display: 'inline-block',
  whiteSpace: 'nowrap',
  paddingRight: '0.3em',
};
export const compactMarkGlyph: CSSProperties = {
  ...markGlyph,
  position: 'absolute',
  right: '-0.2em',
  top: '-0.2em',
  marginLeft: 0,
  verticalAlign: 'baseline',
  lineHeight: 1,
};
