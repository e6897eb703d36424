// A switch as the page draws every one: the box, a space, then its text, all in one label (a click
// on the text ticks the box).

import type { CSSProperties, ReactNode } from 'react';

export function Checkbox({
  checked,
  onChange,
  testId,
  disabled,
  className,
  title,
  style,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
  disabled?: boolean;
  /** The label's (around the box and the text). */
  className?: string;
  title?: string;
  style?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <label className={className} title={title} style={style}>
      <input
        type="checkbox"
        data-testid={testId}
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
      />{' '}
      {children}
    </label>
  );
}
