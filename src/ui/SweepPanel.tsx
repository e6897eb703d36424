// A sweep: one knob over several values, on the current config and seed, one run after another.

import { useState } from 'react';
import { knobsFor } from '../config';
import { parseSweepValues } from '../store/sweep';
import { useApp } from '../store/store';
import { useController } from './context';

export function SweepPanel() {
  const controller = useController();
  const task = useApp((s) => s.config.task);
  const sweep = useApp((s) => s.sweep);
  const [knob, setKnob] = useState('epsHigh');
  const [values, setValues] = useState('0.2, 0.28');
  const [steps, setSteps] = useState('50');
  const [errors, setErrors] = useState<string[]>([]);
  const knobs = knobsFor(task).filter((k) => k.key !== 'task' && k.key !== 'steps');
  return (
    <section className="panel sweep" aria-label="sweep">
      <h2>Sweep</h2>
      <div className="sweep-form">
        <label>
          knob{' '}
          <select data-testid="sweep-knob" value={knob} onChange={(e) => setKnob(e.target.value)}>
            {knobs.map((k) => (
              <option key={k.key} value={k.key}>
                {k.label} ({k.key})
              </option>
            ))}
          </select>
        </label>
        <label>
          values{' '}
          <input data-testid="sweep-values" value={values} onChange={(e) => setValues(e.target.value)} size={14} />
        </label>
        <label>
          steps each{' '}
          <input data-testid="sweep-steps" value={steps} onChange={(e) => setSteps(e.target.value)} size={5} />
        </label>
        <button
          className="small-button"
          data-testid="sweep-start"
          disabled={!controller || sweep !== null}
          onClick={() => setErrors(controller?.startSweep(knob, parseSweepValues(values), Number(steps)) ?? [])}
        >
          Run sweep
        </button>
      </div>
      {sweep && (
        <p className="small" data-testid="sweep-status">
          Sweeping {sweep.knob}: run {sweep.total - sweep.queue.length + 1} of {sweep.total}.{' '}
          <button className="small-button" onClick={() => controller?.pause()}>
            stop
          </button>
        </p>
      )}
      {errors.length > 0 && (
        <ul className="knob-error small" data-testid="sweep-errors">
          {errors.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
