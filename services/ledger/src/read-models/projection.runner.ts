import {
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { PROCESS_NOTICES, ProviderDirectoryChanged, type ProcessNotices } from '@transfergate/contracts';
import {
  EVENT_STORE,
  SQL_DATABASE,
  startConsumer,
  type GlobalPosition,
  type PostgresEventStore,
  type RowsAlongside,
  type RunningConsumer,
  type SqlDatabase,
} from '@transfergate/event-store';
import {
  LEDGER_PROJECTION,
  newDepositContextEffects,
  projectEvents,
  rowAlongsideRequest,
  type DepositContextEffects,
} from './projector.js';
import { DepositContextCache } from './deposit-context.cache.js';
import type { TransactionAggregate } from '../domain/transaction.js';
import type { AnsweredDeposit, AnsweredDeposits } from '../ports/answered-deposits.js';
import type { DepositContexts, DepositContextView } from '../ports/deposit-contexts.js';
import type { ReadYourWrites } from '../ports/read-your-writes.js';
import { READ_MODEL_SCHEMA } from './schema.js';
import { PROJECTION_UNWAITED_READ_INTERVAL_MS, READ_YOUR_WRITES_TIMEOUT_MS } from '../ledger.settings.js';

/**
 * Creates the read-model tables and runs the ledger projection as a leased, checkpointed consumer.
 * The read side of the deposit's hot path: it implements the ports the write side calls
 * (AnsweredDeposits, DepositContexts, ReadYourWrites; see ports/answered-deposits.ts).
 */
@Injectable()
export class LedgerProjectionRunner
  implements
    OnModuleInit,
    OnApplicationBootstrap,
    OnApplicationShutdown,
    AnsweredDeposits,
    DepositContexts,
    ReadYourWrites
{
  private readonly logger = new Logger('LedgerProjection');
  private consumer?: RunningConsumer;
  private readonly depositContext = new DepositContextCache(LEDGER_PROJECTION);
  /** What the batch being handled wrote for the deposit-context cache (applied after its commit). */
  private batchEffects?: DepositContextEffects;

  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    private readonly events: EventBus,
    /** Distributed mode: the other processes (every gateway) hear the projection's notices too. */
    @Optional() @Inject(PROCESS_NOTICES) private readonly notices?: ProcessNotices,
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
      // Under load batches form anyway, from whatever was appended while the previous one ran, and
      // while nobody waits, from what arrived in the pause (new deposits are answered ahead of it).
      coalesceMs: 0,
      unwaitedReadIntervalMs: PROJECTION_UNWAITED_READ_INTERVAL_MS,
      handle: async (events, tx) => {
        // Fresh per attempt: a batch that fails is handled again from scratch.
        this.batchEffects = newDepositContextEffects();
        await projectEvents(tx, events, this.batchEffects, (id) => this.depositContext.isAhead(id));
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
      afterCommit: ({ from, last }) => {
        const effects = this.batchEffects ?? newDepositContextEffects();
        this.depositContext.onBatch(from, last, effects);
        this.batchEffects = undefined;
        if (!effects.providerDirectoryChanged) return undefined;
        // Handlers run synchronously inside publish (the gateway's cache drop is a Map clear), so
        // this happens before the batch's waiters, the commands that wrote it, are answered.
        this.events.publish(new ProviderDirectoryChanged());
        // Other processes: the waiters are released once the transport has the notice (a bounded
        // wait); the gateways drop their caches when it arrives, asynchronously (docs/security.md).
        return this.notices?.announce(new ProviderDirectoryChanged());
      },
      onError: (error) => this.logger.error(`projection batch failed, will retry: ${String(error)}`),
    });
  }

  /**
   * The deposit-context cache when it answers exactly what the read models hold now: this process
   * holds the projection's lease (nobody else moves the tables) and the cache has applied every
   * batch up to the projection's position. Otherwise undefined (the caller reads SQL) and, if this
   * process holds the lease, a load starts in the background.
   */
  current(): DepositContextView | undefined {
    const consumer = this.consumer;
    if (!consumer || !consumer.holdsLease()) return undefined;
    if (this.depositContext.isCurrentAt(consumer.position())) return this.depositContext;
    void this.depositContext.ensureLoaded(this.db);
    return undefined;
  }

  /** The new transaction's read row, exactly as the projection writes it (rowAlongsideRequest). */
  rowAlongside(streamId: string, opened: TransactionAggregate): RowsAlongside {
    return rowAlongsideRequest(streamId, opened);
  }

  /**
   * Records a deposit answered before the projection applies it (its row was written with its
   * event): the deposit-context cache counts its amount in its account's day at once, so the next
   * deposit is decided as if it had been projected. True only where that holds: this process moves
   * the tables and its cache mirrors them; otherwise (false) the caller waits for the projection.
   */
  noteAnswered(deposit: AnsweredDeposit): boolean {
    const consumer = this.consumer;
    if (!consumer || !consumer.holdsLease() || !this.depositContext.isCurrentAt(consumer.position())) return false;
    return this.depositContext.noteAhead(
      deposit.transactionId,
      deposit.bankAccountId,
      deposit.day,
      deposit.amountKurus,
      deposit.position,
    );
  }

  /**
   * Before a deposit is decided from SQL instead of the cache: waits until the tables hold every
   * deposit answered so far. Whichever process holds the projection's lease may have answered
   * deposits ahead of it (noteAnswered), and only it knows which: so this waits for the
   * store's newest event, which covers them all (one index probe, then at most the projection's
   * current batch). Bounded like every wait for the projection (awaitProjected).
   */
  async settleBeforeSqlDecision(): Promise<void> {
    await this.awaitProjected(await this.store.headPosition());
    // The tables answer for every deposit this process answered ahead (or the bound passed, logged).
    const newest = this.depositContext.aheadUntil;
    if (newest) this.depositContext.dropAheadUpTo(newest);
  }

  /** Loads of the deposit-context cache so far (tests). */
  get depositContextLoads(): number {
    return this.depositContext.loadCount;
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
