export * from './callback-dispatcher.module.js';
