// The frame shared by the plots: axis lines, ticks, tick labels, grid lines at the y ticks,
// and the axis titles (x under the axis, y rotated along the left edge). Layout: ./geometry.ts.

import { fitText, TICK_LENGTH, xLabelBaselines, yTitleBaseline, yTitlePlacement, type PlotLayout } from './geometry';

export const AXIS_COLOR = '#6b7280';
export const GRID_COLOR = '#e5e7eb';
export const TEXT_COLOR = '#374151';

export function AxisTitles({ layout, xLabel, yLabel, fontSize }: { layout: PlotLayout; xLabel: string; yLabel: string; fontSize: number }) {
  const { margin, innerWidth, innerHeight } = layout;
  const y = yTitlePlacement(yLabel, margin, innerHeight, fontSize);
  return (
    <g fill={TEXT_COLOR}>
      <text x={margin.left + innerWidth / 2} y={margin.top + innerHeight + xLabelBaselines(fontSize).title} textAnchor="middle">
        <title>{xLabel}</title>
        {fitText(xLabel, innerWidth + margin.left, fontSize)}
      </text>
      <text transform={`translate(${yTitleBaseline(fontSize)},${y.centre}) rotate(-90)`} textAnchor="middle">
        <title>{yLabel}</title>
        {y.text}
      </text>
    </g>
  );
}

export function Axes({ layout, fontSize }: { layout: PlotLayout; fontSize: number }) {
  const { innerWidth, innerHeight, xTicks, yTicks } = layout;
  const labelY = xLabelBaselines(fontSize).ticks;
  return (
    <g fill={TEXT_COLOR}>
      {yTicks.map((t) => (
        <g key={`y${t.value}`}>
          <line x1={0} x2={innerWidth} y1={t.px} y2={t.px} stroke={GRID_COLOR} />
          <line x1={-TICK_LENGTH} x2={0} y1={t.px} y2={t.px} stroke={AXIS_COLOR} />
          <text x={-TICK_LENGTH - 3} y={t.px + 0.35 * fontSize} textAnchor="end">{t.label}</text>
        </g>
      ))}
      {xTicks.map((t) => (
        <g key={`x${t.value}`}>
          <line x1={t.px} x2={t.px} y1={innerHeight} y2={innerHeight + TICK_LENGTH} stroke={AXIS_COLOR} />
          <text x={t.px} y={innerHeight + labelY} textAnchor="middle">{t.label}</text>
        </g>
      ))}
      <path d={`M0 0V${innerHeight}H${innerWidth}`} fill="none" stroke={AXIS_COLOR} />
    </g>
  );
}
