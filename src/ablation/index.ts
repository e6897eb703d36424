// Public API of the ablation: its spec and cells, runs as the statistics read them, the
// statistics over seeds and their Markdown report. Pure: the page and the CLI share it.

export * from './spec';
export * from './seed-runs';
export * from './curves';
export * from './solve';
export * from './summary';
export * from './report';
export * from './methods-suite';
export * from './leaderboard';
export * from './recorded-curves';
export * from './recorded-board';
