// Public API of the run config: the knob table, validation, presets, URL state, CLI flags, docs.

export * from './knobs';
export * from './config';
export * from './presets';
export * from './ablation';
export * from './url';
export * from './cli';
export * from './metrics';
export { CROSS_RULES, knobsHelpText, knobsMarkdown } from './docs';
