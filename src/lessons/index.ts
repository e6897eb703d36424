// Public API of the lessons: the charts a lesson can name (charts.ts), the presets (each a lesson: its config, guide, charts, variants,
// checkpoints and ablation), the page's URL with its lesson, and the CLI's --preset layer.

export * from './charts';
export * from './presets';
export * from './page-url';
export * from './preset-flags';
