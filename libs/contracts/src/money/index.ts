export * from './kurus.js';
export * from './turkish-amount.js';
