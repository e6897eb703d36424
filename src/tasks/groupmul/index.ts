// groupmul: multiply a chain of group elements (the task, and the groups it draws from).

export * from './task';
export * from './layout';
export * from './display';
export * from './groups';
export * from './marks';
export * from './names';
