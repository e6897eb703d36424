// The lesson's guide along the bottom of the lecture view: one step at a time, a "show me" that
// points at what the step talks about, what measured runs did, the comparison variants, trained
// models to jump ahead to, and the recipe details folded away. With the projector zoom (A+) the
// variants and the trained models fold into two menus, so that the guide stays one short strip
// and leaves the height to the charts and the group.

import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { clauses, firstClauses } from './expectText';
import { getPreset, type Preset } from '../../lessons';
import { useApp } from '../../store/store';
import { useController } from '../context';
import { guideStepReady, stepBlocker } from './guide';
import { PrevNext } from '../PrevNext';

/** Outlines the element(s) marked data-highlight=`target` for a moment. */
function flash(target: string): void {
  const els = document.querySelectorAll<HTMLElement>(`[data-highlight="${target}"]`);
  els.forEach((el) => {
    el.classList.remove('highlighted');
    void el.offsetWidth; // restart the animation
    el.classList.add('highlighted');
    window.setTimeout(() => el.classList.remove('highlighted'), 2600);
  });
}

export function GuideStrip() {
  const presetName = useApp((s) => s.preset);
  const showGuide = useApp((s) => s.showGuide);
  const setShowGuide = useApp((s) => s.setShowGuide);
  if (!presetName) {
    return (
      <footer className="guide-strip" data-testid="guide">
        <span className="guide-text">
          No lesson chosen: these are the plain defaults. Pick a lesson at the top to get its guide.
        </span>
      </footer>
    );
  }
  const preset = getPreset(presetName);
  if (!showGuide) {
    return (
      <footer className="guide-strip collapsed" data-testid="guide" data-collapsed="true">
        <button data-testid="guide-show" onClick={() => setShowGuide(true)}>
          show the guide: {preset.title}
        </button>
        {preset.needsGpu && (
          <span className="guide-gpu" data-testid="guide-gpu" title={preset.needsGpu}>
            needs a real GPU
          </span>
        )}
        <Extras preset={preset} />
      </footer>
    );
  }
  return <Guide preset={preset} onHide={() => setShowGuide(false)} />;
}

function Guide({ preset, onHide }: { preset: Preset; onHide: () => void }) {
  const index = useApp((s) => Math.min(s.guideStep, preset.guide.length - 1));
  const setGuideStep = useApp((s) => s.setGuideStep);
  const zoom = useApp((s) => s.zoom);
  const stepsDone = useApp((s) => s.step);
  const hasAdvantages = useApp((s) => s.rollout?.advantages !== undefined);
  const step = preset.guide[index];
  const ready = guideStepReady(step, { stepsDone, hasAdvantages });
  return (
    <footer className="guide-strip" data-testid="guide" aria-label={`guide: ${preset.title}`}>
      <div className="guide-main">
        <div className="guide-summary" data-testid="guide-summary">
          {preset.summary}
        </div>
        <div className="guide-step" data-testid="guide-step" data-index={index}>
          <span className="guide-count">
            {index + 1} / {preset.guide.length}
          </span>
          <span className="guide-text" data-testid="guide-text">
            {step.text}
          </span>
          <span className="guide-nav">
            <PrevNext index={index} count={preset.guide.length} go={setGuideStep} testId="guide" noun="guide step" />
            {step.show && (
              <button
                data-testid="show-me"
                disabled={!ready}
                onClick={() => step.show && flash(step.show)}
                title={ready ? 'Point at it on the screen' : stepBlocker(step)}
              >
                show me
              </button>
            )}
          </span>
        </div>
      </div>
      <div className="guide-side">
        {/* Said in full, not left in the clamped expect line: a software GPU will not show this point. */}
        {preset.needsGpu && (
          <div className="guide-gpu" data-testid="guide-gpu" title={preset.expect}>
            {preset.needsGpu}
          </div>
        )}
        <ExpectLine text={preset.expect} short={preset.needsGpu !== undefined} />
        <div className="guide-actions">
          <Extras preset={preset} />
          <Details preset={preset} />
          {/* "hide" alone with A+: the menus, details and this must share one line. */}
          <button className="link-button" data-testid="guide-hide" onClick={onHide} title="hide the guide">
            {zoom ? 'hide' : 'hide guide'}
          </button>
        </div>
      </div>
    </footer>
  );
}

/**
 * What measured runs did: as many whole clauses as fit the strip's line(s) (two, one beside a
 * needs-a-GPU line), then "more", which opens the whole text in a popover above the strip.
 */
function ExpectLine({ text, short }: { text: string; short: boolean }) {
  const all = useMemo(() => clauses(text), [text]);
  const box = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(all.length);
  const [open, setOpen] = useState(false);
  const [width, setWidth] = useState(0);
  useEffect(() => setOpen(false), [text]);
  // A new text or width: try them all again, then drop the last clause while the line overflows.
  useLayoutEffect(() => setShown(all.length), [all, width, short]);
  // No dependency list on purpose: after every layout pass, one clause more is dropped until the line fits.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    const el = box.current;
    if (el && shown > 0 && el.scrollHeight > el.clientHeight + 1) setShown(shown - 1);
  });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.round(el.clientWidth)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (!open) return;
    const close = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    window.addEventListener('keydown', close);
    return () => window.removeEventListener('keydown', close);
  }, [open]);
  const cut = shown < all.length;
  return (
    <div className="guide-expect-wrap">
      <div
        ref={box}
        className={`guide-expect${short ? ' short' : ''}`}
        data-testid="guide-expect"
        data-whole={cut ? 'no' : 'yes'}
      >
        <span className="muted">expected:</span> {firstClauses(all, shown)}
        {cut && (
          <>
            {' '}
            <button
              className="link-button"
              data-testid="expect-more"
              aria-expanded={open}
              onClick={() => setOpen(!open)}
            >
              {shown === 0 ? 'what measured runs did' : 'more'}
            </button>
          </>
        )}
      </div>
      {open && (
        <div
          className="expect-pop"
          role="dialog"
          aria-label="what measured runs did"
          data-testid="expect-pop"
          onClick={() => setOpen(false)}
        >
          <b>Expected</b> (what measured runs did): {text}
        </div>
      )}
    </div>
  );
}

/** The variants and the trained models: inline, or as two menus with the projector zoom. */
function Extras({ preset }: { preset: Preset }) {
  const zoom = useApp((s) => s.zoom);
  if (!zoom) {
    return (
      <>
        <Variants preset={preset} />
        <JumpAhead preset={preset} />
      </>
    );
  }
  return (
    <>
      {preset.variants?.length || preset.ablation ? (
        <Menu label="compare" testId="menu-variants">
          <Variants preset={preset} />
        </Menu>
      ) : null}
      {preset.checkpoints?.length ? (
        <Menu label="trained" testId="menu-trained" title="jump ahead: load a model the lesson's recorded run trained">
          <JumpAhead preset={preset} />
        </Menu>
      ) : null}
    </>
  );
}

/** A folded menu that opens upwards over the lesson and closes again once a choice is made. */
function Menu({
  label,
  testId,
  title,
  children,
}: {
  label: string;
  testId: string;
  title?: string;
  children: ReactNode;
}) {
  return (
    // One name: opening one menu closes the other.
    <details className="guide-menu" name="guide-menu" data-testid={testId}>
      <summary title={title}>{label} ▾</summary>
      <div
        className="guide-menu-body"
        onClick={(e) => {
          if ((e.target as HTMLElement).closest('button'))
            (e.currentTarget.parentElement as HTMLDetailsElement).open = false;
        }}
      >
        {children}
      </div>
    </details>
  );
}

function Variants({ preset }: { preset: Preset }) {
  const controller = useController();
  const setDrawer = useApp((s) => s.setDrawer);
  if (!preset.variants?.length && !preset.ablation) return null;
  return (
    <span className="variants" data-highlight="variants">
      {preset.ablation || preset.variants?.length ? (
        <button
          className="chip"
          data-testid="open-ablation"
          onClick={() => setDrawer('ablation')}
          title="Run the comparison over several seeds, several runs at once, with statistics"
        >
          over seeds…
        </button>
      ) : null}
      <span className="muted">compare, same seed:</span>{' '}
      {preset.variants?.length ? (
        <button
          className="chip"
          data-testid="variant"
          data-variant=""
          onClick={() => controller?.runVariant(null)}
          title="Run the lesson as it is"
        >
          ▶ {preset.name}
        </button>
      ) : null}
      {(preset.variants ?? []).map((v) => (
        <button
          key={v.label}
          className="chip"
          data-testid="variant"
          data-variant={v.label}
          onClick={() => controller?.runVariant(v.label)}
          title="Run this variant with the same seed and steps, drawn over the lesson's run"
        >
          ▶ {v.label}
        </button>
      ))}
    </span>
  );
}

function JumpAhead({ preset }: { preset: Preset }) {
  const controller = useController();
  const [loading, setLoading] = useState<string | null>(null);
  useEffect(() => setLoading(null), [preset.name]);
  if (!preset.checkpoints?.length) return null;
  return (
    <span className="jump" data-highlight="jump">
      <span className="muted">trained model:</span>{' '}
      {preset.checkpoints.map((c) => (
        <button
          key={c.file}
          className="chip"
          data-testid="load-trained"
          data-file={c.file}
          disabled={loading !== null}
          title={c.note}
          onClick={() => {
            setLoading(c.file);
            void controller?.loadLessonCheckpoint(c.file, c.label).finally(() => setLoading(null));
          }}
        >
          {loading === c.file ? 'loading…' : `load: ${c.label}`}
        </button>
      ))}
    </span>
  );
}

function Details({ preset }: { preset: Preset }) {
  return (
    <details className="guide-details">
      <summary data-testid="guide-details">details</summary>
      <div className="guide-details-body">
        <p>{preset.explanation}</p>
        <ol>
          {preset.guide.map((g, i) => (
            <li key={i}>{g.text}</li>
          ))}
        </ol>
        {/* The strip shows two lines of it; here it is whole. */}
        <p data-testid="guide-details-expect">
          <b>Expected</b> (what measured runs did): {preset.expect}
        </p>
      </div>
    </details>
  );
}
