export * from './money/index.js';
export * from './signatures/index.js';
export * from './errors/index.js';
export * from './events/index.js';
export * from './commands/index.js';
export * from './http/index.js';
export * from './iban/index.js';
export * from './queries/index.js';
