import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { presetConfig } from '../lessons';
import { makeRun, type RunRecord } from './kept-runs';
import { RunFileError, runFileName, runFromJson, runToCsv, runToJson } from './runFiles';

function sampleRun(): RunRecord {
  const run = makeRun([], presetConfig('sort-easy'), 'sort-easy', { id: 'r1', now: 1000 });
  run.points = [
    { step: 1, level: 3, scalars: { reward: 0.25, 'pass@1': 0, 'task/x': 1 } },
    { step: 2, level: 3, scalars: { reward: 0.5, 'pass@1': 0.125, kl: NaN } },
  ];
  run.evals = [
    {
      step: 2,
      level: 3,
      prompts: 16,
      'eval/pass@1_greedy': 0.5,
      'eval/pass@k': 0.75,
      'eval/pass@1_sampled': 0.25,
      k: 4,
      taskMetrics: {},
    },
  ];
  run.histogram = { counts: [1, 2], edges: [-1, 0, 1] };
  return run;
}

describe('run files', () => {
  it('CSV: step, level, every scalar in first-seen order, eval columns on the steps that evaluated', () => {
    expect(runToCsv(sampleRun())).toBe(
      'step,level,reward,pass@1,task/x,kl,eval/pass@1_greedy,eval/pass@k,eval/pass@1_sampled\n' +
        '1,3,0.25,0,1,,,,\n' +
        '2,3,0.5,0.125,,,0.5,0.75,0.25\n',
    );
    const noEvals = { ...sampleRun(), evals: [] };
    expect(runToCsv(noEvals).split('\n')[0]).toBe('step,level,reward,pass@1,task/x,kl');
    const quoted = { ...sampleRun(), points: [{ step: 1, level: 0, scalars: { 'a,"b"': 1 } }], evals: [] };
    expect(runToCsv(quoted).split('\n')[0]).toBe('step,level,"a,""b"""');
  });

  it('JSON round trip keeps config, metrics and evals (NaN comes back as NaN)', () => {
    const run = sampleRun();
    const back = runFromJson(runToJson(run), 'r.json');
    expect(back.id).not.toBe(run.id);
    expect(back).toMatchObject({
      name: '#1',
      label: 'sort-easy',
      preset: 'sort-easy',
      config: run.config,
      evals: run.evals,
      histogram: run.histogram,
      importedFrom: 'r.json',
    });
    expect(back.points[0]).toEqual(run.points[0]);
    expect(back.points[1].scalars.kl).toBeNaN();
    expect(runFileName(run, 'csv')).toBe('rlvr-1-sort-easy.csv');
  });

  it('refuses bad files with a message naming the field', () => {
    const err = (text: string) => {
      try {
        runFromJson(text, 'f.json');
      } catch (e) {
        expect(e).toBeInstanceOf(RunFileError);
        return (e as RunFileError).message;
      }
      throw new Error('accepted');
    };
    expect(err('not json')).toContain('f.json is not JSON');
    expect(err('{"a":1}')).toContain('not a playground run');
    expect(err(JSON.stringify({ format: 'rlvr-playground-run', version: 2 }))).toContain('version 2');
    const good = JSON.parse(runToJson(sampleRun()));
    expect(err(JSON.stringify({ ...good, config: { ...good.config, groupSize: 0 } }))).toBe(
      'f.json: config: groupSize must be an integer in [1, 64], got 0',
    );
    expect(err(JSON.stringify({ ...good, points: [{ step: 1, level: 0, scalars: { reward: 'high' } }] }))).toBe(
      'points[0].scalars.reward must be a number',
    );
    expect(err(JSON.stringify({ ...good, points: [{ step: -1 }] }))).toBe(
      'points[0].step must be a non-negative integer',
    );
    expect(err(JSON.stringify({ ...good, evals: [{ step: 1 }] }))).toBe('evals[0].level must be a number');
  });

  it('CSV: a name a spreadsheet would run as a formula is quoted and defused', () => {
    const run = {
      ...sampleRun(),
      evals: [],
      points: [
        {
          step: 1,
          level: 0,
          scalars: { '=HYPERLINK("http://x","y")': 1, '+1': 2, '-x': 3, '@SUM(A1)': 4, 'ok-name': 5 },
        },
      ],
    };
    expect(runToCsv(run).split('\n')[0]).toBe(
      `step,level,"'=HYPERLINK(""http://x"",""y"")","'+1","'-x","'@SUM(A1)",ok-name`,
    );
    // Numbers, negative ones included, stay bare.
    const neg = { ...sampleRun(), evals: [], points: [{ step: 1, level: 0, scalars: { loss: -0.5 } }] };
    expect(runToCsv(neg).split('\n')[1]).toBe('1,0,-0.5');
  });

  it('import checks the histogram and eval task metrics, naming the entry; a scalar named __proto__ stays a scalar', () => {
    const good = JSON.parse(runToJson(sampleRun()));
    const err = (file: unknown) => {
      try {
        runFromJson(JSON.stringify(file), 'f.json');
      } catch (e) {
        expect(e).toBeInstanceOf(RunFileError);
        return (e as RunFileError).message;
      }
      throw new Error('accepted');
    };
    expect(err({ ...good, histogram: { counts: [1, 'x'], edges: [0, 1, 2] } })).toBe(
      'histogram.counts[1] must be a number ≥ 0, got "x"',
    );
    expect(err({ ...good, histogram: { counts: [1, -1], edges: [0, 1, 2] } })).toMatch(
      /^histogram\.counts\[1\] must be a number ≥ 0/,
    );
    expect(err({ ...good, histogram: { counts: [1, 2], edges: [0, 2, 1] } })).toMatch(
      /^histogram\.edges must be ascending/,
    );
    expect(err({ ...good, histogram: { counts: [1, 2], edges: [0, 1] } })).toMatch(
      /^histogram\.edges must have one more entry than counts \(3\), got 2/,
    );
    expect(err({ ...good, histogram: [1] })).toMatch(/^histogram must be null or/);
    expect(err({ ...good, evals: [{ ...good.evals[0], taskMetrics: { a: 'b' } }] })).toBe(
      'evals[0].taskMetrics.a must be a number',
    );
    expect(err({ ...good, evals: 3 })).toBe('f.json: evals must be a list');
    const proto = JSON.parse(runToJson(sampleRun()).replace('"reward":0.25', '"__proto__":0.25'));
    const back = runFromJson(JSON.stringify(proto));
    expect(Object.getOwnPropertyNames(back.points[0].scalars)).toContain('__proto__');
    expect(Object.getPrototypeOf(back.points[0].scalars)).toBe(Object.prototype);
  });
});

describe('run import, fed garbage', () => {
  /** runFromJson returns a run or throws a RunFileError naming a field; nothing else. */
  const read = (text: string): void => {
    try {
      const run = runFromJson(text, 'g.json');
      expect(run.points.every((p) => Number.isInteger(p.step) && Number.isFinite(p.level))).toBe(true);
    } catch (e) {
      if (!(e instanceof RunFileError))
        throw new Error(`not a RunFileError: ${(e as Error)?.name}: ${(e as Error)?.message}`, { cause: e });
      expect(e.field.length).toBeGreaterThan(0);
      expect(e.message.length).toBeGreaterThan(0);
    }
  };
  const good = JSON.parse(runToJson(sampleRun()));

  it('random text and random JSON', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), read), { numRuns: 200 });
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (v) => read(JSON.stringify(v))),
      { numRuns: 300 },
    );
  });

  it('a valid run file with any field replaced by random JSON', () => {
    const paths: (string | number)[][] = [
      ['name'],
      ['label'],
      ['preset'],
      ['createdAt'],
      ['config'],
      ['config', 'lr'],
      ['config', 'task'],
      ['points'],
      ['points', 0],
      ['points', 0, 'step'],
      ['points', 0, 'level'],
      ['points', 0, 'scalars'],
      ['points', 0, 'scalars', 'reward'],
      ['evals'],
      ['evals', 0],
      ['evals', 0, 'taskMetrics'],
      ['evals', 0, 'k'],
      ['histogram'],
      ['histogram', 'counts'],
      ['histogram', 'edges'],
      ['histogram', 'counts', 0],
      ['version'],
    ];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), (path, value) => {
        const file = structuredClone(good);
        let at = file;
        for (const k of path.slice(0, -1)) at = at[k];
        at[path[path.length - 1]] = value;
        read(JSON.stringify(file));
      }),
      { numRuns: 500 },
    );
  });
});
