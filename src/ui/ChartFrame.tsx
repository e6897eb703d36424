// The frame of one chart: caption, an HTML legend, and a measured width handed to the recharts
// chart (fixed size: no ResponsiveContainer, whose resize state and legend measuring cost an
// extra render of the chart per update).

import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface LegendItem {
  name: string;
  color: string;
  /** Dash pattern of the line ('' or absent: solid). */
  dash?: string;
  /** A marker instead of a line (scatter points). */
  marker?: string;
}

interface ChartFrameProps {
  id: string;
  title: string;
  /** Points of the longest series (for tests: the chart has data). */
  points: number;
  series?: number;
  legend: readonly LegendItem[];
  /** Text shown over the (empty) chart when there is nothing to draw. */
  empty?: string;
  height?: number;
  children: (width: number) => ReactNode;
}

export function ChartFrame({ id, title, points, series, legend, empty, height = 170, children }: ChartFrameProps) {
  const box = useRef<HTMLDivElement>(null);
  const width = useElementWidth(box);
  return (
    <figure className="chart" data-testid={`chart-${id}`} data-points={points} data-series={series ?? legend.length}>
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-box" style={{ height }}>
        {/* Empty charts still mount (bare axes), so the first data does not pay for the mount. */}
        {width > 0 ? children(width) : null}
        {empty !== undefined && <div className="chart-empty">{empty}</div>}
      </div>
      {empty === undefined && (
        <ul className="chart-legend">
          {legend.map((item) => (
            <li key={item.name}>
              {item.marker ? (
                <span style={{ color: item.color }}>{item.marker}</span>
              ) : (
                <svg width="18" height="8" aria-hidden="true">
                  <line x1="0" y1="4" x2="18" y2="4" stroke={item.color} strokeWidth="2" strokeDasharray={item.dash || undefined} />
                </svg>
              )}{' '}
              {item.name}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}

/** The element's content width, updated when it resizes (rounded to whole pixels). */
function useElementWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.floor(el.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
