// Public API of the run config: the knob table, validation, the knobs' URL and CLI codecs, docs.
// The lessons (presets) and the layers they add to the URL and the CLI are src/lessons.

export * from './knobs';
export * from './config';
export * from './knob-url';
export * from './knob-flags';
export * from './metric-names';
export * from './user-code';
export * from './code-examples';
export {
  checkpointRun,
  checkpointRunConfig,
  readRunCheckpoint,
  type CheckpointRun,
  type RunCheckpoint,
} from './checkpoint-run';
// The page's charts know curriculumLevels by this name.
export { curriculumLevels as levelRange } from './config';
export { CROSS_RULES, knobsHelpText, knobsMarkdown } from './docs';
