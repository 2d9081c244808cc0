export * from './rules.js';
export * from './secret-overlap.js';
