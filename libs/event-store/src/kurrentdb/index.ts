export * from './kurrentdb-event-store.js';
export * from './kurrentdb-consumer.js';
