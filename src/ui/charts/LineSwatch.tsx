// A legend's sample of a curve: a short level line in the curve's colour, thickness and dash.

/** `width` px wide and 8 high; `dash` a stroke-dasharray ('' or none: solid). */
export function LineSwatch({
  width,
  color,
  strokeWidth = 2.5,
  dash,
  opacity,
}: {
  width: number;
  color: string;
  strokeWidth?: number;
  dash?: string;
  opacity?: number;
}) {
  return (
    <svg width={width} height="8" aria-hidden="true">
      <line
        x1="0"
        y1="4"
        x2={width}
        y2="4"
        stroke={color}
        strokeWidth={strokeWidth}
        strokeDasharray={dash || undefined}
        opacity={opacity}
      />
    </svg>
  );
}
