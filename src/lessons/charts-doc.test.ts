// docs/charts.md's table of charts is generated from CHART_LIST: it must match what its generator writes now.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHART_IDS, CHART_INFO, CHART_LIST } from './charts';
import { chartsTable, withChartsTable } from './charts-doc';

describe('the chart list', () => {
  it('has each id once, a title, a meaning, and the metrics as the index by id has them', () => {
    expect(new Set(CHART_IDS).size).toBe(CHART_LIST.length);
    for (const c of CHART_LIST) {
      expect(c.title.length).toBeGreaterThan(0);
      expect(c.meaning).toMatch(/^[A-Z].*\.$/);
      expect(CHART_INFO[c.id]).toBe(c);
    }
    expect(CHART_INFO.time.metrics).toEqual([
      'time/sample_ms',
      'time/verify_ms',
      'time/advantages_ms',
      'time/update_ms',
    ]);
  });
});

describe('docs/charts.md', () => {
  const md = readFileSync(new URL('../../docs/charts.md', import.meta.url), 'utf8');

  it('has the table of charts up to date (regenerate: npx tsx src/lessons/charts-doc.ts)', () => {
    expect(md).toBe(withChartsTable(md));
  });

  it('has one row per chart with its title, metrics and meaning', () => {
    const table = chartsTable();
    expect(table.split('\n')).toHaveLength(CHART_LIST.length + 2);
    expect(table).toContain(
      '| `groups` | Groups that teach nothing | `frac_reward_zero_std`, `frac_all_wrong`, `frac_all_correct` | Share of groups',
    );
    expect(table).toContain('| `advantages` | Advantages this step | – | Histogram');
  });

  it('refuses a file without the markers', () => {
    expect(() => withChartsTable('# Charts\n')).toThrow(/markers are missing/);
  });
});
