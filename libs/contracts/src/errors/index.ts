export * from './error-codes.js';
export * from './domain-error.js';
export * from './error-body.js';
