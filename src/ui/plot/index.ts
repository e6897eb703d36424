// The SVG plotting layer of the charts: fixed-domain line plots and advantage histograms, with
// the pure scale and geometry helpers the callers need to choose domains.

export { LinePlot, type PlotProps, type PlotPoint, type PlotSeries } from './LinePlot';
export { HistogramPlot, type HistogramProps, type HistogramRun } from './HistogramPlot';
export {
  countAxis, formatTick, integerTicks, linear, nearestIndex, niceTicks, paddedDomain, stepDomain,
  type PaddedDomainOptions,
} from './scale';
export { symmetricDomain } from './histogram';
