// Pick a preset (or the plain defaults); its guided explanation can be shown or hidden.

import { getPreset, PRESETS, variantConfig } from '../config';
import { useApp } from '../store/store';
import { useController } from './context';

const NONE = '';

export function PresetPicker() {
  const preset = useApp((s) => s.preset);
  const choosePreset = useApp((s) => s.choosePreset);
  const showGuide = useApp((s) => s.showGuide);
  const setShowGuide = useApp((s) => s.setShowGuide);
  return (
    <div className="preset-picker">
      <label>
        preset{' '}
        <select data-testid="preset" value={preset ?? NONE} onChange={(e) => choosePreset(e.target.value === NONE ? undefined : e.target.value)}>
          <option value={NONE}>— defaults (no preset) —</option>
          {PRESETS.map((p) => <option key={p.name} value={p.name}>{p.name}: {p.title}</option>)}
        </select>
      </label>
      {preset && (
        <label className="guide-toggle">
          <input type="checkbox" data-testid="guide-toggle" checked={showGuide} onChange={(e) => setShowGuide(e.target.checked)} /> show the guide
        </label>
      )}
    </div>
  );
}

export function Guide() {
  const controller = useController();
  const setConfig = useApp((s) => s.setConfig);
  const preset = useApp((s) => s.preset);
  const showGuide = useApp((s) => s.showGuide);
  if (!preset || !showGuide) return null;
  const p = getPreset(preset);
  return (
    <section className="guide" data-testid="guide" aria-label={`guide: ${p.title}`}>
      <h2>{p.title}</h2>
      <p>{p.explanation}</p>
      <ol>
        {p.guide.map((line, i) => <li key={i}>{line}</li>)}
      </ol>
      {p.variants && p.variants.length > 0 && (
        <p className="variants">
          Comparison runs (same seed; overlay them from the runs list):{' '}
          {p.variants.map((v) => (
            <button
              key={v.label} className="small-button" data-testid="variant"
              onClick={() => {
                setConfig(variantConfig(p.name, v.label), p.name);
                controller?.reset();
              }}
            >
              {v.label}
            </button>
          ))}
        </p>
      )}
    </section>
  );
}
