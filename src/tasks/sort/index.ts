// sort: write the prompt's letters in order.

export * from './task';
