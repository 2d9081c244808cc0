export * from './transaction-events.js';
export * from './ledger-events.js';
export * from './config-events.js';
export * from './auth-events.js';
export * from './catalog.js';
export * from './personal-data.js';
export * from './personal-data-events.js';
