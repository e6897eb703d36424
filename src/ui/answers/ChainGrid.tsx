// A chain picture: one grid per group. Columns are the chain x₁ … x_k; under it the running
// product each y should hold; then one row per answer with its y's in the columns they belong to,
// each coloured by the chosen colouring and marked ✓/✗ against its running product.

import type { GroupAnswer } from './groupData';
import { correctAttr, verdictGlyph } from './groupData';
import type { ChainData, ChainRowCells, ScratchCell } from './chainData';
import { TokenBox } from './TokenBox';
import * as S from './styles';

const MARK_GLYPH = { match: '✓', wrong: '✗', missing: '✗' } as const;

/** A y box and its ✓/✗ mark; the mark waits for the verify phase, like every other verdict. */
function ScratchBox({ m, judged, compact }: { m: ScratchCell; judged: boolean; compact: boolean }) {
  return (
    <span data-testid="scratch-token" data-mark={m.mark} style={compact ? S.compactMarkHost : { whiteSpace: 'nowrap' }}>
      <TokenBox cell={m.cell} title={m.title} short={compact} />
      {judged && (
        <span style={compact ? S.compactMarkGlyph : S.markGlyph} aria-label={m.mark}>
          {MARK_GLYPH[m.mark]}
        </span>
      )}
    </span>
  );
}

function AnswerRow({
  answer,
  row,
  data,
  compact,
}: {
  answer: GroupAnswer;
  row: ChainRowCells;
  data: ChainData;
  compact: boolean;
}) {
  const byColumn = new Map(row.scratch.map((m) => [m.column, m] as const));
  return (
    <tr data-testid="completion" data-correct={correctAttr(answer.correct)}>
      <td style={S.verdictStyle(answer.correct)}>{verdictGlyph(answer.correct)}</td>
      <td style={S.rowLabel}>{answer.g + 1}</td>
      {data.chain.map((col) => {
        const m = byColumn.get(col.t);
        return (
          <td key={col.t} style={{ ...S.cellTop, textAlign: 'center' }}>
            {m && <ScratchBox m={m} judged={answer.correct !== null} compact={compact} />}
          </td>
        );
      })}
      <td style={S.cellTop}>
        {/* A side panel has no room for "A = " on every row: the column is headed A instead. */}
        <span style={S.advantageChip(answer.advantageColour, answer.advantageInk)}>
          {compact ? answer.advantageText.replace(/^A = /, '') : answer.advantageText}
        </span>
      </td>
      {data.hasScratchpad && !compact && (
        <td style={{ ...S.cellTop, ...S.small }} title={row.alignment?.title}>
          {answer.correct !== null && row.alignment?.text}
        </td>
      )}
      {answer.rewardText && <td style={{ ...S.cellTop, ...S.small }}>{answer.rewardText}</td>}
    </tr>
  );
}

export function ChainGrid({ data, answers, compact }: { data: ChainData; answers: GroupAnswer[]; compact: boolean }) {
  return (
    <table data-testid="chain-grid" style={S.table(compact)}>
      <thead>
        <tr>
          <th style={S.rowLabel} colSpan={2}>
            chain
          </th>
          {data.chain.map((col) => (
            <th key={col.t} style={S.headCell} title={`${col.label} = ${col.name}: ${col.describe}`}>
              <div style={{ fontSize: '0.75em' }}>{col.label}</div>
              <div style={{ color: S.INK, fontWeight: 600 }}>{col.name}</div>
            </th>
          ))}
        </tr>
        <tr>
          <th style={S.rowLabel} colSpan={2} title="the running product each y should hold">
            should be
          </th>
          {data.chain.map((col) => (
            <th
              key={col.t}
              style={{ ...S.headCell, color: S.INK, borderTop: `1px solid ${S.RULE}` }}
              title={col.target ? `${col.target.label} should be ${col.target.prefix} = ${col.target.name}` : undefined}
            >
              {col.target?.name ?? ''}
            </th>
          ))}
          {compact && (
            <th style={S.headCell} title="the answer's advantage">
              A
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {answers.map((a) => (
          <AnswerRow key={a.g} answer={a} row={data.rows[a.g]} data={data} compact={compact} />
        ))}
      </tbody>
    </table>
  );
}
