// The answers of one group as rows: ✓/✗, the tokens (the failing one marked), A, reward and note.

import { cappedCells, COMPACT_ROW_TOKENS, correctAttr, verdictGlyph, visibleCells, type GroupAnswer } from './groupData';
import { TokenBox } from './TokenBox';
import * as S from './styles';

function AnswerRow({ answer, showSpecial, compact }: { answer: GroupAnswer; showSpecial: boolean; compact: boolean }) {
  const cells = visibleCells(answer.cells, showSpecial);
  const { shown, more } = cappedCells(cells, compact ? COMPACT_ROW_TOKENS : Infinity);
  return (
    <tr data-testid="completion" data-correct={correctAttr(answer.correct)}>
      <td style={S.verdictStyle(answer.correct)}>{verdictGlyph(answer.correct)}</td>
      <td style={S.rowLabel}>{answer.g + 1}</td>
      <td style={S.tokensCell}>
        {shown.map((cell) => (
          <TokenBox key={cell.c} cell={cell} failure={cell.c === answer.failureAt} short={!showSpecial} />
        ))}
        {more > 0 && (
          <span data-testid="more-tokens" style={S.small} title={cells.map((c) => c.text).join(' ')}>{` +${more}`}</span>
        )}
      </td>
      <td style={S.cellTop}><span style={S.advantageChip(answer.advantageColour, answer.advantageInk)}>{answer.advantageText}</span></td>
      <td style={{ ...S.cellTop, ...S.small }}>
        {[answer.rewardText, answer.note].filter((x) => x).join(' · ')}
      </td>
    </tr>
  );
}

export function AnswerRows({ answers, showSpecial, compact }: { answers: GroupAnswer[]; showSpecial: boolean; compact: boolean }) {
  return (
    <table style={S.table(compact)}>
      <tbody>
        {answers.map((a) => <AnswerRow key={a.g} answer={a} showSpecial={showSpecial} compact={compact} />)}
      </tbody>
    </table>
  );
}
