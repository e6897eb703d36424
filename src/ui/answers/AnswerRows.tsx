// The answers of one group as rows: ✓/✗, the tokens (the failing one marked), A, reward and note.
// Compact (the side panel) keeps the tokens on one line: the first few shown, the note on hover
// (a maze's board draws where each walk failed), so four rows fit under the board.

import {
  cappedCells,
  COMPACT_ROW_TOKENS,
  correctAttr,
  verdictGlyph,
  visibleCells,
  type GroupAnswer,
} from './groupData';
import { TokenBox } from './TokenBox';
import * as S from './styles';

function AnswerRow({ answer, showSpecial, compact }: { answer: GroupAnswer; showSpecial: boolean; compact: boolean }) {
  const cells = visibleCells(answer.cells, showSpecial);
  const { shown, more } = cappedCells(cells, compact ? COMPACT_ROW_TOKENS : Infinity);
  const rewardNote = compact ? answer.rewardText : [answer.rewardText, answer.note].filter((x) => x).join(' · ');
  return (
    <tr
      data-testid="completion"
      data-correct={correctAttr(answer.correct)}
      title={compact && answer.note ? answer.note : undefined}
    >
      <td style={S.verdictStyle(answer.correct)}>{verdictGlyph(answer.correct)}</td>
      <td style={S.rowLabel}>{answer.g + 1}</td>
      <td style={S.tokensCell}>
        {shown.map((cell) => (
          <TokenBox key={cell.c} cell={cell} failure={cell.c === answer.failureAt} short={!showSpecial} />
        ))}
        {more > 0 && (
          <span
            data-testid="more-tokens"
            style={S.small}
            title={cells.map((c) => c.text).join(' ')}
          >{` +${more}`}</span>
        )}
      </td>
      <td style={S.cellTop}>
        <span style={S.advantageChip(answer.advantageColour, answer.advantageInk)}>{answer.advantageText}</span>
      </td>
      <td style={{ ...S.cellTop, ...S.small }}>{rewardNote}</td>
    </tr>
  );
}

export function AnswerRows({
  answers,
  showSpecial,
  compact,
}: {
  answers: GroupAnswer[];
  showSpecial: boolean;
  compact: boolean;
}) {
  return (
    <table style={S.table(compact)}>
      <tbody>
        {answers.map((a) => (
          <AnswerRow key={a.g} answer={a} showSpecial={showSpecial} compact={compact} />
        ))}
      </tbody>
    </table>
  );
}
