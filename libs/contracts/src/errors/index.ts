export * from './error-codes.js';
export * from './domain-error.js';
