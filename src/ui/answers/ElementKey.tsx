// The element key of a chain picture: every display name (its permutation or quaternion on
// hover) and a one-line legend (in the tooltip only when compact).

import type { ElementDisplay } from '../../tasks/picture';
import { INK, small } from './styles';

export interface ElementKeyProps {
  /** Group parameter name, e.g. "S3". */
  group: string;
  /** Its elements' names, hover texts and legend (the chain picture's). */
  display: ElementDisplay;
  /** Font size in px; default 0.85 em of the surrounding text. */
  fontSize?: number;
  /** Names only; the legend moves into the tooltip. */
  compact?: boolean;
}

/** In the compact key a larger group lists this many names, then how many there are in all. */
const COMPACT_NAMES = 12;

export function ElementKey({ group, display: d, fontSize, compact = false }: ElementKeyProps) {
  // A5's 60 or S5's 120 names would overflow the side panel's one line.
  const shown = compact && d.order.length > COMPACT_NAMES ? d.order.slice(0, COMPACT_NAMES - 1) : d.order;
  return (
    <div data-testid="element-key" style={{ ...small, fontSize: fontSize ?? small.fontSize }}>
      <span style={{ marginRight: '0.6em' }} title={compact ? d.key : undefined}>
        {group}:{' '}
        {shown.map((i) => (
          <span key={i} title={d.describe[i]} style={{ marginRight: '0.45em', color: INK, cursor: 'help' }}>
            {d.names[i]}
          </span>
        ))}
        {shown.length < d.order.length && <span>{`… ${d.order.length} in all`}</span>}
      </span>
      {!compact && <span>{d.key}</span>}
    </div>
  );
}
