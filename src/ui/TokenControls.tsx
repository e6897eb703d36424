// What colours the tokens of a group of answers, and whether the special tokens show: the
// controls the rollouts panel and the lecture's group panel both put above or under the answers.

import type { ColourBy } from './answers';
import { Checkbox } from './Checkbox';

/** One way to colour the tokens; `unavailable` (why it cannot be chosen yet) greys it out. */
export interface Colouring {
  by: ColourBy;
  label: string;
  unavailable?: string;
}

/** A radio per colouring (named `name`) and the special tokens switch. */
export function TokenControls({
  name,
  colourings,
  colourBy,
  setColourBy,
  showSpecial,
  setShowSpecial,
}: {
  name: string;
  colourings: readonly Colouring[];
  colourBy: ColourBy;
  setColourBy: (by: ColourBy) => void;
  showSpecial: boolean;
  setShowSpecial: (show: boolean) => void;
}) {
  return (
    <>
      <span role="radiogroup" aria-label="colour tokens by">
        colour:{' '}
        {colourings.map(({ by, label, unavailable }) => (
          <label key={by} className={unavailable === undefined ? undefined : 'muted'}>
            <input
              type="radio"
              name={name}
              data-testid={`colour-${by}`}
              checked={colourBy === by}
              disabled={unavailable !== undefined}
              onChange={() => setColourBy(by)}
            />{' '}
            {unavailable === undefined ? label : `${label}: ${unavailable}`}
          </label>
        ))}
      </span>
      <Checkbox testId="show-special" checked={showSpecial} onChange={setShowSpecial}>
        special tokens
      </Checkbox>
    </>
  );
}
