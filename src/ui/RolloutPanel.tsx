// The dashboard's rollouts: every group of the latest step (or of a step picked on a chart), each
// in the same group view as the lecture's, tokens coloured by advantage, entropy or ratio; for
// chains of group elements, the policy's learned multiplication table.

import { useState } from 'react';
import { useApp } from '../store/store';
import { GroupView, type ColourBy } from './answers';
import { TokenControls } from './TokenControls';
import { hasTableProbe } from '../rl/learned-table';
import { LearnedGrids, LearnedRefresh } from './LearnedTableParts';
import { useShownRollout } from './lecture/GroupPanel';

const COLOURINGS: { by: ColourBy; label: string; needs: string }[] = [
  { by: 'advantage', label: 'advantage', needs: 'after the advantages phase' },
  { by: 'entropy', label: 'entropy', needs: '' },
  { by: 'ratio', label: 'ratio π/π_old', needs: 'after the update' },
];

export function RolloutPanel() {
  const { rollout, picked, missing } = useShownRollout();
  const showSpecial = useApp((s) => s.showSpecial);
  const setShowSpecial = useApp((s) => s.setShowSpecial);
  const setViewStep = useApp((s) => s.setViewStep);
  const [colourBy, setColourBy] = useState<ColourBy>('advantage');
  const available: Record<ColourBy, boolean> = {
    advantage: rollout?.advantages !== undefined,
    entropy: rollout !== null,
    ratio: rollout?.ratio !== undefined,
  };
  return (
    <section className="panel rollouts" data-testid="rollout-panel" aria-label="rollouts">
      <h2>Rollouts{rollout ? ` of step ${rollout.step}${rollout.phase ? ` (after ${rollout.phase})` : ''}` : ''}</h2>
      {picked !== null && (
        <p className="picked small" data-testid="picked-step">
          {missing
            ? `The rollouts of step ${picked} are no longer kept; showing the latest.`
            : `Step ${picked}, picked on a chart.`}{' '}
          <button className="link-button" data-testid="back-to-live" onClick={() => setViewStep(null)}>
            back to live
          </button>
        </p>
      )}
      {!rollout && (
        <p className="muted">
          Take a step (or a phase) to see the prompts, the G answers of each, their rewards and advantages.
        </p>
      )}
      {rollout && (
        <div data-testid="inspector">
          <div className="rollout-bar small">
            <TokenControls
              name="rollout-colour"
              colourings={COLOURINGS.map(({ by, label, needs }) => ({
                by,
                label,
                unavailable: available[by] ? undefined : needs,
              }))}
              colourBy={colourBy}
              setColourBy={setColourBy}
              showSpecial={showSpecial}
              setShowSpecial={setShowSpecial}
            />
          </div>
          <LearnedTablePanel />
          <div className="rollout-groups">
            {Array.from({ length: rollout.shape.B }, (_, b) => (
              <div key={b} className="rollout-group" data-testid="group">
                <GroupView
                  rollout={rollout}
                  b={b}
                  colourBy={available[colourBy] ? colourBy : 'entropy'}
                  showSpecial={showSpecial}
                />
              </div>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}

function LearnedTablePanel() {
  const config = useApp((s) => s.trainerConfig);
  const step = useApp((s) => s.learnedTable?.step);
  if (!config || !hasTableProbe(config)) return null;
  return (
    <div className="learned">
      <h3>
        What the policy learned{step !== undefined ? ` (step ${step})` : ''} <LearnedRefresh />
      </h3>
      <LearnedGrids />
    </div>
  );
}
