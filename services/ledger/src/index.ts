export * from './ledger.module.js';
export * from './ledger.settings.js';
export * from './invariants/check-invariants.js';
export * from './read-models/projection.runner.js';
export * from './read-models/projector.js';
export * from './read-models/schema.js';
export * from './persistence/ids.js';
export * from './commands/deposit-expiry.sweeper.js';
