export * from './transaction-commands.js';
export * from './config-commands.js';
