// maze: walk from S to G (the task, its generator, the break and branching reports, path decoding,
// walk endings and display).

export * from './task';
export * from './gen';
export * from './breaks';
export * from './branching';
export * from './paths';
export * from './walks';
export * from './display';
export * from './recorded-walks';
