// A lesson's comparison variants: one of them (or the lesson itself) run with the current seed
// and step budget, overlaid on the lesson's own run of that seed, from the lesson's starting
// weights when it has them (its `init`, e.g. a base model), once fetched.

import { mergeConfig, type RunConfig } from '../../config';
import { getPreset, presetConfig, variantConfig } from '../../lessons';
import type { RunFiles } from './page-files';
import type { ControllerHost } from './host';

export class LessonVariants {
  constructor(
    private readonly host: ControllerHost,
    private readonly files: RunFiles,
  ) {}

  private get state() {
    return this.host.store.getState();
  }

  /** Runs variant `label` of the lesson (null: the lesson itself) and starts it. */
  run(label: string | null): void | Promise<void> {
    const s = this.state;
    const preset = s.preset;
    if (!preset || s.status === 'lost') return;
    const base = label === null ? presetConfig(preset) : variantConfig(preset, label);
    const config = mergeConfig(base, { seed: s.config.seed, steps: s.config.steps });
    if (this.host.codeWaits(config)) return;
    const init = getPreset(preset).init;
    if (init === undefined) return this.start(preset, config, label);
    return this.files.startingWeights(init).then((params) => {
      if (params && this.state.preset === preset) this.start(preset, config, label, params);
    });
  }

  private start(preset: string, config: RunConfig, label: string | null, params?: Float32Array): void {
    const s = this.state;
    const parent = [...s.runs]
      .reverse()
      .find(
        (r) => r.preset === preset && r.variant === undefined && r.config.seed === config.seed && r.points.length > 0,
      );
    const overlay = label !== null && parent && !s.overlay.includes(parent.id) ? [...s.overlay, parent.id] : s.overlay;
    s.setSweep(null);
    s.setConfig(config, preset);
    this.host.init(config, {
      newRun: true,
      label: label ?? undefined,
      variant: label ?? undefined,
      overlay,
      ...(params ? { params } : {}),
    });
    this.host.send({ type: 'start', delayMs: s.delayMs });
  }
}
