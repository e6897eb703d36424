// maze: walk from S to G (the task, its generator, how the verifier reads a walk, the break and
// branching reports and their diagnoses through a model's probe, path decoding, walk endings, display and pictures).

export * from './task';
export * from './gen';
export * from './breaks';
export * from './branching';
export * from './paths';
export * from './walks';
export * from './display';
export * from './recorded-walks';
export * from './diagnose';
export * from './picture';
