// An SVG line chart with fixed, caller-chosen domains (no auto-scaling, no animation): axes with
// titles, round ticks, grid, series (line, staircase, markers, bands), reference lines, a hover
// rule with a tooltip, and click-to-pick. All geometry lives in ./geometry.ts.

import { memo, useId, useMemo, useState, type MouseEvent } from 'react';
import { formatNumber } from '../format';
import {
  bandPath, linePath, pickX, plotLayout, pointsInside, spacedLabels, stepPath, textWidth, tooltipBox, tooltipRows,
  trianglePath, type PlotLayout, type PlotPoint, type PlotSeries,
} from './geometry';
import { Axes, AxisTitles, TEXT_COLOR } from './Axes';

export type { PlotPoint, PlotSeries };

export interface PlotProps {
  width: number;
  height: number;
  xDomain: [number, number];
  yDomain: [number, number];
  /** Axis titles with units, always drawn. */
  xLabel: string;
  yLabel: string;
  /** Integer x ticks (steps); default true. */
  xInteger?: boolean;
  /** Integer y ticks (e.g. curriculum level). */
  yInteger?: boolean;
  /** Overrides the computed y ticks (those outside yDomain are dropped). */
  yTicks?: number[];
  series: PlotSeries[];
  /** Reference lines with a label at their right end (e.g. chance); those outside yDomain are not drawn. */
  hLines?: { y: number; label: string; color: string; dash?: string }[];
  /** Markers with a label on top (e.g. curriculum advances "L3"); those outside xDomain are not drawn, crowded labels are dropped. */
  vLines?: { x: number; label: string; color: string }[];
  /** Tick and title font size in px; default 12 (a lecture zoom passes 16). */
  fontSize?: number;
  /** Click on the plot: the nearest data x of the first non-faint series. */
  onPick?: (x: number) => void;
  /** Draw a vertical marker at this x. */
  selectedX?: number | null;
  /** Tooltip value format; default formatNumber. */
  formatY?: (v: number) => string;
  testId?: string;
}

/** Extra room around the clip rectangle, so a line lying on a domain edge is drawn whole. */
const CLIP_PAD = 3;
/** How near (px) a marker must be to the hovered x to appear in the tooltip. */
const HOVER_TOLERANCE_PX = 10;

export const LinePlot = memo(function LinePlot(props: PlotProps) {
  const {
    width, height, xDomain, yDomain, xLabel, yLabel, series, hLines = [], vLines = [], fontSize = 12,
    xInteger = true, yInteger = false, yTicks, onPick, selectedX, formatY = formatNumber, testId,
  } = props;
  const clipId = `plot-clip-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const layout = useMemo(
    () => plotLayout({ width, height, xDomain, yDomain, xInteger, yInteger, yTicks, fontSize, labelsOnTop: vLines.length > 0 }),
    [width, height, xDomain[0], xDomain[1], yDomain[0], yDomain[1], xInteger, yInteger, yTicks, fontSize, vLines.length],
  );
  const [hoverX, setHoverX] = useState<number | null>(null);
  const { margin, innerWidth, innerHeight, x, y } = layout;

  const dataXAt = (e: MouseEvent<SVGRectElement>): number | null => {
    const box = e.currentTarget.getBoundingClientRect();
    return pickX(series, layout.xAt(e.clientX - box.left));
  };

  // Hovering re-renders the plot; the series paths only change with the data or the layout.
  const seriesMarks = useMemo(
    () => series.map((s) => <SeriesMarks key={s.id} s={s} layout={layout} clipId={clipId} xDomain={xDomain} yDomain={yDomain} />),
    [series, layout, clipId], // xDomain and yDomain are in layout's inputs
  );

  return (
    <svg
      width={width} height={height} role="img" aria-label={`${yLabel} against ${xLabel}`} data-testid={testId}
      data-x-domain={xDomain.join(',')} data-y-domain={yDomain.join(',')} data-plot-left={margin.left}
      data-x-ticks={layout.xTicks.map((t) => t.value).join(',')} data-y-ticks={layout.yTicks.map((t) => t.value).join(',')}
      style={{ display: 'block', fontSize, fontVariantNumeric: 'tabular-nums' }}
    >
      <defs>
        <clipPath id={clipId}>
          <rect x={-CLIP_PAD} y={-CLIP_PAD} width={innerWidth + 2 * CLIP_PAD} height={innerHeight + 2 * CLIP_PAD} />
        </clipPath>
      </defs>
      <AxisTitles layout={layout} xLabel={xLabel} yLabel={yLabel} fontSize={fontSize} />
      <g transform={`translate(${margin.left},${margin.top})`}>
        <Axes layout={layout} fontSize={fontSize} />
        {seriesMarks}
        {hLines.filter((h) => h.y >= yDomain[0] && h.y <= yDomain[1]).map((h) => (
          <g key={`${h.label}:${h.y}`} data-testid="plot-hline" data-y={h.y} data-label={h.label}>
            <line x1={0} x2={innerWidth} y1={y(h.y)} y2={y(h.y)} stroke={h.color} strokeDasharray={h.dash ?? '4 3'} strokeWidth={1.5} clipPath={`url(#${clipId})`} />
            {/* Above the line, or below it when the line runs along the top of the plot. */}
            <text x={innerWidth - 2} y={y(h.y) < fontSize + 2 ? y(h.y) + fontSize + 1 : y(h.y) - 4} textAnchor="end" fill={h.color}>{h.label}</text>
          </g>
        ))}
        <VLines vLines={vLines} layout={layout} fontSize={fontSize} xDomain={xDomain} />
        {selectedX != null && selectedX >= xDomain[0] && selectedX <= xDomain[1] && (
          <line data-testid="plot-selected" x1={x(selectedX)} x2={x(selectedX)} y1={0} y2={innerHeight} stroke="#111827" strokeWidth={1.5} strokeDasharray="2 2" />
        )}
        {hoverX !== null && <Hover series={series} hoverX={hoverX} layout={layout} fontSize={fontSize} xInteger={xInteger} xLabel={xLabel} formatY={formatY} />}
        <rect
          width={innerWidth} height={innerHeight} fill="transparent" style={{ cursor: onPick ? 'pointer' : undefined }}
          onMouseMove={(e) => setHoverX(dataXAt(e))} onMouseLeave={() => setHoverX(null)}
          onClick={(e) => {
            const picked = dataXAt(e);
            if (picked !== null) onPick?.(picked);
          }}
        />
      </g>
    </svg>
  );
});

interface SeriesMarksProps {
  s: PlotSeries;
  layout: PlotLayout;
  clipId: string;
  xDomain: [number, number];
  yDomain: [number, number];
}

function SeriesMarks({ s, layout, clipId, xDomain, yDomain }: SeriesMarksProps) {
  const { x, y } = layout;
  const opacity = s.opacity ?? 1;
  const kind = s.kind ?? 'line';
  return (
    <g data-testid="plot-series" data-id={s.id} data-points={s.points.length} data-kind={kind} opacity={opacity}>
      {s.band && s.band.length > 0 && (
        <path d={bandPath(s.band, x, y)} fill={s.color} fillOpacity={0.15} stroke="none" clipPath={`url(#${clipId})`} />
      )}
      {kind === 'points'
        ? pointsInside(s.points, xDomain, yDomain).map((p, i) => (s.marker === 'triangle'
          ? <path key={i} d={trianglePath(x(p.x), y(p.y), 5)} fill={s.color} />
          : <circle key={i} cx={x(p.x)} cy={y(p.y)} r={3.5} fill={s.color} />))
        : s.points.length === 1
          // A line of one point has no segment to draw: a dot shows it is there.
          ? pointsInside(s.points, xDomain, yDomain).map((p, i) => <circle key={i} cx={x(p.x)} cy={y(p.y)} r={2.5} fill={s.color} />)
          : (
            <path
              d={kind === 'step' ? stepPath(s.points, x, y) : linePath(s.points, x, y)} fill="none" stroke={s.color}
              strokeWidth={s.width ?? 2} strokeDasharray={s.dash || undefined} strokeLinejoin="round" clipPath={`url(#${clipId})`}
            />
          )}
    </g>
  );
}

function VLines({ vLines, layout, fontSize, xDomain }: { vLines: NonNullable<PlotProps['vLines']>; layout: PlotLayout; fontSize: number; xDomain: [number, number] }) {
  const inside = vLines.filter((v) => v.x >= xDomain[0] && v.x <= xDomain[1]);
  const pxs = inside.map((v) => layout.x(v.x));
  const shown = spacedLabels(pxs, inside.map((v) => textWidth(v.label, fontSize)));
  return (
    <>
      {inside.map((v, i) => (
        <g key={`${v.label}:${v.x}`} data-testid="plot-vline" data-x={v.x} data-label={v.label}>
          <line x1={pxs[i]} x2={pxs[i]} y1={0} y2={layout.innerHeight} stroke={v.color} strokeDasharray="3 3" strokeWidth={1} />
          {shown[i] && <text x={pxs[i]} y={-4} textAnchor="middle" fill={v.color}>{v.label}</text>}
        </g>
      ))}
    </>
  );
}

interface HoverProps {
  series: PlotSeries[];
  hoverX: number;
  layout: PlotLayout;
  fontSize: number;
  xInteger: boolean;
  xLabel: string;
  formatY: (v: number) => string;
}

function Hover({ series, hoverX, layout, fontSize, xInteger, xLabel, formatY }: HoverProps) {
  const px = layout.x(hoverX);
  const tolerance = Math.abs(layout.xAt(HOVER_TOLERANCE_PX) - layout.xAt(0));
  const rows = tooltipRows(series, hoverX, tolerance);
  const title = xInteger ? `step ${formatNumber(hoverX)}` : `${xLabel}: ${formatNumber(hoverX)}`;
  const lines = [title, ...rows.map((row) => `${row.label}: ${formatY(row.value)}`)];
  const box = tooltipBox(lines, px, layout.innerWidth, fontSize);
  const textX = box.x + box.padding;
  const baseline = (i: number): number => box.y + box.padding + i * box.lineHeight + 0.8 * fontSize;
  return (
    <g pointerEvents="none" data-testid="plot-tooltip">
      <line x1={px} x2={px} y1={0} y2={layout.innerHeight} stroke="#9ca3af" strokeWidth={1} />
      <rect x={box.x} y={box.y} width={box.width} height={box.height} rx={4} fill="rgba(255,255,255,0.94)" stroke="#d1d5db" />
      <text x={textX} y={baseline(0)} fill={TEXT_COLOR} fontWeight={600}>{title}</text>
      {rows.map((row, i) => (
        <g key={i}>
          <rect x={textX} y={baseline(i + 1) - box.swatch * 0.9} width={box.swatch} height={box.swatch} fill={row.color} opacity={row.faint ? 0.4 : 1} />
          <text x={textX + box.swatch + 6} y={baseline(i + 1)} fill={TEXT_COLOR}>{lines[i + 1]}</text>
        </g>
      ))}
    </g>
  );
}
