// A choice from a list as the page draws every one: its text, a space, then the list, all in one
// label (a click on the text opens the list).

import type { ReactNode } from 'react';

/** One entry of the list: what the select's value becomes, and what the person reads. */
export interface SelectOption {
  value: string | number;
  label: string;
}

export function LabelledSelect({
  label,
  value,
  options,
  onChange,
  testId,
  className,
  title,
}: {
  /** The text before the list. */
  label: ReactNode;
  value: string | number;
  /** In the order shown; values are unique (they key the options). */
  options: readonly SelectOption[];
  /** The chosen option's value, as the select gives it: a string. */
  onChange: (value: string) => void;
  testId?: string;
  /** The label's (around the text and the list). */
  className?: string;
  title?: string;
}) {
  return (
    <label className={className} title={title}>
      {label}{' '}
      <select data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
