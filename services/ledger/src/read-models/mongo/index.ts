export * from './mongo-transaction-read-model.js';
