export * from './sql/sql-database.js';
export * from './sql/open-database.js';
export * from './sql/postgres-database.js';
export * from './sql/pglite-database.js';
export * from './store/event-store.js';
export * from './store/postgres-event-store.js';
export * from './subscriptions/catch-up-subscription.js';
export * from './tokens.js';
