export * from './csv-mapping.js';
export * from './events.js';
export * from './commands.js';
export * from './panel.js';
export * from './report-csv.js';
export * from './payment-file.js';
