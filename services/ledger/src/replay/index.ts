export * from './replay-ledger.js';
export * from './read-model-diff.js';
export * from './scratch-schema.js';
export * from './write-batching-executor.js';
export * from './memory-projection.js';
