// maze: the grid as SVG (walls, S, G) with the group's walks drawn over it, each in the colour of
// its advantage, and one mark per end point: ✓ at the goal, ✗ where walks failed (with a count).

import { pathPoints, type BoardPicture, type BoardWalk, type MazeMarker } from '../../tasks/picture';
import { walkColour, walkDrawOrder } from './boardDraw';
import { correctAttr } from './groupData';
import { INK } from './styles';
import { signed } from './tokenCells';

/** SVG coordinates to 0.1 px: shorter markup, no visible difference. */
const px1 = (x: number): number => Math.round(x * 10) / 10;

/** Room around the grid, in cells, so that marks on the outer edge (walks off the grid) show. */
const MARGIN = 0.6;
const WALL = '#3a3f4b';
const GOAL_FILL = '#fde68a';

/** Cell size in px: the board is about 20 em wide (10 em compact: room under it for four answers), cells 14…44 px. */
export function mazeCellPx(size: number, fontSize: number, compact: boolean): number {
  const board = fontSize * (compact ? 10 : 20);
  return Math.max(14, Math.min(44, Math.floor(board / size)));
}

function Walk({ walk, px }: { walk: BoardWalk; px: number }) {
  const verdict = walk.correct === null ? 'not checked yet' : walk.correct ? 'right' : 'wrong';
  const a = walk.advantage === undefined ? 'A not computed yet' : `A = ${signed(walk.advantage)}`;
  return (
    <g data-testid="maze-path" data-correct={correctAttr(walk.correct)} data-g={walk.g} data-moves={walk.path.moves}>
      <title>{walk.title ?? `answer ${walk.g + 1} (${verdict}, ${a}): ${walk.summary}`}</title>
      <polyline
        points={pathPoints(walk.path.cells, px, walk.offset)}
        fill="none"
        stroke={walkColour(walk.tone)}
        strokeWidth={px1(Math.max(2, px * 0.12) * (walk.weight ?? 1))}
        strokeOpacity={0.9}
        strokeLinejoin="round"
        strokeLinecap="round"
        strokeDasharray={walk.correct === null ? `${px1(px * 0.25)} ${px1(px * 0.15)}` : undefined}
      />
    </g>
  );
}

/** A glyph with a white halo, so that it reads on walls and on paths alike. */
function Glyph({ x, y, size, text }: { x: number; y: number; size: number; text: string }) {
  return (
    <text
      x={px1(x)}
      y={px1(y)}
      fontSize={px1(size)}
      fontWeight={700}
      textAnchor="middle"
      dominantBaseline="central"
      fill={INK}
      stroke="#fff"
      strokeWidth={px1(size * 0.18)}
      paintOrder="stroke"
    >
      {text}
    </text>
  );
}

function Marker({ m, px }: { m: MazeMarker; px: number }) {
  const x = m.x * px;
  const y = m.y * px;
  return (
    <g
      data-testid={m.kind === 'goal' ? 'maze-goal' : 'maze-failure'}
      data-count={m.count}
      data-kind={m.kinds.join(' ')}
    >
      <title>{m.title}</title>
      {m.stub && (
        <line
          x1={px1(m.stub.x1 * px)}
          y1={px1(m.stub.y1 * px)}
          x2={px1(m.stub.x2 * px)}
          y2={px1(m.stub.y2 * px)}
          stroke={INK}
          strokeWidth={px1(Math.max(1.5, px * 0.07))}
          strokeLinecap="round"
        />
      )}
      <Glyph x={x} y={y} size={px * 0.55} text={m.kind === 'goal' ? '✓' : '✗'} />
      {m.countAt && <Glyph x={m.countAt.x * px} y={m.countAt.y * px} size={px * 0.36} text={`×${m.count}`} />}
    </g>
  );
}

export function MazeBoard({ data, px }: { data: BoardPicture; px: number }) {
  const side = px1((data.size + 2 * MARGIN) * px);
  const [sr, sc] = data.start;
  const [gr, gc] = data.goal;
  return (
    <svg
      data-testid="maze-board"
      width={side}
      height={side}
      viewBox={`0 0 ${side} ${side}`}
      role="img"
      aria-label={`maze with ${data.walks.length} walks`}
      style={{ flex: 'none' }}
    >
      <g transform={`translate(${px1(MARGIN * px)}, ${px1(MARGIN * px)})`}>
        {data.grid.map((row, r) =>
          [...row].map((ch, c) => (
            <rect
              key={`${r},${c}`}
              x={c * px}
              y={r * px}
              width={px}
              height={px}
              fill={ch === '#' ? WALL : '#fff'}
              stroke="#e4e6eb"
              strokeWidth={0.5}
            />
          )),
        )}
        <rect x={gc * px + 1} y={gr * px + 1} width={px - 2} height={px - 2} fill={GOAL_FILL} />
        <circle
          cx={(sc + 0.5) * px}
          cy={(sr + 0.5) * px}
          r={px1(px * 0.4)}
          fill="none"
          stroke={INK}
          strokeWidth={1.5}
        />
        <Glyph x={(sc + 0.5) * px} y={(sr + 0.5) * px} size={px * 0.5} text="S" />
        <Glyph x={(gc + 0.5) * px} y={(gr + 0.5) * px} size={px * 0.5} text="G" />
        {walkDrawOrder(data.walks).map((w) => (
          <Walk key={w.g} walk={w} px={px} />
        ))}
        {data.markers.map((m) => (
          <Marker key={`${m.kind}${m.x},${m.y}`} m={m} px={px} />
        ))}
      </g>
    </svg>
  );
}
