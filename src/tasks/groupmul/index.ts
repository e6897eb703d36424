// groupmul: multiply a chain of group elements (the task, and the groups it draws from).

export * from './task';
export * from './groups';
