export * from './runtime-config.js';
export * from './service-config.js';
export * from './service-health.js';
export * from './service-runtime.js';
export * from './projection-settle.js';
export * from './http-errors/form-error.filter.js';
export { errorBody, errorShapeForPath, type ErrorShape } from './http-errors/error-shapes.js';
export * from './http-input/unstorable-text.guard.js';
export { registerAllowedMethods, allowedMethodsFor } from './http-errors/allowed-methods.js';
