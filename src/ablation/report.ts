// An ablation's statistics as Markdown (summary.md of `rlvr sweep` / `rlvr report`; the page can
// offer the same text). Pure: a string from the summary object.

import { metricName } from '../config/metric-names';
import type { BandPoint, SolvedRule } from './curves';
import { solvedBy } from './solve';
import { formatSteps, formatValue, ruleText, type AblationStats } from './summary';

function table(head: string[], rows: string[][]): string[] {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    `| ${head.map(esc).join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ];
}

function interval(lo: number | null, hi: number | null): string {
  return lo === null ? '' : ` [${formatValue(lo)}, ${formatValue(hi)}]`;
}

/** A few evenly spaced steps of a budget (quarters), for tables of curves. */
function checkpoints(last: number): number[] {
  if (last <= 0) return [];
  const out = new Set<number>();
  for (const f of [0.25, 0.5, 0.75, 1]) out.add(Math.max(1, Math.round(last * f)));
  return [...out];
}

/** The band point at the last recorded step ≤ t. */
function at(curve: readonly BandPoint[], t: number): BandPoint | undefined {
  let found: BandPoint | undefined;
  for (const p of curve) if (p.step <= t) found = p;
  return found;
}

export interface ReportHeading {
  /** "Ablation: clip-higher". */
  title: string;
  /** Lines under the title: the preset, seeds, steps, how the runs were made. */
  lines?: readonly string[];
}

export function ablationMarkdown(stats: AblationStats, heading: ReportHeading): string {
  const out: string[] = [`# ${heading.title}`, ''];
  for (const l of heading.lines ?? []) out.push(l);
  if (heading.lines?.length) out.push('');
  const pct = `${Math.round(stats.confidence * 100)}%`;

  out.push(`**Answer:** ${stats.answer}`, '');
  out.push('## Verdict', '');
  for (const v of stats.verdict) out.push(`- ${v}`);
  out.push('');

  if (stats.solved) solvedSection(out, stats, stats.solved, pct);
  finalsSection(out, stats, pct);
  curveSection(out, stats, pct);
  comparisonsSection(out, stats);
  runsSection(out, stats);
  return out.join('\n');
}

/** "Solved": each cell's steps to the rule, per seed, then the share solved by a few steps (Kaplan–Meier). */
function solvedSection(out: string[], stats: AblationStats, rule: SolvedRule, pct: string): void {
  out.push(`## Solved: first step with ${ruleText(rule)}`, '');
  out.push(
    'Read at the steps the metric was recorded (held-out pass@1: every evalEvery steps), so a solve step is only as fine as that interval.',
    '',
  );
  out.push(
    ...table(
      ['cell', 'solved', `median steps [${pct} bootstrap]`, 'per seed (step, or > last step)'],
      stats.cells.map((c) => {
        const s = c.solve!;
        const med =
          s.median === null
            ? 'not reached'
            : `${formatSteps(s.median)}${s.medianInterval ? ` [${formatSteps(s.medianInterval.lo)}, ${s.medianInterval.hi === null ? `> ${formatSteps(s.within.max)}` : formatSteps(s.medianInterval.hi)}]` : ''}`;
        const per = s.outcomes
          .map((o) => `s${o.seed}: ${o.solvedAt === null ? `> ${formatSteps(o.lastStep)}` : formatSteps(o.solvedAt)}`)
          .join(', ');
        return [c.label, `${s.solved}/${s.n} within ${formatSteps(s.within.max)}`, med, per];
      }),
    ),
  );
  out.push('');
  const last = Math.max(0, ...stats.cells.map((c) => c.solve!.within.max));
  const ts = checkpoints(last);
  if (ts.length) {
    out.push('Solved by step t (Kaplan–Meier: a run that stopped unsolved counts until its last step):', '');
    out.push(
      ...table(
        ['cell', ...ts.map((t) => `t = ${formatSteps(t)}`)],
        stats.cells.map((c) => [c.label, ...ts.map((t) => `${Math.round(solvedBy(c.solve!.curve, t) * 100)}%`)]),
      ),
    );
    out.push('');
  }
}

/** "Final values": each metric's mean over seeds with its t interval, and the seeds' own values. */
function finalsSection(out: string[], stats: AblationStats, pct: string): void {
  out.push(`## Final values (mean [${pct} t interval] over seeds)`, '');
  const rows: string[][] = [];
  for (const m of stats.metrics) {
    for (const c of stats.cells) {
      const f = c.finals[m];
      if (f.n === 0) continue;
      const what = f.window > 1 ? `${metricName(m)} (last ${f.window} steps)` : metricName(m);
      rows.push([
        what,
        c.label,
        String(f.n),
        `${formatValue(f.mean)}${interval(f.lo, f.hi)}`,
        f.values.map((v) => `s${v.seed}: ${formatValue(v.value)}`).join(', '),
      ]);
    }
  }
  out.push(...table(['metric', 'cell', 'seeds', 'mean', 'per seed'], rows), '');
}

/** The main metric over training: each cell's band at a few steps. */
function curveSection(out: string[], stats: AblationStats, pct: string): void {
  const primary = stats.metrics[0];
  // Reduced, not spread: a thousand cells of 300 points each would overflow Math.max's arguments.
  const lastStep = stats.cells.reduce(
    (m, c) => (c.curves[primary] ?? []).reduce((mm, p) => Math.max(mm, p.step), m),
    0,
  );
  const ts = checkpoints(lastStep);
  if (primary && ts.length) {
    out.push(`## ${metricName(primary)} over training (mean [${pct} t band], runs averaged)`, '');
    out.push(
      ...table(
        ['cell', ...ts.map((t) => `step ≤ ${formatSteps(t)}`)],
        stats.cells.map((c) => [
          c.label,
          ...ts.map((t) => {
            const p = at(c.curves[primary] ?? [], t);
            return p ? `${formatValue(p.mean)}${interval(p.lo, p.hi)} (n ${p.n}, step ${formatSteps(p.step)})` : '–';
          }),
        ]),
      ),
    );
    out.push('');
  }
}

/** "All comparisons": every test made, with its p before and after Holm. */
function comparisonsSection(out: string[], stats: AblationStats): void {
  const compared = stats.comparisons.filter((c) => c.text);
  if (compared.length) {
    out.push('## All comparisons', '');
    out.push(
      ...table(
        ['what', 'cells', 'p', 'p (Holm)', 'verdict'],
        compared.map((c) => [
          c.kind === 'solve' ? 'steps to solve' : `final ${metricName(c.metric)}`,
          `${c.a} vs ${c.b}`,
          c.p === null ? '–' : c.p.toFixed(3),
          c.pAdjusted === null ? '–' : c.pAdjusted.toFixed(3),
          c.verdict,
        ]),
      ),
    );
    out.push('');
  }
}

/** "Runs": every run, its steps and when it was solved. */
function runsSection(out: string[], stats: AblationStats): void {
  out.push('## Runs', '');
  out.push(
    ...table(
      ['cell', 'seed', 'steps', 'solved at', 'run'],
      stats.cells.flatMap((c) =>
        c.runs.map((r) => [
          c.label,
          String(r.seed),
          formatSteps(r.lastStep),
          r.solvedAt === null ? '–' : formatSteps(r.solvedAt),
          r.id ?? '',
        ]),
      ),
    ),
  );
  out.push('');
}
