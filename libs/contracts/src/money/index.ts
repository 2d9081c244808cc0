export * from './kurus.js';
