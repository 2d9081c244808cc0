import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import {
  EVENT_STORE,
  SQL_DATABASE,
  openKurrentDbEventStore,
  type PostgresEventStore,
  type RunningConsumer,
  type SqlDatabase,
} from '@transfergate/event-store';
import { openTransactionReadModel } from '../read-models/open-transaction-read-model.js';
import { ReadModelGapError, type TransactionReadModel } from '../read-models/transaction-read-model.js';
import { MirrorDivergenceError } from './event-mirror.js';
import { startEngineFeeds, type EngineTargets } from './engine-feeds.js';
import { ENGINE_SETTINGS, type EngineSettings } from './engine-settings.js';

/**
 * Connects the engines the settings name (KURRENTDB_URL, MONGODB_URL) and feeds them from the
 * store of record (docs/decisions/0064-engines-fed-by-the-ledger.md). Nothing configured: nothing
 * is loaded (the clients are optional packages). An engine that cannot be reached at start fails the
 * start; one that fails later is retried by its consumer, and its lag shows in /ready and the metrics.
 */
@Injectable()
export class EngineFeedsRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('EngineFeeds');
  private consumers: RunningConsumer[] = [];
  private readonly closers: (() => Promise<void>)[] = [];
  private readModel?: TransactionReadModel;

  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Optional() @Inject(ENGINE_SETTINGS) private readonly settings?: EngineSettings,
  ) {}

  /** MongoDB's transaction read model when MONGODB_URL is set, else undefined (the SQL tables serve). */
  get transactionReadModel(): TransactionReadModel | undefined {
    return this.readModel;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { kurrentdbUrl, mongodbUrl } = this.settings ?? {};
    if (!kurrentdbUrl && !mongodbUrl) return;
    const targets: EngineTargets = {};
    try {
      await this.open(targets, kurrentdbUrl, mongodbUrl);
    } catch (error) {
      await this.closeClients();
      throw error;
    }
    this.readModel = targets.transactionReadModel;
    this.logger.log(
      `feeding ${[kurrentdbUrl ? 'KurrentDB (event mirror)' : '', mongodbUrl ? 'MongoDB (transaction read model)' : '']
        .filter(Boolean)
        .join(' and ')}`,
    );
  }

  private async open(targets: EngineTargets, kurrentdbUrl?: string, mongodbUrl?: string): Promise<void> {
    if (kurrentdbUrl) {
      const eventLog = await openKurrentDbEventStore(kurrentdbUrl);
      this.closers.push(() => eventLog.close());
      targets.eventLog = eventLog;
    }
    if (mongodbUrl) {
      const readModel = await openTransactionReadModel({ db: this.db, mongodbUrl });
      if (readModel.close) this.closers.push(() => readModel.close!());
      targets.transactionReadModel = readModel;
    }
    this.consumers = await startEngineFeeds(this.store, targets, {
      owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
      onError: (feed, error) => this.logger.error(`${feed}: ${describeFailure(error)}; retried`),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.consumers.map((consumer) => consumer.stop()));
    this.consumers = [];
    this.readModel = undefined;
    await this.closeClients();
  }

  private async closeClients(): Promise<void> {
    await Promise.all(this.closers.splice(0).map((close) => close().catch(() => undefined)));
  }
}

/**
 * A feed's failure for the log: our own errors name streams and versions only; an engine's own
 * message can quote a document (a duplicate key's value), so only its name and code are logged.
 */
export function describeFailure(error: unknown): string {
  if (error instanceof MirrorDivergenceError || error instanceof ReadModelGapError) return error.message;
  if (!(error instanceof Error)) return 'failed';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? `${error.name} (code ${code})` : error.name;
}
