// The RL loop as a column of five stages — prompt, sample G answers, verify, compare with the
// group (advantages), update — with the phase in progress lit and, in each stage, what it did
// to the group shown on the right. Stepping phase by phase walks down the column.

import type { Phase } from '../../rl/step-metrics';
import type { RolloutView } from '../../worker/protocol';
import { useApp } from '../../store/store';
import { formatNumber } from '../format';
import { advantageSentence, loopFacts, stageStates, LOOP_STAGES, type LoopStage } from './loopFacts';

const TITLES: Record<LoopStage, (G: number) => string> = {
  prompt: () => 'Prompt',
  sample: (G) => `Sample ${G} answers`,
  verify: () => 'Score each answer',
  advantages: () => 'Compare in the group',
  update: () => 'Update the weights',
};

export function LoopDiagram({ rollout }: { rollout: RolloutView | null }) {
  const phase = useApp((s) => s.phase);
  const status = useApp((s) => s.status);
  const b = useApp((s) => s.groupIndex);
  const G = useApp((s) => s.trainerConfig?.groupSize ?? s.config.groupSize);
  const gradNorm = useApp((s) => {
    const run = s.runs.find((r) => r.id === s.activeRunId);
    return run?.points[run.points.length - 1]?.scalars.grad_norm;
  });
  const facts = loopFacts(rollout, Math.min(b, Math.max(0, (rollout?.shape.B ?? 1) - 1)));
  const states = stageStates(phase?.phase ?? null, rollout !== null);
  const cycling = status === 'running' && !phase;
  return (
    <section
      className={`loop panel${cycling ? ' cycling' : ''}`}
      data-testid="loop-diagram"
      data-highlight="loop"
      aria-label="one RL step"
    >
      <h2>One RL step</h2>
      <p className="loop-line">
        A prompt → {G} answers → the verifier scores them → each answer is compared with its group → the update.
      </p>
      <ol className="loop-stages">
        {LOOP_STAGES.map((stage, i) => (
          <li
            key={stage}
            className={`loop-stage ${states[stage]}`}
            data-testid="loop-stage"
            data-stage={stage}
            data-state={states[stage]}
          >
            <div className="loop-title">
              {i + 1} · {TITLES[stage](rollout?.shape.G ?? G)}
            </div>
            <div className="loop-fact">{stageFact(stage, facts, rollout?.shape.G ?? G, gradNorm)}</div>
          </li>
        ))}
      </ol>
      <p className="loop-phase muted">
        {phase ? (
          <>
            phase{' '}
            <b data-testid="phase" data-step={phase.step}>
              {phase.phase}
            </b>{' '}
            of step {phase.step}
          </>
        ) : (
          <>
            phase{' '}
            <b data-testid="phase" data-step="">
              –
            </b>
            {cycling ? ' (every step runs all five)' : ''}
          </>
        )}
      </p>
    </section>
  );
}

function stageFact(stage: LoopStage, f: ReturnType<typeof loopFacts>, G: number, gradNorm: number | undefined): string {
  switch (stage) {
    case 'prompt':
      return f.prompt ?? 'a task instance';
    case 'sample':
      return 'from the model, token by token';
    case 'verify':
      return f.right === null
        ? 'the verifier: a reward 0–1'
        : `${f.right} of ${G} right · mean reward ${formatNumber(f.meanReward ?? 0)}`;
    case 'advantages':
      return advantageSentence(f.advantageRange, (x) => formatNumber(Number(x.toFixed(2))));
    case 'update':
      return gradNorm === undefined
        ? 'more of +, less of −'
        : `more of +, less of − · gradient norm ${formatNumber(gradNorm)}`;
  }
}

export type { Phase };
