export * from './webhook-ingest.module.js';
