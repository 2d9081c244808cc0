export * from './key-provider.js';
export * from './field-cipher.js';
