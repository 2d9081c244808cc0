export * from './csv-mapping.js';
