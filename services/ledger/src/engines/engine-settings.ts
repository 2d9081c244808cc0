/**
 * The design's other engines the ledger feeds when configured (KURRENTDB_URL, MONGODB_URL); the
 * runtime validates the URLs (libs/runtime service-config) and provides them. Absent: PostgreSQL only.
 */
export interface EngineSettings {
  /** KurrentDB: every event, in global order, at its own stream version (event-mirror.ts). */
  kurrentdbUrl?: string;
  /** MongoDB: the transaction read model, projected from every event (read-models/mongo). */
  mongodbUrl?: string;
}

export const ENGINE_SETTINGS = 'transfergate:EngineSettings';

/** The checkpointed consumers feeding the engines (their rows in es_checkpoints; /ready watches their lag). */
export const KURRENTDB_MIRROR_CONSUMER = 'kurrentdb-event-mirror';
export const MONGODB_READ_MODEL_CONSUMER = 'mongodb-transaction-read-model';

/** Events one feed batch reads: one KurrentDB append per run of one stream, at most MAX_EVENTS_PER_APPEND. */
export const ENGINE_FEED_BATCH_EVENTS = 500;
/** Longest sleep of an idle feed; an append in this process wakes it at once. */
export const ENGINE_FEED_IDLE_POLL_MS = 200;
