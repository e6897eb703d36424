// One token as a small box, coloured by the chosen colouring, its facts in the native tooltip.

import type { GroupCell } from './tokenCells';
import { tokenBox } from './styles';

export function TokenBox({ cell, title, failure = false }: { cell: GroupCell; title?: string; failure?: boolean }) {
  return (
    <span
      data-testid="token"
      data-kind={cell.kind}
      data-colour={cell.colour ?? 'none'}
      title={title ?? cell.title}
      style={tokenBox(cell, failure)}
    >
      {cell.text}
    </span>
  );
}
