import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  EVENT_STORE,
  SQL_DATABASE,
  startConsumer,
  type PostgresEventStore,
  type RunningConsumer,
  type SqlDatabase,
} from '@transfergate/event-store';
import { SecretBox } from '@transfergate/security';
import { CALLBACK_SETTINGS, assertCallbackSettings, type CallbackSettings } from './callback.settings.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { CALLBACK_EVENT_TYPES, enqueueCallbacks } from './enqueue/callback-enqueuer.js';
import { CALLBACK_CONSUMER, CALLBACK_SCHEMA } from './schema.js';

/** How often at most the consumer reads new events while they keep coming (catch-up-subscription.ts). */
export const CONSUMER_MIN_READ_INTERVAL_MS = 100;

/**
 * Runs the dispatcher: the `callback-dispatcher` consumer (a leased, checkpointed catch-up
 * subscription in transactional mode: each final transaction becomes one delivery row exactly once)
 * and the delivery worker (claims due rows with a lease and POSTs them). Nothing is kept in timers:
 * a restart, or another instance on the same database, continues from the table.
 */
@Injectable()
export class CallbackDispatcherRunner implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CallbackDispatcher');
  private consumer?: RunningConsumer;
  private worker?: DeliveryWorker;

  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(CALLBACK_SETTINGS) private readonly settings: CallbackSettings,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.exec(CALLBACK_SCHEMA);
  }

  async onApplicationBootstrap(): Promise<void> {
    assertCallbackSettings(this.settings);
    const box = new SecretBox(this.settings.secretKey);
    const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    const worker = new DeliveryWorker(this.db, this.store, box, this.settings, owner, this.logger);
    this.worker = worker;
    worker.start();
    this.consumer = await startConsumer(this.store, {
      name: CALLBACK_CONSUMER,
      owner,
      mode: 'transactional',
      idlePollMs: 200,
      // Under a steady stream of deposits the consumer would otherwise scan every few ms for the
      // rare final event (two statements and a commit each, ~1 per 45 deposits on PGlite, where
      // they hold the one connection the deposits wait for): a callback may start up to this much later.
      minReadIntervalMs: CONSUMER_MIN_READ_INTERVAL_MS,
      types: CALLBACK_EVENT_TYPES,
      handle: async (events, tx) => {
        const due = await enqueueCallbacks(events, tx, box);
        // Wake the worker once the batch is committed (the consumer has then passed its last event).
        if (due > 0) {
          this.consumer?.waitUntil(events[events.length - 1]!.position, 10_000).then(
            () => worker.wake(),
            () => undefined,
          );
        }
      },
      onError: (error) => this.logger.error(`callback consumer batch failed, will retry: ${String(error)}`),
    });
  }

  /** A delivery became due in this process (a manual resend). */
  wake(): void {
    this.worker?.wake();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
    await this.worker?.stop();
  }
}
