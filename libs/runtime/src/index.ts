export * from './http.js';
export * from './service-config.js';
export * from './service-health.js';
export * from './service-runtime.js';
export * from './projection-settle.js';
