export * from './auth.js';
export * from './transactions.js';
export * from './records.js';
export * from './records-queries.js';
export * from './settings.js';
export * from './audit.js';
export * from './config-reads.js';
