export * from './gateway-api.module.js';
export * from './errors/form-error.filter.js';
export * from './gateway.settings.js';
export * from './rate-limit/provider-rate-limit.js';
