// The rollout inspector: the latest step's B groups, each prompt with its G completions, tokens
// coloured by advantage, entropy or importance ratio. Plain spans, native tooltips, no animation.

import { memo, useId, useMemo, useState, type CSSProperties } from 'react';
import {
  inspectorData,
  tokenTitle,
  type ColourBy,
  type CompletionRowData,
  type GroupData,
  type InspectorRollout,
  type TokenCell,
} from './inspector-data';

export type { ColourBy, InspectorRollout } from './inspector-data';

export interface RolloutInspectorProps {
  rollout: InspectorRollout;
  /** Controlled colouring; without it the inspector keeps its own (default 'advantage'). */
  colourBy?: ColourBy;
  onColourByChange?: (by: ColourBy) => void;
}

const COLOURINGS: { by: ColourBy; label: string; unavailable: string }[] = [
  { by: 'advantage', label: 'advantage', unavailable: 'advantage: after the advantages phase' },
  { by: 'entropy', label: 'entropy', unavailable: 'entropy' },
  { by: 'ratio', label: 'ratio', unavailable: 'ratio: after the update' },
];

const S = {
  root: { fontSize: 13 },
  bar: { display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap' as const, marginBottom: 6 },
  legend: { color: '#556' },
  group: { border: '1px solid #dde', borderRadius: 4, padding: '4px 6px', marginBottom: 6, background: '#fff' },
  prompt: { fontFamily: 'monospace', color: '#445', marginBottom: 2, overflowWrap: 'anywhere' as const },
  row: { display: 'flex', gap: 8, alignItems: 'baseline', fontFamily: 'monospace' },
  meta: { minWidth: 150, whiteSpace: 'nowrap' as const, color: '#445' },
  tokens: { overflowWrap: 'anywhere' as const, lineHeight: 1.7 },
  ok: { color: '#1a7f37', fontWeight: 600 },
  bad: { color: '#b00020' },
};

const TOKEN: CSSProperties = { padding: '0 2px', marginRight: 1, borderRadius: 2 };
const FIXED_TOKEN: CSSProperties = { ...TOKEN, color: '#99a', background: '#f0f0f3' };
const UNTRAINED_TOKEN: CSSProperties = { ...TOKEN, color: '#bbc', textDecoration: 'line-through' };

function tokenStyle(cell: TokenCell): CSSProperties {
  if (cell.kind === 'fixed') return FIXED_TOKEN;
  if (cell.kind === 'untrained') return UNTRAINED_TOKEN;
  return { ...TOKEN, background: cell.colour ?? undefined, color: cell.ink ?? undefined };
}

function Token({ cell }: { cell: TokenCell }) {
  return (
    <span
      data-testid="token"
      data-kind={cell.kind}
      data-colour={cell.colour ?? 'none'}
      title={tokenTitle(cell)}
      style={tokenStyle(cell)}
    >
      {cell.text}
    </span>
  );
}

function CompletionRow({ row }: { row: CompletionRowData }) {
  return (
    <div data-testid="completion" data-correct={String(row.correct ?? 'pending')} style={S.row}>
      <span style={S.meta}>
        {row.correct === null ? (
          <span title="not verified yet">·</span>
        ) : (
          <span style={row.correct ? S.ok : S.bad} title={row.correct ? 'correct' : 'incorrect'}>
            {row.correct ? '✓' : '✗'}
          </span>
        )}
        {` g${row.g} r=${row.reward === null ? '…' : row.reward.toFixed(2)}`}
        {row.seqAdvantage !== undefined ? ` A=${row.seqAdvantage >= 0 ? '+' : ''}${row.seqAdvantage.toFixed(2)}` : ''}
      </span>
      <span style={S.tokens}>
        {row.tokens.map((cell) => (
          <Token key={cell.c} cell={cell} />
        ))}
      </span>
    </div>
  );
}

function Group({ group }: { group: GroupData }) {
  const correct = group.rows.filter((r) => r.correct).length;
  const verified = group.rows.every((r) => r.correct !== null);
  return (
    <div data-testid="group" style={S.group}>
      <div style={S.prompt}>
        <b>#{group.b}</b> {group.promptText}{' '}
        {verified && (
          <span style={S.legend}>
            ({correct}/{group.rows.length} correct)
          </span>
        )}
      </div>
      {group.rows.map((row) => (
        <CompletionRow key={row.n} row={row} />
      ))}
    </div>
  );
}

// The groups only change with the rollout and the colouring; memo keeps a parent re-render cheap.
const Groups = memo(function Groups({ groups }: { groups: GroupData[] }) {
  return (
    <>
      {groups.map((g) => (
        <Group key={g.b} group={g} />
      ))}
    </>
  );
});

export function RolloutInspector({ rollout, colourBy, onColourByChange }: RolloutInspectorProps) {
  const name = useId();
  const [own, setOwn] = useState<ColourBy>('advantage');
  const by = colourBy ?? own;
  const data = useMemo(() => inspectorData(rollout, by), [rollout, by]);
  const choose = (next: ColourBy): void => {
    setOwn(next);
    onColourByChange?.(next);
  };
  return (
    <div data-testid="inspector" style={S.root}>
      <div style={S.bar}>
        <b>step {data.step}</b>
        <span role="radiogroup" aria-label="colour tokens by">
          {COLOURINGS.map(({ by: option, label, unavailable }) => {
            const enabled = data.available[option];
            return (
              <label key={option} style={{ marginRight: 8, color: enabled ? undefined : '#99a' }}>
                <input
                  type="radio"
                  name={name}
                  value={option}
                  data-testid={`colour-${option}`}
                  checked={by === option}
                  disabled={!enabled}
                  onChange={() => choose(option)}
                />
                {enabled ? label : unavailable}
              </label>
            );
          })}
        </span>
        <span style={S.legend} data-testid="legend">
          {data.scale.label}
        </span>
        <span style={S.legend}>
          <span style={FIXED_TOKEN}>grey</span> written by the environment · <span style={UNTRAINED_TOKEN}>struck</span>{' '}
          not trained
        </span>
      </div>
      <Groups groups={data.groups} />
    </div>
  );
}
