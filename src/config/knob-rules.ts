// The rules between knobs: one table, each rule's check beside the sentence docs/knobs.md prints
// for it, so a rule cannot be enforced without being documented, nor documented without being
// enforced. validateConfig runs the checks in table order and throws the first violation as a
// ConfigError naming the knob to change and the knobs it depends on.

import { ModelConfigError, validateModelConfig } from '../model/model-config';
import { parseParams } from '../tasks/params';
import { getTask } from '../tasks/registry';
import { TaskParamError, type Task, type TaskParams } from '../tasks/types';
import { modelConfigOf, taskParamsAtLevel, taskParamsOf } from './config-views';
import { formatValue, GROUP_ESTIMATORS, TASK_PREFIX } from './knobs';
import { showRaw } from './knob-values';
import { ConfigError, type RunConfig } from './run-config';

/** What a rule's check gets besides the config: its task and the task's `task.<param>` keys. */
interface RuleContext {
  task: Task;
  taskKeys: readonly string[];
}

export interface KnobRule {
  /** The rule as docs/knobs.md states it (Markdown). */
  rule: string;
  /** Throws a ConfigError when the config breaks the rule. */
  check(c: RunConfig, ctx: RuleContext): void;
}

const fail = (knob: string, message: string, related: readonly string[] = []): never => {
  throw new ConfigError(knob, message, related);
};

/** A task's own parameter error, renamed to the `task.<param>` knob it came from. */
export function taskParamError(config: RunConfig, e: unknown): ConfigError {
  if (e instanceof TaskParamError) {
    const key = TASK_PREFIX + e.param;
    const message = e.message.startsWith(`${config.task}.`)
      ? TASK_PREFIX + e.message.slice(config.task.length + 1)
      : e.message;
    const others = getTask(config.task)
      .params.map((p) => TASK_PREFIX + p.name)
      .filter((k) => k !== key);
    return new ConfigError(key, message, others);
  }
  throw e;
}

function checkTaskParams(config: RunConfig, params: TaskParams): void {
  try {
    parseParams(getTask(config.task), params);
  } catch (e) {
    throw taskParamError(config, e);
  }
}

/** Every level below the end must be a valid task whose vocabulary and sequences the model (sized at the end) can take. */
function checkCurriculumLevels(c: RunConfig, { task, taskKeys }: RuleContext, end: number): void {
  const endParams = taskParamsOf(c);
  const endVocab = task.vocab(endParams);
  const endShape = task.shape(endParams);
  for (let level = c.curriculumStart; level < end; level++) {
    const params = taskParamsAtLevel(c, level);
    try {
      parseParams(task, params);
    } catch (e) {
      const err = taskParamError(c, e);
      fail(
        'curriculumStart',
        `curriculumStart ${c.curriculumStart}: at ${c.curriculumParam} = ${level}, ${err.message}`,
        ['curriculumParam', 'curriculum', ...taskKeys],
      );
    }
    const vocab = task.vocab(params);
    const shape = task.shape(params);
    if (vocab.some((t, i) => endVocab[i] !== t)) {
      fail(
        'curriculumParam',
        `curriculumParam ${c.curriculumParam} changes the vocabulary in a way the model cannot follow (level ${level})`,
        ['curriculum', ...taskKeys],
      );
    }
    if (shape.promptLength + shape.completionLength > endShape.promptLength + endShape.completionLength) {
      fail(
        'curriculumParam',
        `curriculumParam ${c.curriculumParam}: level ${level} has longer sequences than the end point`,
        ['curriculum', ...taskKeys],
      );
    }
  }
}

/** The rules, checked in this order (a task's own parameters first: the others read them). */
export const KNOB_RULES: readonly KnobRule[] = [
  {
    rule: "The task's own constraints (e.g. groupmul `scratch` ≤ `length` in the block layout; maze `minDist` ≤ 2·(size−1)).",
    check: (c) => checkTaskParams(c, taskParamsOf(c)),
  },
  {
    // The kernels read 4 channels at a time; the derived sizes must fit the model's own limits.
    rule: '`model.nEmbd` is a multiple of `model.nHead` and of 4.',
    check: (c, { taskKeys }) => {
      if (c['model.nEmbd'] % c['model.nHead'] !== 0) {
        fail(
          'model.nEmbd',
          `model.nEmbd (${c['model.nEmbd']}) must be divisible by model.nHead (${c['model.nHead']})`,
          ['model.nHead'],
        );
      }
      if (c['model.nEmbd'] % 4 !== 0)
        fail('model.nEmbd', `model.nEmbd must be a multiple of 4, got ${c['model.nEmbd']}`);
      try {
        validateModelConfig(modelConfigOf(c));
      } catch (e) {
        if (e instanceof ModelConfigError) fail('model.nEmbd', e.message, ['model.nHead', 'model.nLayer', ...taskKeys]);
        throw e;
      }
    },
  },
  {
    rule: '`minibatches` divides `batchPrompts` · `groupSize`.',
    check: (c) => {
      const n = c.batchPrompts * c.groupSize;
      if (c.minibatches > n || n % c.minibatches !== 0) {
        fail(
          'minibatches',
          `minibatches must divide batchPrompts·groupSize = ${n} (so every sequence is trained), got ${c.minibatches}`,
          ['batchPrompts', 'groupSize'],
        );
      }
    },
  },
  {
    rule: `\`groupSize\` ≥ 2 for the group estimators (${GROUP_ESTIMATORS.join(', ')}).`,
    check: (c) => {
      if (GROUP_ESTIMATORS.includes(c.estimator) && c.groupSize < 2) {
        fail(
          'groupSize',
          `groupSize must be at least 2 with estimator ${c.estimator} (a completion is compared with its group peers), got ${c.groupSize}`,
          ['estimator'],
        );
      }
    },
  },
  {
    rule: '`passK` ≤ `groupSize` with `estimator` = passk.',
    check: (c) => {
      if (c.estimator === 'passk' && c.passK > c.groupSize) {
        fail(
          'passK',
          `passK must be an integer in [1, groupSize] = [1, ${c.groupSize}] with estimator passk, got ${c.passK}`,
          ['groupSize', 'estimator'],
        );
      }
    },
  },
  {
    // A label-free reward must not let the verifier back in: dynamic sampling keeps groups by the
    // verifier's rewards and MaPP's posterior counts the verifier's correct answers.
    rule: '`rewardSource` = consensus needs `groupSize` ≥ 2, `dynamicSampling` off and an `estimator` other than mapp.',
    check: (c) => {
      if (c.rewardSource !== 'consensus') return;
      if (c.groupSize < 2)
        fail(
          'groupSize',
          `groupSize must be at least 2 with rewardSource consensus (a majority of one), got ${c.groupSize}`,
          ['rewardSource'],
        );
      if (c.dynamicSampling)
        fail(
          'dynamicSampling',
          "dynamicSampling must be false with rewardSource consensus (it keeps groups by the verifier's rewards)",
          ['rewardSource'],
        );
      if (c.estimator === 'mapp')
        fail(
          'estimator',
          "estimator must not be mapp with rewardSource consensus (its posterior counts the verifier's correct answers)",
          ['rewardSource'],
        );
    },
  },
  {
    rule: '`mappPool` ≥ `batchPrompts` with `estimator` = mapp.',
    check: (c) => {
      if (c.estimator === 'mapp' && c.mappPool < c.batchPrompts) {
        fail(
          'mappPool',
          `mappPool must be at least batchPrompts (${c.batchPrompts}) with estimator mapp, got ${c.mappPool}`,
          ['batchPrompts', 'estimator'],
        );
      }
    },
  },
  {
    rule: '`dualClip` is 0 (off) or > 1.',
    check: (c) => {
      if (c.dualClip !== 0 && c.dualClip <= 1) {
        fail('dualClip', `dualClip must be 0 (off) or a number in (1, 100], got ${formatValue(c.dualClip)}`);
      }
    },
  },
  {
    rule: "`overlongBuffer` is less than the task's completion length.",
    check: (c, { task, taskKeys }) => {
      const completion = task.shape(taskParamsOf(c)).completionLength;
      if (c.overlongBuffer >= completion) {
        fail(
          'overlongBuffer',
          `overlongBuffer must be 0 (off) or less than the completion length (${completion} for this task), got ${c.overlongBuffer}`,
          taskKeys,
        );
      }
    },
  },
  {
    rule: '`sftData` = base needs a task with base completions (maze).',
    check: (c, { task }) => {
      if (c.sftData === 'base' && !task.baseCompletion) {
        fail('sftData', `sftData = base needs a task with base completions (maze); ${c.task} has none: use answers`, [
          'task',
        ]);
      }
    },
  },
  {
    rule: '`refSync` = curriculum needs `curriculum` = pass-rate.',
    check: (c) => {
      if (c.refSync === 'curriculum' && c.curriculum === 'off') {
        fail(
          'refSync',
          'refSync = curriculum needs a curriculum (curriculum = pass-rate); use none or every, or turn the curriculum on',
          ['curriculum'],
        );
      }
    },
  },
  {
    rule: "With a curriculum: `curriculumParam` is an integer parameter of the chosen task, `curriculumStart` lies between that parameter's minimum and its configured value, and every level in between is a valid task whose vocabulary is a prefix of the end point's.",
    check: (c, ctx) => {
      if (c.curriculum === 'off') return;
      const ints = ctx.task.params.filter((p) => p.kind === 'int');
      const spec = ints.find((p) => p.name === c.curriculumParam);
      if (!spec) {
        return fail(
          'curriculumParam',
          `curriculumParam must be one of ${ints.map((p) => p.name).join(', ')} (the integer parameters of ${c.task}); got ${showRaw(c.curriculumParam)}`,
          ['task', 'curriculum'],
        );
      }
      const end = c[`task.${spec.name}`] as number;
      const lo = spec.min ?? 0;
      if (c.curriculumStart < lo || c.curriculumStart > end) {
        fail(
          'curriculumStart',
          `curriculumStart must be an integer in [${lo}, task.${spec.name}] = [${lo}, ${end}], got ${c.curriculumStart}`,
          [`task.${spec.name}`, 'curriculumParam', 'curriculum'],
        );
      }
      checkCurriculumLevels(c, ctx, end);
    },
  },
];

/** Checks every rule between knobs in table order; throws the first violation as a ConfigError. */
export function checkKnobRules(c: RunConfig): void {
  const ctx: RuleContext = {
    task: getTask(c.task),
    taskKeys: Object.keys(c).filter((k) => k.startsWith(TASK_PREFIX)),
  };
  for (const r of KNOB_RULES) r.check(c, ctx);
}
