export * from './name-uuid.js';
