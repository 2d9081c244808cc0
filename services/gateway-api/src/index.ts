export * from './gateway-api.module.js';
export * from './gateway.settings.js';
export * from './rate-limit/provider-rate-limit.js';
