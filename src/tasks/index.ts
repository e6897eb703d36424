// Public API of the task library.

export * from './types';
export * from './params';
export * from './tokens';
export * from './instanceJson';
export * from './groupmul';
export * from './maze';
export * from './sort';
export * from './subsetsum';
export * from './registry';
export * from './split';
