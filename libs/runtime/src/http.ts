/**
 * What the embedded app needs of this package: its configuration and the HTTP behaviour every
 * process shares. Nothing here reaches the message transport, so importing it does not load the
 * NATS/Kafka clients (@nestjs/microservices, kafkajs: about half a second of CPU and 8 MB of heap
 * at start) into a process that never connects to one; the package's root adds the distributed
 * runtime.
 */
export * from './runtime-config.js';
export * from './http-errors/form-error.filter.js';
export { errorBody, errorShapeForPath, type ErrorShape } from './http-errors/error-shapes.js';
export * from './http-input/unstorable-text.guard.js';
export * from './http-input/request-origin.js';
export { registerAllowedMethods, allowedMethodsFor } from './http-errors/allowed-methods.js';
export * from './private-files.js';
export { registerDuplicateKeyRefusal, firstDuplicateKey } from './http-input/duplicate-json-keys.js';
