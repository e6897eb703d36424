// A line chart drawn by recharts with fixed, caller-chosen domains (allowDataOverflow: the data
// never rescales an axis): titled axes, recharts' rounded ticks at a count that fits the size,
// series (line, staircase, markers, bands), reference lines (chance, curriculum markers, the
// picked step), a tooltip, and click-to-pick. No animation: the data is live.

import { memo, useMemo, useRef, type RefObject } from 'react';
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  Tooltip,
  useXAxisInverseScale,
  XAxis,
  YAxis,
  type InverseScaleFunction,
} from 'recharts';
import { formatNumber } from '../format';
import { GRID_COLOR, xAxisHeight, xAxisProps, yAxisProps } from './axes';
import {
  bandKey,
  emptyStateTop,
  evenTickCount,
  isFaint,
  pickX,
  plotRows,
  rightMargin,
  spacedLabels,
  textWidth,
  tickCount,
  valueKey,
  yAxisWidth,
  type PlotSeries,
} from './series';

export interface PlotProps {
  width: number;
  height: number;
  xDomain: [number, number];
  yDomain: [number, number];
  /** Axis titles with units, always drawn. */
  xLabel: string;
  yLabel: string;
  /** Whole-number x ticks (steps); default true. */
  xInteger?: boolean;
  /** Whole-number y ticks (curriculum levels). */
  yInteger?: boolean;
  series: PlotSeries[];
  /** Reference lines labelled at their right end (chance), by `short` where `label` does not fit; those outside yDomain are not drawn. */
  hLines?: { y: number; label: string; short?: string; color: string; dash?: string }[];
  /** Markers labelled on top (curriculum advances "L3"); crowded labels are dropped. */
  vLines?: { x: number; label: string; color: string }[];
  /** Tick and title font size in px (the lecture zoom passes 16). */
  fontSize?: number;
  /** Click on the plot: the nearest data x of the first non-faint series. */
  onPick?: (x: number) => void;
  /** Draw a marker at this x. */
  selectedX?: number | null;
  testId?: string;
  /** A line said inside the plot area when there is nothing to draw ("no data yet: press ▶"). */
  empty?: string;
}

/**
 * The empty state as long as fits the plot's width on one line ("no data yet: press ▶", else
 * "no data yet", else "no data", else nothing), so that it never reaches the tick labels beside the plot.
 */
export function emptyFitting(empty: string, plotWidth: number, fontSize: number): string | null {
  const options = [empty, empty.replace(/:.*$/, ''), 'no data'];
  // 0.9 em text, a wider-than-average font allowed for, and its padding. None fits: the bare axes say it.
  return options.find((t) => 1.15 * textWidth(t, 0.9 * fontSize) + fontSize <= plotWidth) ?? null;
}

/** Where the parts of a plot go: its margins, the y axis' width, the inner area, tick counts, and the markers' labels. */
function plotGeometry(props: PlotProps) {
  const { width, height, xDomain, yDomain, hLines = [], vLines = [], fontSize = 12, xInteger = true } = props;
  const yInteger = props.yInteger ?? false;
  const margin = {
    top: vLines.length > 0 ? fontSize + 6 : Math.ceil(fontSize / 2) + 2,
    right: rightMargin(formatNumber(xDomain[1]), fontSize),
    bottom: 0,
    left: 0,
  };
  // Labels as wide as the widest tick can be: the domain's ends and a quarter step.
  const quarter = yDomain[0] + Number(((yDomain[1] - yDomain[0]) / 4).toPrecision(2));
  const yWidth = yAxisWidth([yDomain[0], yDomain[1], quarter].map(formatNumber), fontSize);
  const inner = { width: width - yWidth - margin.right, height: height - margin.top - xAxisHeight(fontSize) };
  const xTicks = evenTickCount(xDomain[1] - xDomain[0], tickCount(inner.width, fontSize, 5, 7), xInteger);
  const yTicks = yInteger ? Math.min(8, yDomain[1] - yDomain[0] + 1) : tickCount(inner.height, fontSize, 2.2, 5);
  const markers = vLines.filter((v) => v.x >= xDomain[0] && v.x <= xDomain[1]);
  const shown = spacedLabels(
    markers.map((v) => ((v.x - xDomain[0]) / (xDomain[1] - xDomain[0] || 1)) * inner.width),
    markers.map((v) => textWidth(v.label, fontSize)),
  );
  // The band each reference line's label takes (above its line, or below it along the top), for the empty state to avoid.
  const labelBands = hLines
    .filter((h) => h.y >= yDomain[0] && h.y <= yDomain[1])
    .map((h): [number, number] => {
      const y = ((yDomain[1] - h.y) / (yDomain[1] - yDomain[0] || 1)) * inner.height;
      return y < fontSize + 2 ? [y, y + 1.4 * fontSize] : [y - 1.4 * fontSize, y];
    });
  return { margin, yWidth, inner, xTicks, yTicks, markers, shown, labelBands };
}

export const Plot = memo(function Plot(props: PlotProps) {
  const {
    width,
    height,
    xDomain,
    yDomain,
    xLabel,
    yLabel,
    series,
    hLines = [],
    fontSize = 12,
    xInteger = true,
    yInteger = false,
    onPick,
    selectedX,
    testId,
    empty,
  } = props;
  const rows = useMemo(() => plotRows(series), [series]);
  const box = useRef<HTMLDivElement>(null);
  const xAt = useRef<InverseScaleFunction | undefined>(undefined);
  const { margin, yWidth, inner, xTicks, yTicks, markers, shown, labelBands } = plotGeometry(props);
  return (
    <div
      ref={box}
      className="plot"
      data-testid={testId}
      data-x-domain={xDomain.join(',')}
      data-y-domain={yDomain.join(',')}
      role="img"
      aria-label={`${yLabel} against ${xLabel}`}
      style={{ cursor: onPick ? 'pointer' : undefined }}
    >
      <ComposedChart
        width={width}
        height={height}
        data={rows}
        margin={margin}
        style={{ fontSize, fontVariantNumeric: 'tabular-nums' }}
        onClick={(_, e) => pick(e.clientX, box.current, xAt.current, series, onPick)}
      >
        <CartesianGrid vertical={false} stroke={GRID_COLOR} />
        <XScale into={xAt} />
        <XAxis
          {...xAxisProps(fontSize, xLabel, inner.width + 2 * margin.right)}
          domain={xDomain}
          allowDecimals={!xInteger}
          tickCount={xTicks}
          niceTicks="snap125"
        />
        <YAxis
          {...yAxisProps(fontSize, yLabel, inner.height + 2 * margin.top, yWidth)}
          domain={yDomain}
          allowDataOverflow
          allowDecimals={!yInteger}
          tickCount={yTicks}
        />
        {bandAreas(series)}
        {series.map((s, i) => (
          <SeriesLine key={s.id} s={s} dataKey={valueKey(i)} />
        ))}
        {hLineElements(hLines, yDomain, inner, fontSize)}
        {vLineElements(markers, shown, fontSize)}
        {selectedLine(selectedX, xDomain)}
        {plotTooltip(xInteger, xLabel, fontSize)}
      </ComposedChart>
      {/* Inside the plot area (clear of the tick labels), away from the reference lines' labels. */}
      <PlotEmpty
        empty={empty}
        left={yWidth}
        width={inner.width}
        top={margin.top + emptyStateTop(inner.height, labelBands, fontSize)}
        fontSize={fontSize}
      />
    </div>
  );
});

/** A click at `clientX`: the nearest data x of the first non-faint series, to `onPick`. */
function pick(
  clientX: number,
  box: HTMLDivElement | null,
  xAt: InverseScaleFunction | undefined,
  series: PlotSeries[],
  onPick: PlotProps['onPick'],
): void {
  // From the pointer itself: recharts' active tooltip point lags a frame behind the mouse.
  const x = box && xAt?.(clientX - box.getBoundingClientRect().left);
  const picked = typeof x === 'number' ? pickX(series, x) : null;
  if (picked !== null) onPick?.(picked);
}

/** The shaded bands (mean ± interval) of the series that have one, drawn under the lines. */
function bandAreas(series: PlotSeries[]) {
  return series.map(
    (s, i) =>
      s.band && (
        <Area
          key={`band:${s.id}`}
          dataKey={bandKey(i)}
          stroke="none"
          fill={s.color}
          fillOpacity={0.15}
          connectNulls
          isAnimationActive={false}
          activeDot={false}
          tooltipType="none"
          legendType="none"
        />
      ),
  );
}

/** The reference lines inside yDomain, each labelled at its right end (by `short` where `label` does not fit). */
function hLineElements(
  hLines: NonNullable<PlotProps['hLines']>,
  yDomain: [number, number],
  inner: { width: number; height: number },
  fontSize: number,
) {
  return hLines
    .filter((h) => h.y >= yDomain[0] && h.y <= yDomain[1])
    .map((h) => (
      <ReferenceLine
        key={`${h.label}:${h.y}`}
        y={h.y}
        stroke={h.color}
        strokeDasharray={h.dash ?? '4 3'}
        strokeWidth={1.5}
        data-testid="plot-hline"
        data-label={h.label}
        // Above the line, or below it when the line runs along the top of the plot.
        label={{
          value: textWidth(h.label, fontSize) < inner.width - fontSize || !h.short ? h.label : h.short,
          position:
            ((yDomain[1] - h.y) / (yDomain[1] - yDomain[0] || 1)) * inner.height < fontSize + 2
              ? 'insideTopRight'
              : 'insideBottomRight',
          fontSize,
          fill: h.color,
        }}
      />
    ));
}

/** The markers inside the x domain; `shown[i]`: marker i's label has room. */
function vLineElements(markers: NonNullable<PlotProps['vLines']>, shown: boolean[], fontSize: number) {
  return markers.map((v, i) => (
    <ReferenceLine
      key={`${v.label}:${v.x}`}
      x={v.x}
      stroke={v.color}
      strokeDasharray="3 3"
      data-testid="plot-vline"
      data-label={v.label}
      label={shown[i] ? { value: v.label, position: 'top', fontSize, fill: v.color } : undefined}
    />
  ));
}

/** The marker of the picked step, when it is inside the x domain. */
function selectedLine(selectedX: number | null | undefined, xDomain: [number, number]) {
  return (
    selectedX != null &&
    selectedX >= xDomain[0] &&
    selectedX <= xDomain[1] && (
      <ReferenceLine
        x={selectedX}
        stroke="#111827"
        strokeWidth={1.5}
        strokeDasharray="2 2"
        data-testid="plot-selected"
      />
    )
  );
}

/** The tooltip: the step (or the x axis' value) and each series' value. */
function plotTooltip(xInteger: boolean, xLabel: string, fontSize: number) {
  return (
    <Tooltip
      isAnimationActive={false}
      labelFormatter={(x) => (xInteger ? `step ${formatNumber(Number(x))}` : `${xLabel}: ${formatNumber(Number(x))}`)}
      formatter={(v) => formatNumber(Number(v))}
      contentStyle={{ fontSize, padding: '2px 6px' }}
      itemStyle={{ padding: 0 }}
    />
  );
}

/** The empty state said inside the plot area, as long as fits its width (nothing when none does). */
export function PlotEmpty({
  empty,
  left,
  width,
  top,
  fontSize,
}: {
  empty: string | undefined;
  left: number;
  width: number;
  top: number;
  fontSize: number;
}) {
  const text = empty ? emptyFitting(empty, width, fontSize) : null;
  if (!text) return null;
  return (
    <div className="plot-empty" style={{ left, width, top }}>
      <span>{text}</span>
    </div>
  );
}

/** Keeps the x axis' pixel → step map where the click handler can read it. */
function XScale({ into }: { into: RefObject<InverseScaleFunction | undefined> }) {
  into.current = useXAxisInverseScale();
  return null;
}

/** One series: a line or staircase, or markers only. */
function SeriesLine({ s, dataKey }: { s: PlotSeries; dataKey: string }) {
  const faint = isFaint(s);
  const kind = s.kind ?? 'line';
  const common = {
    dataKey,
    name: s.label,
    stroke: s.color,
    isAnimationActive: false,
    'data-testid': 'plot-series',
    'data-id': s.id,
    tooltipType: s.hideInTooltip ? ('none' as const) : undefined,
  };
  if (kind === 'points') {
    return (
      <Line
        {...common}
        stroke="none"
        dot={(p: { cx?: number; cy?: number; index: number }) => (
          <Marker key={p.index} cx={p.cx} cy={p.cy} color={s.color} shape={s.marker ?? 'circle'} />
        )}
        activeDot={false}
      />
    );
  }
  return (
    <Line
      {...common}
      type={kind === 'step' ? 'stepAfter' : 'linear'}
      strokeWidth={s.width ?? 2}
      strokeDasharray={s.dash || undefined}
      strokeOpacity={s.opacity ?? 1}
      connectNulls
      // A line of one point has no segment to draw: a dot shows it is there.
      dot={s.points.length === 1 ? { r: 2.5, fill: s.color, stroke: 'none' } : false}
      activeDot={faint || s.hideInTooltip ? false : { r: 3 }}
    />
  );
}

/** An eval marker: a circle, or an upward triangle; nothing where the series has no value. */
function Marker({ cx, cy, color, shape }: { cx?: number; cy?: number; color: string; shape: 'circle' | 'triangle' }) {
  if (cx == null || cy == null || !Number.isFinite(cx) || !Number.isFinite(cy)) return null;
  if (shape === 'circle') return <circle cx={cx} cy={cy} r={3.5} fill={color} />;
  const r = 5;
  const h = r * 0.866; // cos 30°
  return <path d={`M${cx} ${cy - r}L${cx + h} ${cy + r / 2}L${cx - h} ${cy + r / 2}Z`} fill={color} />;
}
