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
  type GlobalPosition,
  type PostgresEventStore,
  type RunningConsumer,
  type SqlDatabase,
} from '@transfergate/event-store';
import { LEDGER_PROJECTION, projectEvents } from './projector.js';
import { READ_MODEL_SCHEMA } from './schema.js';
import { READ_YOUR_WRITES_TIMEOUT_MS } from '../ledger.settings.js';

/** Creates the read-model tables and runs the ledger projection as a leased, checkpointed consumer. */
@Injectable()
export class LedgerProjectionRunner implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LedgerProjection');
  private consumer?: RunningConsumer;

  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.db.exec(READ_MODEL_SCHEMA);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.consumer = await startConsumer(this.store, {
      name: LEDGER_PROJECTION,
      owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
      mode: 'transactional',
      idlePollMs: 200,
      // Commands wait for the projection before they answer (read-your-writes): no coalescing delay.
      // Under load batches form anyway, from whatever was appended while the previous one ran.
      coalesceMs: 0,
      handle: async (events, tx) => {
        await projectEvents(tx, events);
        // One debug line per transaction event, with the request id it was appended under (ops follow a transaction).
        for (const event of events) {
          if (!event.streamId.startsWith('txn-')) continue;
          this.logger.debug({
            msg: 'event projected',
            ...(typeof event.metadata.requestId === 'string' ? { requestId: event.metadata.requestId } : {}),
            streamId: event.streamId,
            version: event.streamVersion,
            type: event.type,
          });
        }
      },
      onError: (error) => this.logger.error(`projection batch failed, will retry: ${String(error)}`),
    });
  }

  /** Read-your-writes for callers that need the read models to include an append. */
  async waitFor(position: GlobalPosition, timeoutMs = 10_000): Promise<void> {
    if (!this.consumer) throw new Error('projection not started');
    await this.consumer.waitUntil(position, timeoutMs);
  }

  /**
   * Holds a command's answer until the read models include `position` (the command's own write, or
   * the state it answered from), in this process or whichever holds the projection's lease.
   * Bounded: a projection that does not get there in time is logged, never turned into an error
   * for a write that is already committed. Before the projection starts (module init) nothing can
   * read the read models yet, so there is nothing to wait for.
   */
  async awaitProjected(position: GlobalPosition): Promise<void> {
    if (!this.consumer) return;
    try {
      await this.consumer.waitUntil(position, READ_YOUR_WRITES_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(`answering before the read models caught up: ${String(error)}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }
}
