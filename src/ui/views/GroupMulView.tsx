// groupmul task view: each prompt's chain, the running products a scratchpad should hold, and
// every completion's scratchpad marked ✓/✗ token by token, with its CoT alignment. Renders
// nothing for other tasks.

import { useMemo } from 'react';
import type { RolloutView } from '../../worker/protocol';
import { groupmulTask, type GroupMulInstance } from '../../tasks/groupmul';
import { completionOf } from '../../rl/rollout';
import { verdict } from './inspector-data';
import { alignment, markScratchpad, scratchTargets, type Mark, type ScratchTargets, type ScratchToken } from './groupmul-marks';

export interface GroupMulViewProps {
  rollout: RolloutView;
}

const MARK_STYLE: Record<Mark, { background: string; color: string; sign: string }> = {
  match: { background: '#dcfce7', color: '#14532d', sign: '✓' },
  wrong: { background: '#fee2e2', color: '#7f1d1d', sign: '✗' },
  missing: { background: '#f3f4f6', color: '#6b7280', sign: '✗' },
};

const CELL = { padding: '1px 5px', fontFamily: 'monospace', textAlign: 'center' as const, whiteSpace: 'nowrap' as const };
const HEAD = { ...CELL, color: '#556', fontWeight: 'normal' as const };
const pct = (x: number | undefined): string => (x === undefined ? '—' : `${Math.round(100 * x)}%`);

interface Row {
  g: number;
  /** null before the verify phase. */
  correct: boolean | null;
  marks: ScratchToken[];
}

interface GroupData {
  b: number;
  inst: GroupMulInstance;
  targets: ScratchTargets;
  rows: Row[];
  /** The task's group metrics: cot_alignment_prefix / cot_alignment_suffix. */
  metrics: Record<string, number>;
}

function ScratchCell({ m, names }: { m: ScratchToken; names: readonly string[] }) {
  const s = MARK_STYLE[m.mark];
  const got = m.got >= 0 ? names[m.got] : '—';
  const title = `y${m.j + 1} = ${got}; running product of x1…x${m.prefixLength} = ${names[m.target]} (${m.mark})`;
  return (
    <td data-testid="scratch-token" data-mark={m.mark} title={title} style={{ ...CELL, background: s.background, color: s.color }}>
      {got} {s.sign}
    </td>
  );
}

function GroupTable({ group }: { group: GroupData }) {
  const { b, inst, targets, rows, metrics } = group;
  const names = inst.elementNames;
  return (
    <div data-testid="groupmul-group" style={{ marginBottom: 8 }}>
      <div style={{ fontFamily: 'monospace', fontSize: 12, marginBottom: 2 }}>
        <b>#{b}</b> {inst.group}: {inst.chain.map((x) => names[x]).join(' · ')} = <b>{names[inst.answer]}</b>
        <span style={{ color: '#556' }}>
          {' '}· CoT alignment prefix {pct(metrics.cot_alignment_prefix)}, suffix {pct(metrics.cot_alignment_suffix)}
        </span>
      </div>
      <table style={{ borderCollapse: 'collapse', fontSize: 12 }}>
        <thead>
          <tr>
            <th style={HEAD} />
            {targets.targets.map((_, j) => <th key={j} style={HEAD}>y{j + 1}</th>)}
            <th style={HEAD}>aligned</th>
          </tr>
          <tr>
            <th style={HEAD} title="the running product of the prefix each y should hold">target</th>
            {targets.targets.map((t, j) => (
              <th key={j} style={HEAD} title={`x1…x${targets.prefixLengths[j]}`}>{names[t]}</th>
            ))}
            <th style={HEAD} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.g} data-testid="groupmul-completion" data-correct={String(r.correct ?? 'pending')}>
              <td
                style={{ ...CELL, color: r.correct === null ? '#6b7280' : r.correct ? '#1a7f37' : '#b00020' }}
                title={r.correct === null ? 'not verified yet' : r.correct ? 'correct product' : 'wrong product'}
              >
                g{r.g} {r.correct === null ? '·' : r.correct ? '✓' : '✗'}
              </td>
              {r.marks.map((m) => <ScratchCell key={m.j} m={m} names={names} />)}
              <td style={CELL}>{pct(alignment(r.marks))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function GroupMulView({ rollout }: GroupMulViewProps) {
  const groups = useMemo((): GroupData[] | null => {
    if (rollout.instances[0]?.task !== 'groupmul') return null;
    const { B, G } = rollout.shape;
    return Array.from({ length: B }, (_, b) => {
      const inst = rollout.instances[b] as GroupMulInstance;
      const targets = scratchTargets(inst);
      const completions: number[][] = [];
      const rows: Row[] = Array.from({ length: G }, (_, g) => {
        const n = b * G + g;
        const comp = completionOf(rollout.tokens, n, rollout.shape);
        completions.push(comp);
        return { g, correct: verdict(rollout, n), marks: markScratchpad(inst, comp, targets) };
      });
      return { b, inst, targets, rows, metrics: groupmulTask.groupMetrics?.(inst, completions) ?? {} };
    });
  }, [rollout]);
  if (!groups) return null;
  return (
    <div data-testid="groupmul-view">
      {groups.map((g) => <GroupTable key={g.b} group={g} />)}
    </div>
  );
}
