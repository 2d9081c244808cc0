import {
  startConsumer,
  type EventStore,
  type PostgresEventStore,
  type RunningConsumer,
} from '@transfergate/event-store';
import type { TransactionReadModel } from '../read-models/transaction-read-model.js';
import { mirrorEvents } from './event-mirror.js';
import {
  ENGINE_FEED_BATCH_EVENTS,
  ENGINE_FEED_IDLE_POLL_MS,
  KURRENTDB_MIRROR_CONSUMER,
  MONGODB_READ_MODEL_CONSUMER,
} from './engine-settings.js';

/** What the feeds write to: the event log (KurrentDB) and the transaction read model (MongoDB). */
export interface EngineTargets {
  eventLog?: EventStore;
  transactionReadModel?: TransactionReadModel;
}

export interface EngineFeedOptions {
  /** This instance's name on the consumers' leases (one ledger replica feeds each engine at a time). */
  owner: string;
  onError?: (feed: string, error: unknown) => void;
  batchSize?: number;
  idlePollMs?: number;
}

/**
 * One leased, checkpointed consumer per configured engine, reading the store of record in global
 * order. Both run 'after' (the engine is another database: no transaction holds its write and the
 * checkpoint), so a batch is delivered at least once, and both targets take a batch again without
 * change: the mirror by event id and stream version, the read model by stream version.
 */
export async function startEngineFeeds(
  store: PostgresEventStore,
  targets: EngineTargets,
  options: EngineFeedOptions,
): Promise<RunningConsumer[]> {
  const started: RunningConsumer[] = [];
  const common = {
    owner: options.owner,
    mode: 'after' as const,
    batchSize: options.batchSize ?? ENGINE_FEED_BATCH_EVENTS,
    idlePollMs: options.idlePollMs ?? ENGINE_FEED_IDLE_POLL_MS,
  };
  try {
    const { eventLog, transactionReadModel } = targets;
    if (eventLog) {
      started.push(
        await startConsumer(store, {
          ...common,
          name: KURRENTDB_MIRROR_CONSUMER,
          handle: async (events) => {
            await mirrorEvents(eventLog, events);
          },
          onError: (error) => options.onError?.(KURRENTDB_MIRROR_CONSUMER, error),
        }),
      );
    }
    if (transactionReadModel) {
      await transactionReadModel.prepare();
      started.push(
        await startConsumer(store, {
          ...common,
          name: MONGODB_READ_MODEL_CONSUMER,
          handle: (events) => transactionReadModel.apply(events),
          onError: (error) => options.onError?.(MONGODB_READ_MODEL_CONSUMER, error),
        }),
      );
    }
    return started;
  } catch (error) {
    await Promise.all(started.map((consumer) => consumer.stop()));
    throw error;
  }
}
