// ‹ › through a list: a step's groups, the recorded mazes, a lesson's guide steps. Each button is
// disabled at its end of the list.

const BUTTONS = [
  { end: 'prev', word: 'previous', glyph: '‹', by: -1 },
  { end: 'next', word: 'next', glyph: '›', by: 1 },
] as const;

/**
 * The two buttons over `count` items, at `index`: test ids `${testId}-prev` and `${testId}-next`,
 * labelled "previous `noun`" and "next `noun`"; `keys` (their shortcuts) go in the labels and tooltips.
 */
export function PrevNext({
  index,
  count,
  go,
  testId,
  noun,
  keys,
}: {
  index: number;
  count: number;
  go: (index: number) => void;
  testId: string;
  noun: string;
  /** The shortcuts of ‹ and ›, e.g. ['Alt+←', 'Alt+→']. */
  keys?: readonly [string, string];
}) {
  return (
    <>
      {BUTTONS.map(({ end, word, glyph, by }, i) => {
        const to = index + by;
        const label = keys ? `${word} ${noun} (${keys[i]})` : `${word} ${noun}`;
        return (
          <button
            key={end}
            data-testid={`${testId}-${end}`}
            disabled={to < 0 || to >= count}
            onClick={() => go(to)}
            aria-label={label}
            title={keys ? label : undefined}
          >
            {glyph}
          </button>
        );
      })}
    </>
  );
}
