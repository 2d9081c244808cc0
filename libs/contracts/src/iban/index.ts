export * from './iban.js';
