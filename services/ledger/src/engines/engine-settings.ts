import { ENGINE_FEED_CONSUMER_PREFIX } from '@transfergate/event-store';

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

/**
 * The checkpointed consumers feeding the engines (their rows in es_checkpoints): their lag shows in
 * the metrics and /ready's details, but does not make a process unready (ENGINE_FEED_CONSUMER_PREFIX).
 */
export const KURRENTDB_MIRROR_CONSUMER = `${ENGINE_FEED_CONSUMER_PREFIX}kurrentdb-event-mirror`;
export const MONGODB_READ_MODEL_CONSUMER = `${ENGINE_FEED_CONSUMER_PREFIX}mongodb-transaction-read-model`;

/** Events one feed batch reads: one KurrentDB append per run of one stream, at most MAX_EVENTS_PER_APPEND. */
export const ENGINE_FEED_BATCH_EVENTS = 500;
/** Longest sleep of an idle feed; an append in this process wakes it at once. */
export const ENGINE_FEED_IDLE_POLL_MS = 200;
