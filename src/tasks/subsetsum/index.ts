// subsetsum: pick numbers that add up to the target.

export * from './task';
