import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  EVENT_CATALOG,
  STREAMS,
  isSaneRequestId,
  type ActorRef,
  type DomainEvent,
  type EventData,
  type TransactionView,
} from '@transfergate/contracts';
import {
  EVENT_STORE,
  SQL_DATABASE,
  comparePositions,
  newEventId,
  type AppendResult,
  type GlobalPosition,
  type ExpectedVersion,
  type NewEvent,
  type PostgresEventStore,
  type RowsAlongside,
  type SqlDatabase,
  type StreamWrite,
} from '@transfergate/event-store';
import type { MerchantBalance } from '../domain/merchant-ledger.js';
import { evolveWithAppended, foldTransaction, type TransactionAggregate } from '../domain/transaction.js';
import { ANSWERED_DEPOSITS, type AnsweredDeposits } from '../ports/answered-deposits.js';
import { READ_YOUR_WRITES, type ReadYourWrites } from '../ports/read-your-writes.js';
import { MerchantLedgerFolds } from './merchant-ledger-folds.js';
import { MerchantReservationQueue } from './merchant-reservation-queue.js';
import { OPERATION_GUID_GUARD_SCHEMA } from './operation-guid-guard.js';

export interface PendingWrite {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: DomainEvent[];
}

/** Loads aggregates from their streams and appends decided events with actor metadata. */
@Injectable()
export class LedgerRepository implements OnModuleInit {
  private readonly merchantLedgers = new MerchantLedgerFolds();
  /** Reservations of one merchant run one at a time in this process. */
  readonly reservations = new MerchantReservationQueue();

  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(READ_YOUR_WRITES) private readonly projection: ReadYourWrites,
    /** The deposit's hot path (ports/answered-deposits.ts). */
    @Inject(ANSWERED_DEPOSITS) private readonly answeredDeposits: AnsweredDeposits,
  ) {}

  /** The OperationGuid keys' table, which the request appends write with their events. */
  async onModuleInit(): Promise<void> {
    await this.db.exec(OPERATION_GUID_GUARD_SCHEMA);
  }

  /**
   * A transaction's current state from its stream. Whatever is answered from it is also true in the
   * read models: the load waits until the projection has passed the stream's last event (at once
   * in the usual case, when it has), so an answer built on a concurrent writer's event never runs
   * ahead of the payment page, /status by number or the panel.
   */
  async loadTransaction(transactionId: string): Promise<TransactionAggregate | undefined> {
    const events = await this.store.readStream(STREAMS.transaction(transactionId));
    const last = events[events.length - 1];
    if (last) await this.projection.awaitProjected(last.position);
    return foldTransaction(events);
  }

  /** Several transactions' current states from their streams, in one read (as loadTransaction each). */
  async loadTransactions(transactionIds: readonly string[]): Promise<Map<string, TransactionAggregate>> {
    const streams = await this.store.readStreams(transactionIds.map((id) => STREAMS.transaction(id)));
    let latest: GlobalPosition | undefined;
    const out = new Map<string, TransactionAggregate>();
    for (const events of streams.values()) {
      const last = events[events.length - 1];
      if (!last) continue;
      if (!latest || comparePositions(last.position, latest) > 0) latest = last.position;
      const aggregate = foldTransaction(events);
      if (aggregate) out.set(aggregate.view.transactionId, aggregate);
    }
    if (latest) await this.projection.awaitProjected(latest);
    return out;
  }

  /** Whether the transaction's history already has a webhook's mismatch for this paid amount. */
  async hasWebhookAmountMismatch(transactionId: string, paidAmountKurus: string): Promise<boolean> {
    const events = await this.store.readStream(STREAMS.transaction(transactionId));
    return events.some(
      (event) =>
        event.type === 'WebhookAmountMismatched' &&
        (event.data as { paidAmountKurus?: string }).paidAmountKurus === paidAmountKurus,
    );
  }

  /**
   * The merchant's balance, and the open reservation of `transactionId` if asked, from its ledger
   * stream (only the events not folded yet are read).
   */
  async loadMerchantLedger(merchantId: string, transactionId?: string): Promise<MerchantBalance> {
    const streamId = STREAMS.merchantLedger(merchantId);
    return this.merchantLedgers.load(
      merchantId,
      (fromVersion) => this.store.readStream(streamId, fromVersion),
      transactionId,
    );
  }

  /** Latest state of a configuration stream and its version (0 when it does not exist). */
  async loadConfig<
    T extends
      | 'MerchantConfigured'
      | 'ProviderConfigured'
      | 'InfrastructureConfigured'
      | 'BankAccountConfigured'
      | 'OperatorConfigured'
      | 'RoleConfigured',
  >(streamId: string, type: T): Promise<{ state: EventData<T> | undefined; version: number }> {
    const events = await this.store.readStream(streamId);
    const last = events[events.length - 1];
    if (!last) return { state: undefined, version: 0 };
    return { state: EVENT_CATALOG[type].schema.parse(last.data) as EventData<T>, version: last.streamVersion };
  }

  /** The data of a stream's first event (claim streams), undefined when the stream does not exist. */
  async readFirstData(streamId: string): Promise<unknown> {
    const [first] = await this.store.readStream(streamId);
    return first?.data;
  }

  /** Every event's data of a (short) stream, in order. */
  async readAllData(streamId: string): Promise<unknown[]> {
    return (await this.store.readStream(streamId)).map((e) => e.data);
  }

  async nextTransactionNumber(): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(`select nextval('txn_number_seq')::text as n`);
    return Number(rows[0]!.n);
  }

  /** `alongside`: rows written with the events (one transaction), e.g. an OperationGuid's key. */
  async append(writes: PendingWrite[], actor: ActorRef, alongside?: RowsAlongside): Promise<AppendResult[]> {
    const results = await this.store.appendMany(storeWritesOf(writes, actor), alongside ? { alongside } : undefined);
    // Read-your-writes: the caller's answer (a payment URL, a number, a new state) is usable at
    // once, by this process or another, through every read model.
    await this.projection.awaitProjected(latestPosition(results));
    return results;
  }

  /**
   * A new deposit's append, the write side of the deposit's hot path (AnsweredDeposits): its
   * transaction's read row is written with its event (rows alongside, one transaction), so every
   * reader in every process finds the deposit the moment it is answered, and the deposit is noted
   * with the read side, which counts it in its account's day at once, so the answer does not wait
   * for the projection; where the read side cannot (another process runs the projection, the
   * mirror is reloading) or the append was a replay of events stored before, it waits as every
   * other append does. Answers the new transaction's view: the request event is folded once, for
   * the row and for the answer.
   */
  async appendNewDeposit(
    request: PendingWrite,
    actor: ActorRef,
    deposit: { transactionId: string; bankAccountId: string; day: string; amountKurus: bigint },
    /** More rows of the same transaction (the request's OperationGuid key). */
    alsoAlongside?: RowsAlongside,
  ): Promise<TransactionView> {
    const opened = evolveWithAppended(undefined, request.streamId, request.events);
    const row = this.answeredDeposits.rowAlongside(request.streamId, opened);
    const results = await this.store.appendMany(storeWritesOf([request], actor), {
      alongside: alsoAlongside ? [row, alsoAlongside] : row,
    });
    const projectedAlong =
      results.every((r) => !r.idempotentReplay) &&
      this.answeredDeposits.noteAnswered({ ...deposit, position: results[0]!.lastPosition });
    if (!projectedAlong) await this.projection.awaitProjected(latestPosition(results));
    return opened.view;
  }
}

/** The store's writes of decided events, stamped with who did it. */
function storeWritesOf(writes: PendingWrite[], actor: ActorRef): StreamWrite[] {
  // The request id last, as it has always been stamped; an id that is not sane (it came over a
  // transport) is left out rather than stored.
  const metadata = {
    actor: actor.operatorId ?? actor.source,
    source: actor.source,
    ...(actor.ip ? { ip: actor.ip } : {}),
    ...(isSaneRequestId(actor.requestId) ? { requestId: actor.requestId } : {}),
  };
  return writes.map((write) => {
    // Fresh ids (never derived from the command): two different commands racing at one version
    // must conflict, never look like a replay. Time-ordered, for the store's index (newEventId).
    const events: NewEvent[] = write.events.map((event) => ({
      eventId: newEventId(),
      type: event.type,
      schemaVersion: EVENT_CATALOG[event.type].version,
      data: event.data,
      metadata,
    }));
    return { streamId: write.streamId, expectedVersion: write.expectedVersion, events };
  });
}

function latestPosition(results: AppendResult[]): GlobalPosition {
  return results.map((r) => r.lastPosition).reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b));
}
