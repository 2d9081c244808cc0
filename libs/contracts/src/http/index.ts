export * from './h2h.js';
export * from './status.js';
