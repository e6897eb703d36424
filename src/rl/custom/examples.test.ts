// Every built-in estimator as custom code (generated from its source into
// src/config/code-examples.generated.json) reproduces the built-in's advantages bit for bit, on
// random batches, through the real path: transpiled, loaded in Node's sandbox, called, checked.
// This holds the generator's wiring (the functions it gathers, OPTIONS, the call) to the built-in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ESTIMATOR_TEMPLATE } from '../../config/user-code';
import { CODE_EXAMPLES, GRPO_NO_STD_SOURCE, examplesOf } from '../../config/code-examples';
import { baseAdvantages, computeAdvantages, type AdvantageOptions } from '../estimators';
import { DEFAULT_ADVANTAGE_OPTIONS } from '../settings';
import { arbBatch, makeBatch, withOptions } from '../estimators-fixtures';
import { estimatorRows } from '../../estimators';
import { MappPosterior } from '../../estimators/mapp';
import { CustomCode } from './custom-code';
import { estimatorInput, estimatorLengths } from './interface';
import { nodeSandbox } from './sandbox-node';

const source = (id: string): string => CODE_EXAMPLES.find((e) => e.id === id)!.source;

async function load(code: string): Promise<CustomCode> {
  return CustomCode.load('estimator', code, nodeSandbox, 2000);
}

/** The example's output equals the built-in's exactly (Object.is per entry: -0 and 0 differ). */
async function expectSame(
  code: CustomCode,
  options: Partial<AdvantageOptions>,
  opts: { shaped?: boolean; minG?: number } = {},
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      arbBatch({ shaped: opts.shaped }).filter((b) => b.G >= (opts.minG ?? 1)),
      async (batch) => {
        const want = baseAdvantages(batch, { ...DEFAULT_ADVANTAGE_OPTIONS, ...options });
        const got = await code.call(estimatorInput(batch, 1), estimatorLengths(batch));
        expect(got.length).toBe(want.length);
        for (let i = 0; i < want.length; i++)
          expect(Object.is(got[i], want[i]), `entry ${i}: ${got[i]} vs ${want[i]}`).toBe(true);
      },
    ),
    { numRuns: 60 },
  );
}

describe('the built-ins as custom code', () => {
  it('every built-in estimator has an example', () => {
    const covered = examplesOf('estimator')
      .map((e) => e.builtin)
      .filter(Boolean);
    // Every row of the estimator table (src/estimators/table.ts) but those that opt out.
    const rows = estimatorRows().filter((r) => r.example !== false);
    expect(rows.length).toBeGreaterThan(5);
    expect(covered).toEqual(rows.map((r) => r.name));
  });

  for (const estimator of ['reinforce', 'reinforce_baseline', 'rloo', 'softmax_grpo'] as const) {
    it(`${estimator} reproduces the built-in`, async () => {
      const code = await load(source(estimator));
      await expectSame(code, { estimator });
      await expectSame(code, { estimator }, { shaped: true });
      code.dispose();
    });
  }

  it('grpo reproduces the built-in at every scale (group, batch, none)', async () => {
    for (const scale of ['group', 'batch', 'none'] as const) {
      const code = await load(withOptions(source('grpo'), { grpoScale: scale }));
      await expectSame(code, { estimator: 'grpo', grpoScale: scale }, { shaped: true });
      code.dispose();
    }
  });

  it("the template is GRPO, and the lesson's one-line change is grpoScale = none", async () => {
    const template = await load(ESTIMATOR_TEMPLATE);
    await expectSame(template, { estimator: 'grpo', grpoScale: 'group' }, { shaped: true });
    const noStd = await load(GRPO_NO_STD_SOURCE);
    await expectSame(noStd, { estimator: 'grpo', grpoScale: 'none' }, { shaped: true });
  });

  it('avspo reproduces the built-in (V = 1 and V = 3)', async () => {
    for (const v of [1, 3]) {
      const code = await load(withOptions(source('avspo'), { avspoVirtual: v }));
      await expectSame(code, { estimator: 'avspo', avspoVirtual: v }, { minG: 2 });
      await expectSame(code, { estimator: 'avspo', avspoVirtual: v }, { shaped: true, minG: 2 });
      code.dispose();
    }
  });

  it('lampo reproduces the built-in (τ = 1 and τ = 0.1)', async () => {
    for (const tau of [1, 0.1]) {
      const code = await load(withOptions(source('lampo'), { lampoTau: tau }));
      await expectSame(code, { estimator: 'lampo', lampoTau: tau });
      await expectSame(code, { estimator: 'lampo', lampoTau: tau }, { shaped: true });
      code.dispose();
    }
  });

  it("gcs is GRPO with gcsSigma = 0.25 (the pipeline's seqAdv, bit for bit)", async () => {
    const code = await load(source('gcs'));
    await fc.assert(
      fc.asyncProperty(
        arbBatch().filter((b) => b.G >= 2),
        async (batch) => {
          const want = computeAdvantages(batch, {
            ...DEFAULT_ADVANTAGE_OPTIONS,
            estimator: 'grpo',
            gcsSigma: 0.25,
          }).seqAdv;
          const got = await code.call(estimatorInput(batch, 1), estimatorLengths(batch));
          for (let i = 0; i < want.length; i++)
            expect(Object.is(got[i], want[i]), `entry ${i}: ${got[i]} vs ${want[i]}`).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
    code.dispose();
  });

  it('passk reproduces the built-in (K = 4, groups of at least 4)', async () => {
    const code = await load(source('passk'));
    await expectSame(code, { estimator: 'passk', passK: 4 }, { minG: 4 });
  });

  it('mapp reproduces the built-in posterior advantage over a run of steps', async () => {
    const code = await load(source('mapp'));
    const posterior = new MappPosterior();
    const keys = ['p0', 'p1', 'p2'];
    // Ten steps over a small pool of prompts, so the posteriors build up.
    for (let step = 1; step <= 10; step++) {
      const correct = Array.from({ length: 2 * 5 }, (_, i) => ((i * 7 + step * 3) % 4 === 0 ? 1 : 0));
      const batch = makeBatch({
        B: 2,
        G: 5,
        T: 2,
        rewards: correct,
        correct,
        promptKeys: [keys[step % 3], keys[(step + 1) % 3]],
      });
      const want = baseAdvantages(batch, { ...DEFAULT_ADVANTAGE_OPTIONS, estimator: 'mapp' }, posterior);
      posterior.observeBatch(batch.promptKeys, batch.correct, batch.G);
      const got = await code.call(estimatorInput(batch, step), estimatorLengths(batch));
      expect(Array.from(got), `step ${step}`).toEqual(Array.from(want));
    }
  });
});
