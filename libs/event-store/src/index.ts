export * from './sql/sql-database.js';
export * from './sql/open-database.js';
export * from './sql/postgres-database.js';
export * from './sql/pglite-database.js';
export * from './sql/data-dir-lock.js';
export * from './store/event-store.js';
export * from './store/postgres-event-store.js';
export * from './store/append-groups.js';
export * from './store/event-chain.js';
export * from './subscriptions/catch-up-subscription.js';
export * from './tokens.js';
export * from './audit/audit-reader.js';
export * from './audit/chain-check.js';
// KurrentDB: types only here, the client loads on demand (see open-kurrentdb.ts).
export * from './kurrentdb/open-kurrentdb.js';
export type { KurrentDbEventStore, KurrentDbEventStoreCapabilities } from './kurrentdb/kurrentdb-event-store.js';
export type { KurrentConsumerOptions } from './kurrentdb/kurrentdb-consumer.js';
export * from './sql/pglite-template.js';
export { loadOptionalAdapter, OptionalModuleMissingError } from './optional-module.js';
