// The built-ins' examples are generated from their source: the committed JSON is what the
// generator writes now, so an estimator changed without regenerating fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimatorRows } from '../estimators';
import { GENERATED_PATH, generatedJson } from './code-examples-gen';
import { CODE_EXAMPLES, GRPO_NO_STD_SOURCE } from './code-examples';
import { WEIGHTED_EXAMPLES } from './code-examples-weighted';

describe('code-examples.generated.json', () => {
  it('is up to date (regenerate: npx tsx src/config/code-examples-gen.ts)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await generatedJson());
  }, 30_000);

  it('gives every row of the estimator table its example, named by the row, with no TypeScript left', () => {
    for (const row of estimatorRows().filter((r) => r.example !== false)) {
      const e = CODE_EXAMPLES.find((x) => x.id === row.name);
      expect(e, row.name).toMatchObject({ kind: 'estimator', title: row.title, builtin: row.name });
      expect(e!.source).toContain(`the built-in estimator "${row.name}"`);
      expect(e!.source).toMatch(/^function advantages\(batch\) \{$/m);
      expect(e!.source).not.toMatch(/^(export|import) |\): Float64Array|batch: RolloutBatch/m);
    }
  });

  it('generates each weighted example from its estimator and weight, with the weight at its value', () => {
    for (const w of WEIGHTED_EXAMPLES) {
      const e = CODE_EXAMPLES.find((x) => x.id === w.id);
      expect(e, w.id).toMatchObject({ kind: 'estimator', title: w.title });
      expect(e!.source).toContain(`the built-in estimator "${w.estimator}" with ${w.knob} = ${w.value}`);
      expect(e!.source).toMatch(new RegExp(`^function ${w.weight.name}\\(`, 'm'));
      expect(e!.source).toContain(`${w.knob}: ${w.value}`);
      expect(e!.source).not.toMatch(/^(export|import) |\): Float64Array|batch: RolloutBatch/m);
    }
  });

  it("derives the lesson's one-line change from GRPO's generated code", () => {
    expect(GRPO_NO_STD_SOURCE).toContain('const denom = 1; // was:');
    expect(GRPO_NO_STD_SOURCE).not.toContain('the built-in estimator');
  });
});
