export * from './panel-api.module.js';
