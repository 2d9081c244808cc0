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

  async onApplicationShutdown(): Promise<void> {
    await this.consumer?.stop();
  }
}
