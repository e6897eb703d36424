// The peers suite's results as tables: the summary printed after the run, and the Markdown
// of docs/benchmarks.md (./peers.ts measures).

import { formatTable, markdownTable, sig3, type Cell } from './text-table';
import type { PeerModelResult, SideResult } from './peers-results';

// ─── report ─────────────────────────────────────────────────────────────────────────────────

const f3 = (x: number | null | undefined): Cell =>
  x === null || x === undefined || !Number.isFinite(x) ? null : sig3(x);
const times2 = (x: number | null | undefined): Cell => (x === null || x === undefined ? null : `${x.toFixed(2)}×`);

export function tfjsOf(m: PeerModelResult): SideResult | null {
  return 'error' in m.tfjs ? null : m.tfjs;
}

export function summaryTable(models: PeerModelResult[]): string {
  const headers = [
    'model',
    'params',
    'engine step ms',
    'TF.js step ms',
    'TF.js/engine',
    'engine tok/s',
    'TF.js tok/s',
    'engine/TF.js',
    'max |Δlogp|',
    'grad norm rel Δ',
  ];
  return formatTable(
    headers,
    models.map((m) => [
      m.name,
      m.params,
      f3(m.engine.trainStep.medianMs),
      f3(tfjsOf(m)?.trainStep.medianMs),
      times2(m.trainTfjsOverEngine),
      f3(m.engine.sampling.tokensPerS),
      f3(tfjsOf(m)?.sampling.tokensPerS),
      times2(m.samplingEngineOverTfjs),
      m.check ? m.check.maxAbsLogpDiff.toExponential(1) : null,
      m.check ? m.check.gradNormRelDiff.toExponential(1) : null,
    ]),
  );
}

/** The table of docs/benchmarks.md (Markdown). */
export function peersMarkdown(models: PeerModelResult[]): string {
  const headers = [
    'model (params)',
    'train step ms: engine / TF.js',
    'TF.js ÷ engine',
    'sampling tok/s: engine / TF.js',
    'engine ÷ TF.js',
  ];
  return markdownTable(
    headers,
    models.map((m) => {
      const tf = tfjsOf(m);
      return [
        `${m.name} (${m.params.toLocaleString('en-US')})`,
        `${sig3(m.engine.trainStep.medianMs)} / ${tf ? sig3(tf.trainStep.medianMs) : '–'}`,
        times2(m.trainTfjsOverEngine),
        `${sig3(m.engine.sampling.tokensPerS)} / ${tf ? sig3(tf.sampling.tokensPerS) : '–'}`,
        times2(m.samplingEngineOverTfjs),
      ];
    }),
  );
}
