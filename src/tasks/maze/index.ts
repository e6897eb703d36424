// maze: walk from S to G (the task, its generator, and the break and branching reports).

export * from './task';
export * from './gen';
export * from './breaks';
export * from './branching';
export * from './paths';
export * from './walks';
export * from './display';
