// Maze task view: each group's maze as an SVG grid with its G walks overlaid (correct green,
// incorrect red), start and goal marked. Renders nothing for other tasks.

import { useMemo } from 'react';
import type { RolloutView } from '../../worker/protocol';
import type { MazeInstance } from '../../tasks/maze';
import { completionOf } from '../../rl/rollout';
import { verdict } from './inspector-data';
import { decodeInstancePath, pathOffset, pathPoints, type DecodedPath } from './maze-paths';

export interface MazeViewProps {
  rollout: RolloutView;
}

const WALL = '#3a3f4b';
const CORRECT = '#1a7f37';
const WRONG = '#d1242f';
const PENDING = '#6b7280'; // before the verify phase

interface Walk {
  g: number;
  /** null before the verify phase. */
  correct: boolean | null;
  path: DecodedPath;
}

function MazeGrid({ inst, walks, px }: { inst: MazeInstance; walks: Walk[]; px: number }) {
  const size = inst.grid.length;
  const G = walks.length;
  const width = size * px;
  // Wrong walks first so the correct ones are drawn on top.
  const ordered = [...walks].sort((a, b) => Number(a.correct) - Number(b.correct));
  const [sr, sc] = inst.start;
  const [gr, gc] = inst.goal;
  return (
    <svg width={width} height={width} viewBox={`0 0 ${width} ${width}`} role="img" aria-label="maze with sampled walks" style={{ border: '1px solid #c8ccd6' }}>
      {inst.grid.map((row, r) =>
        [...row].map((ch, c) => (
          <rect key={`${r},${c}`} x={c * px} y={r * px} width={px} height={px} fill={ch === '#' ? WALL : '#fff'} stroke="#e4e6eb" strokeWidth={0.5} />
        )),
      )}
      <circle cx={(sc + 0.5) * px} cy={(sr + 0.5) * px} r={px * 0.38} fill="none" stroke="#2563eb" strokeWidth={2} />
      <text x={(sc + 0.5) * px} y={(sr + 0.5) * px} fontSize={px * 0.5} textAnchor="middle" dominantBaseline="central" fill="#2563eb">S</text>
      <rect x={(gc + 0.12) * px} y={(gr + 0.12) * px} width={px * 0.76} height={px * 0.76} fill="#fde68a" stroke="#b45309" />
      <text x={(gc + 0.5) * px} y={(gr + 0.5) * px} fontSize={px * 0.5} textAnchor="middle" dominantBaseline="central" fill="#b45309">G</text>
      {ordered.map(({ g, correct, path }) => {
        const colour = correct === null ? PENDING : correct ? CORRECT : WRONG;
        const off = pathOffset(g, G);
        const [er, ec] = path.cells[path.cells.length - 1];
        const ex = (ec + 0.5 + off) * px;
        const ey = (er + 0.5 + off) * px;
        const k = px * 0.15;
        return (
          <g key={g} data-testid="maze-path" data-correct={String(correct ?? 'pending')} data-moves={path.moves}>
            <title>{`g${g} ${correct === null ? 'not verified yet' : correct ? 'correct' : 'incorrect'}: ${path.moves || '(no moves)'}${path.broken ? ` — breaks: ${path.broken}` : ''}`}</title>
            <polyline points={pathPoints(path.cells, px, off)} fill="none" stroke={colour} strokeWidth={Math.max(1.5, px * 0.1)} strokeOpacity={0.75} strokeLinejoin="round" />
            {path.broken && <path d={`M${ex - k},${ey - k}L${ex + k},${ey + k}M${ex - k},${ey + k}L${ex + k},${ey - k}`} stroke={colour} strokeWidth={1.5} />}
          </g>
        );
      })}
    </svg>
  );
}

export function MazeView({ rollout }: MazeViewProps) {
  const groups = useMemo(() => {
    if (rollout.instances[0]?.task !== 'maze') return null;
    const { B, G } = rollout.shape;
    return Array.from({ length: B }, (_, b) => {
      const inst = rollout.instances[b] as MazeInstance;
      const walks: Walk[] = Array.from({ length: G }, (_, g) => {
        const n = b * G + g;
        return { g, correct: verdict(rollout, n), path: decodeInstancePath(inst, rollout.vocab, completionOf(rollout.tokens, n, rollout.shape)) };
      });
      return { b, inst, walks };
    });
  }, [rollout]);
  if (!groups) return null;
  return (
    <div data-testid="maze-view" style={{ display: 'flex', flexWrap: 'wrap', gap: 10 }}>
      {groups.map(({ b, inst, walks }) => {
        const px = Math.max(12, Math.floor(160 / inst.grid.length));
        const correct = walks.filter((w) => w.correct).length;
        const verified = walks.every((w) => w.correct !== null);
        return (
          <figure key={b} data-testid="maze" style={{ margin: 0, fontSize: 12 }}>
            <MazeGrid inst={inst} walks={walks} px={px} />
            <figcaption>
              #{b}: {verified ? `${correct}/${walks.length} reach G · ` : ''}shortest {inst.shortest}
            </figcaption>
          </figure>
        );
      })}
    </div>
  );
}
