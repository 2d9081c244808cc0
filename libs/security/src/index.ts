export * from './secret-box.js';
export * from './password-hash.js';
