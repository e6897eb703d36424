// Server-side renders of the plot components (Node, no DOM): the test hooks the page tests read.

import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { LinePlot, type PlotProps } from './LinePlot';
import { HistogramPlot, type HistogramProps } from './HistogramPlot';

function attr(html: string, name: string): string[] {
  return [...html.matchAll(new RegExp(`${name}="([^"]*)"`, 'g'))].map((m) => m[1]);
}

const lineProps: PlotProps = {
  width: 400, height: 170, xDomain: [0, 300], yDomain: [0, 1], xLabel: 'step', yLabel: 'reward (mean)', testId: 'plot-reward',
  series: [
    { id: 'reward', label: 'reward', color: '#2563eb', points: [{ x: 0, y: 0.1 }, { x: 100, y: 0.4 }, { x: 150, y: 1.4 }], band: [{ x: 0, lo: 0, hi: 0.2 }, { x: 100, lo: 0.3, hi: 0.5 }] },
    { id: 'chance', label: 'chance', color: '#999', points: [{ x: 0, y: 0.5 }, { x: 60, y: 0.25 }], kind: 'step', opacity: 0.25 },
    { id: 'eval', label: 'eval', color: '#111', points: [{ x: 50, y: 0.3 }, { x: 400, y: 0.3 }], kind: 'points', marker: 'triangle' },
  ],
  hLines: [{ y: 0.5, label: 'chance', color: '#888' }, { y: 2, label: 'off the chart', color: '#888' }],
  vLines: [{ x: 60, label: 'L2', color: '#f59e0b' }, { x: 900, label: 'L3', color: '#f59e0b' }],
  selectedX: 100,
};

describe('LinePlot', () => {
  const html = renderToStaticMarkup(createElement(LinePlot, lineProps));
  it('exposes its domains and ticks on the root svg', () => {
    expect(html.startsWith('<svg')).toBe(true);
    expect(attr(html, 'data-testid')[0]).toBe('plot-reward');
    expect(attr(html, 'data-x-domain')).toEqual(['0,300']);
    expect(attr(html, 'data-y-domain')).toEqual(['0,1']);
    expect(attr(html, 'data-y-ticks')).toEqual(['0,0.25,0.5,0.75,1']);
    expect(attr(html, 'data-x-ticks')).toEqual(['0,100,200,300']);
  });
  it('draws one group per series, hLine and visible vLine', () => {
    expect(attr(html, 'data-id')).toEqual(['reward', 'chance', 'eval']);
    expect(attr(html, 'data-points')).toEqual(['3', '2', '2']);
    expect(attr(html, 'data-y')).toEqual(['0.5']); // the one outside the y domain is left out
    expect(attr(html, 'data-x')).toEqual(['60']); // the one outside the domain is left out
    expect(html).toContain('data-testid="plot-selected"');
    expect(html.match(/<path d="M[^"]*Z" fill="#111"/g)).toHaveLength(1); // one triangle: the other eval is outside
  });
  it('always draws both axis titles and clips the lines', () => {
    expect(html).toContain('>step</text>');
    expect(html).toContain('>reward (mean)</text>');
    expect(html).toMatch(/<clipPath id="plot-clip-[A-Za-z0-9_-]+">/);
    expect(html).toMatch(/clip-path="url\(#plot-clip-[A-Za-z0-9_-]+\)"/);
  });
  it('reads a level axis in whole levels', () => {
    const level = renderToStaticMarkup(createElement(LinePlot, { ...lineProps, yDomain: [1, 2], yInteger: true, series: [] }));
    expect(attr(level, 'data-y-ticks')).toEqual(['1,2']);
  });
});

describe('HistogramPlot', () => {
  const runs: HistogramProps['runs'] = [
    { id: 'a', label: 'run a', color: '#2563eb', counts: [1, 4, 9, 3, 2], edges: [-1.5, -0.9, -0.3, 0.3, 0.9, 1.5] },
  ];
  it('draws coloured bars for one run, on a symmetric axis with integer count ticks', () => {
    const html = renderToStaticMarkup(createElement(HistogramPlot, { width: 400, height: 170, runs, xLabel: 'advantage', yLabel: 'tokens', testId: 'hist' }));
    expect(attr(html, 'data-x-domain')).toEqual(['-1.5,1.5']);
    expect(attr(html, 'data-bars')).toEqual(['5']);
    expect(attr(html, 'data-y-ticks')[0].split(',').every((t) => Number.isInteger(Number(t)))).toBe(true);
    expect(html.match(/<rect [^>]*fill="#9ca3af"/g)).toHaveLength(1);
  });
  it('draws one outline per run when comparing runs', () => {
    const two = [...runs, { id: 'b', label: 'run b', color: '#dc2626', counts: [2, 2], edges: [-2, 0, 2] }];
    const html = renderToStaticMarkup(createElement(HistogramPlot, { width: 400, height: 170, runs: two, xLabel: 'advantage', yLabel: 'tokens' }));
    expect(attr(html, 'data-x-domain')).toEqual(['-2,2']);
    expect(attr(html, 'data-id')).toEqual(['a', 'b']);
    expect(html.match(/stroke="#dc2626"/g)).toHaveLength(1);
  });
});
