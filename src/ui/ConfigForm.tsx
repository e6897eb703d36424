// The config form, generated from the knob table: one control per knob, grouped by section,
// each with its documentation as a tooltip; knobs without effect in this config are greyed.

import { memo, useState } from 'react';
import { isKnobActive, knobsBySection, type KnobSpec } from '../config';
import { useApp } from '../store/store';
import { hasSlider, knobTitle, knobTooltip, SLIDER_STEPS, sliderToValue, valueToSlider } from './knobText';

const OPEN_SECTIONS = new Set(['run', 'task', 'model', 'sampling', 'advantage', 'loss']);

export function ConfigForm() {
  const task = useApp((s) => s.config.task);
  const sections = knobsBySection(task);
  return (
    <form className="config-form" data-testid="config-form" onSubmit={(e) => e.preventDefault()}>
      {sections.map(({ section, knobs }) => (
        <details key={section.id} open={OPEN_SECTIONS.has(section.id)} data-testid={`section-${section.id}`}>
          <summary title={section.doc}>{section.title}</summary>
          {knobs.map((k) => (
            <KnobControl key={k.key} knob={k} />
          ))}
        </details>
      ))}
    </form>
  );
}

const KnobControl = memo(function KnobControl({ knob }: { knob: KnobSpec }) {
  const value = useApp((s) => (s.config as unknown as Record<string, unknown>)[knob.key]);
  const active = useApp((s) => isKnobActive(knob, s.config as unknown as Record<string, unknown>));
  const error = useApp((s) => s.knobErrors[knob.key]);
  return (
    <div
      className={`knob${active ? '' : ' inactive'}${error ? ' invalid' : ''}`}
      data-testid={`knob-${knob.key}`}
      data-active={String(active)}
    >
      <label className="knob-label" title={knobTitle(knob)} htmlFor={`knob-input-${knob.key}`}>
        {knob.label}
      </label>
      <KnobTip knob={knob} />
      <div className="knob-input">
        <KnobInput knob={knob} value={value} />
      </div>
      {error && (
        <div className="knob-error" data-testid={`knob-error-${knob.key}`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
});

/**
 * The "?" beside a knob: its documentation on hover or focus. The text is placed with fixed
 * positioning so that the scrolling sidebar does not clip it.
 */
function KnobTip({ knob }: { knob: KnobSpec }) {
  const [at, setAt] = useState<{ left: number; top: number } | null>(null);
  const show = (el: HTMLElement) => {
    const r = el.getBoundingClientRect();
    const width = 320;
    const left = Math.min(r.right + 8, window.innerWidth - width - 8);
    setAt({ left, top: Math.min(r.top - 4, window.innerHeight - 200) });
  };
  const tip = knobTooltip(knob);
  return (
    <span
      className="tip"
      tabIndex={0}
      aria-label={`about ${knob.label}`}
      onMouseEnter={(e) => show(e.currentTarget)}
      onMouseLeave={() => setAt(null)}
      onFocus={(e) => show(e.currentTarget)}
      onBlur={() => setAt(null)}
    >
      ?
      {at && (
        <span className="tip-body" role="tooltip" data-testid="knob-tooltip" style={{ left: at.left, top: at.top }}>
          <b>{knob.key}</b> — {tip.doc}
          <br />
          <i>{tip.range}</i>
          {tip.source && (
            <>
              <br />
              from: {tip.source}
            </>
          )}
          {tip.when && (
            <>
              <br />
              {tip.when}
            </>
          )}
        </span>
      )}
    </span>
  );
}

function KnobInput({ knob, value }: { knob: KnobSpec; value: unknown }) {
  const setKnob = useApp((s) => s.setKnob);
  const id = `knob-input-${knob.key}`;
  switch (knob.kind) {
    case 'enum':
      return (
        <select id={id} value={String(value)} onChange={(e) => setKnob(knob.key, e.target.value)}>
          {(knob.values ?? []).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      );
    case 'bool':
      return (
        <input id={id} type="checkbox" checked={value === true} onChange={(e) => setKnob(knob.key, e.target.checked)} />
      );
    case 'code':
      return <CodeButton knob={knob} id={id} lines={String(value).split('\n').length} />;
    default:
      return <NumberInput knob={knob} value={value as number} id={id} />;
  }
}

/**
 * A number as text: the edit is applied on Enter or when the field loses focus. A refused value
 * shows the knob's message; on leaving the field it reverts to the value still in force.
 */
function NumberInput({ knob, value, id }: { knob: KnobSpec; value: number; id: string }) {
  const setKnob = useApp((s) => s.setKnob);
  const clearKnobError = useApp((s) => s.clearKnobError);
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (revertOnError: boolean) => {
    if (draft === null) return;
    if (draft.trim() === String(value)) {
      setDraft(null);
      return;
    }
    const error = setKnob(knob.key, draft.trim());
    if (!error || revertOnError) setDraft(null);
  };
  return (
    <>
      <input
        id={id}
        type="text"
        inputMode="decimal"
        size={8}
        value={draft ?? String(value)}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={() => commit(true)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(false);
          if (e.key === 'Escape') {
            setDraft(null);
            clearKnobError(knob.key);
          }
        }}
      />
      {hasSlider(knob) && (
        <input
          type="range"
          min={0}
          max={SLIDER_STEPS}
          step={1}
          aria-label={`${knob.label} slider`}
          tabIndex={-1}
          value={valueToSlider(knob, value)}
          onChange={(e) => {
            setDraft(null);
            setKnob(knob.key, sliderToValue(knob, Number(e.target.value)));
          }}
        />
      )}
    </>
  );
}

/** Code is edited in the code panel: this opens it on that code. */
function CodeButton({ knob, id, lines }: { knob: KnobSpec; id: string; lines: number }) {
  const setCodeTab = useApp((s) => s.setCodeTab);
  const setDrawer = useApp((s) => s.setDrawer);
  const view = useApp((s) => s.view);
  return (
    <button
      id={id}
      type="button"
      className="small-button"
      data-testid={`edit-code-${knob.key}`}
      onClick={() => {
        setCodeTab(knob.key === 'customReward' ? 'reward' : 'estimator');
        if (view === 'lecture') setDrawer('code');
        else document.querySelector('[data-testid="code-panel"]')?.scrollIntoView({ block: 'start' });
      }}
    >
      edit the code ({lines} lines)…
    </button>
  );
}
