export * from './h2h.js';
export * from './status.js';
export * from './merchant.js';
export * from './infrastructure.js';
export * from './test-auth.js';
export * from './callbacks.js';
export * from './banks.js';
