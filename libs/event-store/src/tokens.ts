/** Nest injection tokens for the shared infrastructure every service module receives. */
export const SQL_DATABASE = 'transfergate:SqlDatabase';
export const EVENT_STORE = 'transfergate:EventStore';
