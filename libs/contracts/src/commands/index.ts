export * from './transaction-commands.js';
