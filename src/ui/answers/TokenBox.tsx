// One token as a small box, coloured by the chosen colouring, its facts in the native tooltip.

import type { GroupCell } from './tokenCells';
import { tokenBox } from './styles';

/**
 * `short`: a special token (<bos>, <eos>, …) written by the policy shows as "∅", its name in the
 * tooltip — a narrow side panel has no room for "<bos>" in every column.
 */
export function TokenBox({
  cell,
  title,
  failure = false,
  short = false,
}: {
  cell: GroupCell;
  title?: string;
  failure?: boolean;
  short?: boolean;
}) {
  return (
    <span
      data-testid="token"
      data-kind={cell.kind}
      data-colour={cell.colour ?? 'none'}
      title={title ?? cell.title}
      style={tokenBox(cell, failure)}
    >
      {short && cell.special ? '∅' : cell.text}
    </span>
  );
}
