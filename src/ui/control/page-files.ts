// Files in and out of the page: a run as CSV or JSON, a run file imported into the list, a
// checkpoint (.safetensors) imported to train on, and a lesson's trained checkpoint fetched.

import { loadCheckpoint } from '../../store/checkpointFile';
import { runFileName, runFromJson, runToCsv, runToJson } from '../../store/runFiles';
import { nextRunName } from '../../store/kept-runs';
import { lessonOfConfig } from '../../lessons';
import type { ControllerHost } from './host';

export class RunFiles {
  constructor(private readonly host: ControllerHost) {}

  private get state() {
    return this.host.store.getState();
  }

  exportRun(id: string, format: 'csv' | 'json'): void {
    const run = this.state.runs.find((r) => r.id === id);
    if (!run) return;
    if (format === 'csv') this.host.env.download(runFileName(run, 'csv'), runToCsv(run), 'text/csv');
    else this.host.env.download(runFileName(run, 'json'), runToJson(run), 'application/json');
  }

  /** Imports a run (.json) or a checkpoint (.safetensors: weights + run config, training continues from it). */
  importFile(fileName: string, bytes: Uint8Array): void {
    const s = this.state;
    try {
      if (/\.json$/i.test(fileName) || bytes[0] === 0x7b /* { */) {
        const run = runFromJson(new TextDecoder().decode(bytes), fileName);
        s.addRun({ ...run, name: nextRunName(s.runs), label: `imported: ${run.label}` });
        s.notify('info', `Imported run ${run.name} from ${fileName} (${run.points.length} steps).`);
        return;
      }
      const ck = loadCheckpoint(bytes, fileName);
      s.setConfig(ck.config, undefined);
      // Its own code comes from elsewhere: it waits to be read.
      s.reviewCodeOf(ck.config, 'file');
      // A checkpoint of a lesson (its settings, any seed) brings that lesson's recorded runs.
      const lesson = lessonOfConfig(ck.config);
      const jump = lesson ? { preset: lesson, step: ck.resume.step, seed: ck.config.seed, file: fileName } : undefined;
      this.host.init(ck.config, {
        newRun: true,
        params: ck.params,
        resume: ck.resume,
        label: `from ${fileName}`,
        importedFrom: fileName,
        ...(jump ? { jump } : {}),
      });
      s.notify(
        'info',
        `Loaded ${fileName}: weights and run config (step ${ck.resume.step}). Start to continue training it.`,
      );
    } catch (e) {
      s.notify('error', `Could not import ${fileName}: ${(e as Error).message}`);
    }
  }

  /**
   * Loads a trained checkpoint shipped with the page (a lesson's "jump ahead"): its weights,
   * run config and step; the lesson and its guide stay. Resolves when the model is being built.
   */
  async loadLessonCheckpoint(file: string, label: string): Promise<void> {
    const s = this.state;
    const preset = s.preset;
    try {
      if (!this.host.env.fetchBytes) throw new Error('this page cannot fetch files');
      const bytes = await this.host.env.fetchBytes(file);
      const ck = loadCheckpoint(bytes, file);
      // The lesson's step budget, not the one of the run that made the checkpoint.
      const config = { ...ck.config, steps: s.config.steps };
      s.setSweep(null);
      s.setConfig(config, preset);
      const lesson = preset ?? lessonOfConfig(config);
      const jump = lesson ? { preset: lesson, step: ck.resume.step, seed: config.seed, file, label } : undefined;
      this.host.init(config, {
        newRun: true,
        params: ck.params,
        resume: ck.resume,
        label: `trained: ${label}`,
        importedFrom: file,
        overlay: [],
        ...(jump ? { jump } : {}),
      });
      s.notify('info', trainedModelNotice(label, ck.resume.step));
    } catch (e) {
      s.notify('error', `Could not load the trained model ${file}: ${(e as Error).message}`);
    }
  }

  /**
   * The weights of a checkpoint shipped with the page, for runs that start from them (a lesson's
   * `init`: its variants); null, with the reason on screen, when they cannot be had.
   */
  async startingWeights(file: string): Promise<Float32Array | null> {
    try {
      if (!this.host.env.fetchBytes) throw new Error('this page cannot fetch files');
      return loadCheckpoint(await this.host.env.fetchBytes(file), file).params;
    } catch (e) {
      this.state.notify(
        'error',
        `Could not load the model the lesson's runs start from (${file}): ${(e as Error).message}`,
      );
      return null;
    }
  }
}

/** The notice after a jump ahead; a label that already says its step ("step 700, stuck…") is not told it twice. */
export function trainedModelNotice(label: string, step: number): string {
  // "step 2400" or "step 2,400": the label may write the step with a thousands separator.
  const named = new RegExp(`\\bstep (${step}|${step.toLocaleString('en-US')})(?!\\d|,\\d)`).test(label);
  return `Loaded the trained model (${named ? label : `${label}, step ${step}`}). ▶ continues training it.`;
}
