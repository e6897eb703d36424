// groupmul: multiply a chain of group elements (the task, the groups it draws from, its layout,
// scratchpad marks, element names, display and chain-break report).

export * from './task';
export * from './layout';
export * from './display';
export * from './groups';
export * from './marks';
export * from './names';
export * from './breaks';
