// The axes both chart kinds share, as recharts props: a number axis with a fixed domain, ticks
// that recharts rounds and thins (interval preserveStartEnd: a label that would touch its
// neighbour is dropped, the ends are kept), and a title with units that fits its axis.

import type { XAxisProps, YAxisProps } from 'recharts';
import { formatNumber } from '../format';
import { fitText } from './series';

export const AXIS_COLOR = '#6b7280';
export const GRID_COLOR = '#e5e7eb';
export const TEXT_COLOR = '#374151';

/** Height of the x axis band: tick labels, then the title under them. */
export function xAxisHeight(fontSize: number): number {
  return Math.ceil(3.2 * fontSize + 8);
}

/**
 * The x axis: the tick labels sit ¾ of a line below the axis, so that a label centred on the
 * origin ("-2") clears the y axis' lowest label. The title is centred under the axis and fitted to
 * `titleRoom` px: the axis' length and twice the smaller margin beside it.
 */
export function xAxisProps(fontSize: number, title: string, titleRoom: number): XAxisProps {
  return {
    type: 'number',
    dataKey: 'x',
    allowDataOverflow: true,
    interval: 'preserveStartEnd',
    minTickGap: fontSize / 2,
    tickMargin: Math.ceil(0.75 * fontSize),
    tickFormatter: (v: number) => formatNumber(v),
    tick: { fontSize, fill: TEXT_COLOR },
    stroke: AXIS_COLOR,
    height: xAxisHeight(fontSize),
    label: {
      value: fitText(title, titleRoom, fontSize),
      position: 'insideBottom',
      offset: 2,
      fontSize,
      fill: TEXT_COLOR,
    },
  };
}

/** The y axis, `width` px wide (tick labels and the rotated title), its title centred on the plot and fitted to `titleRoom` px. */
export function yAxisProps(fontSize: number, title: string, titleRoom: number, width: number): YAxisProps {
  return {
    type: 'number',
    niceTicks: 'snap125',
    interval: 'preserveStartEnd',
    minTickGap: 2,
    tickFormatter: (v: number) => formatNumber(v),
    tick: { fontSize, fill: TEXT_COLOR },
    stroke: AXIS_COLOR,
    width,
    // Centred ⅝ of a line in from the left edge: the rotated glyphs' tops stay inside the chart.
    label: {
      value: fitText(title, titleRoom, fontSize),
      angle: -90,
      position: 'insideLeft',
      offset: Math.ceil(0.625 * fontSize),
      style: { textAnchor: 'middle' },
      fontSize,
      fill: TEXT_COLOR,
    },
  };
}
