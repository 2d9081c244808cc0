import { EVENT_CATALOG, type EventData, type EventType, type Transfer } from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';
import { evolve, type TransactionAggregate } from '../domain/transaction.js';
import { dailyVolumeShareKurus } from '../domain/transaction-states.js';
import { turkishDayOfIso } from '../domain/turkish-day.js';
import { reconciliationRow, type RecordRow } from '../reconciliation/read-model/projection.js';

/**
 * What one event does to the ledger's read models, once, for both of their stores: the live
 * projection (`projector.ts`, rows of one batch in memory, read from and written to PostgreSQL
 * around it) and the replay's projection (`replay/memory-projection.ts`, rows of a whole rebuild in
 * memory, evicted and loaded back in bulk). The two differ only in where rows are kept, never in what
 * an event does to a row: that is this file. It is synchronous and does no I/O; a store loads
 * whatever rows a run of events needs before folding it (the transactions they continue, the
 * pending transfers they settle), and writes what the fold left after.
 *
 * The property test `read-model-fold.postgres.spec.ts` feeds the same random histories through both
 * stores and compares every row they write.
 */

/** A transaction's row in rm_transactions, as the fold reads and moves it. */
export interface TransactionReadRow {
  /**
   * The transaction as its row holds it. A row read back from the table is the snapshot its columns
   * give (TRANSACTION_ROWS_SQL: `echo` {} and an empty fingerprint, which no column keeps).
   */
  aggregate: TransactionAggregate;
  /** The receiving account of a deposit (its daily volume's account); null for a withdrawal. */
  bankAccountId: string | null;
  /** The request event's recorded time. */
  createdAt: string;
  /** The Turkish business day of createdAt: the day its receiving account's volume counts on. */
  day: string;
}

/** A row of rm_transfers (one leg of a double-entry posting). */
export interface TransferReadRow {
  transfer_id: string;
  transaction_id: string;
  merchant_id: string;
  debit_account: string;
  credit_account: string;
  amount_kurus: string;
  state: 'pending' | 'posted' | 'voided';
  created_at: string;
  updated_at: string;
}

export type BalanceColumn =
  'debits_pending_kurus' | 'debits_posted_kurus' | 'credits_pending_kurus' | 'credits_posted_kurus';
export const BALANCE_COLUMNS: readonly BalanceColumn[] = [
  'debits_pending_kurus',
  'debits_posted_kurus',
  'credits_pending_kurus',
  'credits_posted_kurus',
];

/** A configuration record's row: its key, the indexed columns beside it, the whole record (jsonb). */
export interface ConfigReadRow {
  table: string;
  keyColumn: string;
  key: string;
  columns: Record<string, unknown>;
  record: unknown;
  /** The event's recorded time (updated_at). */
  updatedAt: string;
}

/**
 * Where the rows are kept. Every method is synchronous: whatever the fold asks for must be held
 * (or known absent) when it runs. Balances and daily volumes are deltas (additive: the stores sum
 * them); records are last-write-wins per key.
 */
export interface ReadRowStore {
  /** The transaction's row, undefined when the store does not hold it (the fold then refuses the event). */
  transaction(transactionId: string): TransactionReadRow | undefined;
  /** A transaction's first event made its row. */
  createTransaction(transactionId: string, row: TransactionReadRow): void;
  /** A later event moved the row to `aggregate` (same id, account, creation time and day). */
  updateTransaction(transactionId: string, aggregate: TransactionAggregate): void;
  addTransfer(row: TransferReadRow): void;
  /** The transaction's transfers still pending, every one the store holds or has written. */
  pendingTransfers(transactionId: string): readonly TransferReadRow[];
  /** A pending transfer (one pendingTransfers answered) was posted or voided at `at`. */
  settleTransfer(row: TransferReadRow, state: 'posted' | 'voided', at: string): void;
  addToBalance(account: string, column: BalanceColumn, deltaKurus: bigint): void;
  addDailyIssued(bankAccountId: string, day: string, deltaKurus: bigint): void;
  /** A configuration record (or the API settings) as its event leaves it. */
  putConfigRecord(row: ConfigReadRow): void;
  /** A reconciliation row (reconciliation/read-model/projection.ts), at its event's time. */
  putReconciliationRow(row: RecordRow, at: string): void;
}

/** Applies one event to the rows `store` keeps. */
export function foldEvent(store: ReadRowStore, event: RecordedEvent): void {
  if (event.streamId.startsWith('txn-')) return foldTransactionEvent(store, event);
  const record = RECORD_PROJECTIONS[event.type];
  if (record) {
    const [key, columns, parsed] = record.row(event.data);
    store.putConfigRecord({
      table: record.table,
      keyColumn: record.keyColumn,
      key,
      columns,
      record: parsed,
      updatedAt: event.createdAt,
    });
    return;
  }
  const reconciliation = reconciliationRow(event);
  if (reconciliation) return store.putReconciliationRow(reconciliation, event.createdAt);
  switch (event.type) {
    case 'TransfersPosted':
      return addTransfers(store, event, 'posted', EVENT_CATALOG.TransfersPosted.schema.parse(event.data));
    case 'TransfersReserved':
      return addTransfers(store, event, 'pending', EVENT_CATALOG.TransfersReserved.schema.parse(event.data));
    case 'ReservationChanged': {
      const d = EVENT_CATALOG.ReservationChanged.schema.parse(event.data);
      settlePending(store, event, d.transactionId, 'voided');
      return addTransfers(store, event, 'pending', d);
    }
    case 'ReservationPosted':
      return settlePending(
        store,
        event,
        EVENT_CATALOG.ReservationPosted.schema.parse(event.data).transactionId,
        'posted',
      );
    case 'ReservationVoided':
      return settlePending(
        store,
        event,
        EVENT_CATALOG.ReservationVoided.schema.parse(event.data).transactionId,
        'voided',
      );
    case 'ApiSettingsConfigured': {
      const d = EVENT_CATALOG.ApiSettingsConfigured.schema.parse(event.data);
      const by = typeof event.metadata.actor === 'string' ? event.metadata.actor : null;
      return store.putConfigRecord({
        table: 'rm_settings',
        keyColumn: 'name',
        key: 'api',
        columns: { updated_by: by },
        record: d,
        updatedAt: event.createdAt,
      });
    }
    default:
      // Events of other services' streams are not this projection's concern.
      return;
  }
}

/** Ledger events that end a transaction's pending transfers: a store loads those before folding them. */
export const SETTLING_EVENT_TYPES: ReadonlySet<string> = new Set([
  'ReservationChanged',
  'ReservationPosted',
  'ReservationVoided',
]);

/** The transaction a settling event ends the pending transfers of (SETTLING_EVENT_TYPES), else undefined. */
export function settledTransactionOf(event: RecordedEvent): string | undefined {
  if (!SETTLING_EVENT_TYPES.has(event.type)) return undefined;
  const id = (event.data as { transactionId?: unknown }).transactionId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

function foldTransactionEvent(store: ReadRowStore, event: RecordedEvent): void {
  const transactionId = event.streamId.slice('txn-'.length);
  if (event.streamVersion === 1) {
    const aggregate = evolve(undefined, event);
    const view = aggregate.view;
    const row: TransactionReadRow = {
      aggregate,
      bankAccountId: view.bankAccount?.bankAccountId ?? null,
      createdAt: event.createdAt,
      day: turkishDayOfIso(event.createdAt),
    };
    store.createTransaction(transactionId, row);
    if (view.type === 'deposit' && view.bankAccount) {
      store.addDailyIssued(view.bankAccount.bankAccountId, row.day, dailyVolumeShareKurus(view));
    }
    return;
  }
  const row = store.transaction(transactionId);
  if (!row) throw new Error(`projection: ${event.type} for unknown transaction ${transactionId}`);
  const current = row.aggregate;
  const next = evolve(current, event);
  if (current.view.type === 'deposit' && row.bankAccountId) {
    // Daily volume per receiving account: what is still expected; a released deposit gives it back.
    const delta = dailyVolumeShareKurus(next.view) - dailyVolumeShareKurus(current.view);
    if (delta !== 0n) store.addDailyIssued(row.bankAccountId, row.day, delta);
  }
  store.updateTransaction(transactionId, next);
  const request = amountChangeRequestRow(event);
  if (request) store.putReconciliationRow(request, event.createdAt);
}

/** An amount change request's row (rm_amount_change_requests): pending when asked, its decision after. */
function amountChangeRequestRow(event: RecordedEvent): RecordRow | undefined {
  const state =
    event.type === 'AmountChangeRequested'
      ? 'pending'
      : event.type === 'AmountChangeApproved'
        ? 'approved'
        : event.type === 'AmountChangeRejected'
          ? 'rejected'
          : undefined;
  if (!state) return undefined;
  const d = EVENT_CATALOG[event.type as EventType].schema.parse(event.data) as {
    requestId: string;
    transactionId: string;
  };
  return {
    table: 'rm_amount_change_requests',
    keyColumn: 'request_id',
    key: d.requestId,
    columns: { transaction_id: d.transactionId, state },
    record: d,
  };
}

function addTransfers(
  store: ReadRowStore,
  event: RecordedEvent,
  state: 'pending' | 'posted',
  data: { transactionId: string; merchantId: string; transfers: Transfer[] },
): void {
  for (const t of data.transfers) {
    store.addTransfer({
      transfer_id: t.transferId,
      transaction_id: data.transactionId,
      merchant_id: data.merchantId,
      debit_account: t.debitAccount,
      credit_account: t.creditAccount,
      amount_kurus: t.amountKurus,
      state,
      created_at: event.createdAt,
      updated_at: event.createdAt,
    });
    const amount = BigInt(t.amountKurus);
    store.addToBalance(t.debitAccount, state === 'posted' ? 'debits_posted_kurus' : 'debits_pending_kurus', amount);
    store.addToBalance(t.creditAccount, state === 'posted' ? 'credits_posted_kurus' : 'credits_pending_kurus', amount);
  }
}

/** Ends the transaction's open pending transfers: posted moves them to the posted columns, voided drops them. */
function settlePending(
  store: ReadRowStore,
  event: RecordedEvent,
  transactionId: string,
  state: 'posted' | 'voided',
): void {
  for (const row of [...store.pendingTransfers(transactionId)]) {
    store.settleTransfer(row, state, event.createdAt);
    const amount = BigInt(row.amount_kurus);
    store.addToBalance(row.debit_account, 'debits_pending_kurus', -amount);
    store.addToBalance(row.credit_account, 'credits_pending_kurus', -amount);
    if (state === 'posted') {
      store.addToBalance(row.debit_account, 'debits_posted_kurus', amount);
      store.addToBalance(row.credit_account, 'credits_posted_kurus', amount);
    }
  }
}

interface RecordProjection {
  table: string;
  keyColumn: string;
  /** The row key, the indexed columns kept beside the whole record, and the record. */
  row: (data: unknown) => [string, Record<string, unknown>, unknown];
}

/** Configuration records: one row per record, the whole record as jsonb (soft deletes included). */
function recordProjection<T extends EventType>(
  type: T,
  table: string,
  keyColumn: string,
  row: (data: EventData<T>) => [string, Record<string, unknown>],
): RecordProjection {
  return {
    table,
    keyColumn,
    row: (data) => {
      const parsed = EVENT_CATALOG[type].schema.parse(data) as EventData<T>;
      return [...row(parsed), parsed];
    },
  };
}

const RECORD_PROJECTIONS: Partial<Record<string, RecordProjection>> = {
  InfrastructureConfigured: recordProjection(
    'InfrastructureConfigured',
    'rm_infrastructures',
    'infrastructure_id',
    (d) => [d.infrastructureId, { slug: d.slug }],
  ),
  MerchantConfigured: recordProjection('MerchantConfigured', 'rm_merchants', 'merchant_id', (d) => [
    d.merchantId,
    { name: d.name },
  ]),
  MerchantDeleted: recordProjection('MerchantDeleted', 'rm_merchants', 'merchant_id', (d) => [
    d.merchantId,
    { name: d.name },
  ]),
  ProviderConfigured: recordProjection('ProviderConfigured', 'rm_providers', 'provider_id', (d) => [
    d.providerId,
    { api_key: d.apiKey, merchant_id: d.merchantId },
  ]),
  ProviderDeleted: recordProjection('ProviderDeleted', 'rm_providers', 'provider_id', (d) => [
    d.providerId,
    { api_key: d.apiKey, merchant_id: d.merchantId },
  ]),
  BankAccountConfigured: recordProjection('BankAccountConfigured', 'rm_bank_accounts', 'bank_account_id', (d) => [
    d.bankAccountId,
    { iban: d.iban, active: d.active },
  ]),
  OperatorConfigured: recordProjection('OperatorConfigured', 'rm_operators', 'operator_id', (d) => [
    d.operatorId,
    { username: d.username },
  ]),
  RoleConfigured: recordProjection('RoleConfigured', 'rm_roles', 'role_id', (d) => [d.roleId, { name: d.name }]),
};

/** rm_transactions' columns and their SQL types, in the table's order (transactionColumns' keys). */
export const TRANSACTION_COLUMNS = {
  transaction_id: 'uuid',
  number: 'bigint',
  type: 'text',
  state: 'text',
  merchant_id: 'text',
  provider_id: 'text',
  infrastructure_id: 'text',
  form: 'text',
  external_id: 'text',
  amount_kurus: 'bigint',
  original_amount_kurus: 'bigint',
  fee_kurus: 'bigint',
  customer: 'jsonb',
  bank_account_id: 'text',
  iban: 'text',
  payment_token: 'text',
  expires_at: 'timestamptz',
  assignee: 'text',
  reason: 'text',
  version: 'integer',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
} as const;

/** The columns a transaction's later events change (the rest are fixed by its request). */
export const TRANSACTION_MUTABLE_COLUMNS = [
  'state',
  'amount_kurus',
  'fee_kurus',
  'assignee',
  'reason',
  'version',
  'updated_at',
] as const;

/** A transaction's row as rm_transactions' columns by name (numbers and the customer as JS values). */
export function transactionColumns(
  transactionId: string,
  row: Pick<TransactionReadRow, 'aggregate' | 'bankAccountId' | 'createdAt'>,
) {
  const view = row.aggregate.view;
  return {
    transaction_id: transactionId,
    number: view.number,
    type: view.type,
    state: view.state,
    merchant_id: view.merchantId,
    provider_id: view.providerId,
    infrastructure_id: view.infrastructureId,
    form: view.form,
    external_id: view.externalId,
    amount_kurus: view.amountKurus,
    original_amount_kurus: view.originalAmountKurus,
    fee_kurus: view.feeKurus,
    customer: view.customer,
    bank_account_id: row.bankAccountId,
    iban: view.iban ?? null,
    payment_token: view.paymentToken ?? null,
    expires_at: view.expiresAt ?? null,
    assignee: view.assignee ?? null,
    reason: view.reason ?? null,
    version: row.aggregate.version,
    created_at: row.createdAt,
    updated_at: view.updatedAt,
  };
}

/**
 * rm_transactions rows as TransactionReadRows ($1: the transaction ids as a uuid[]): the snapshot
 * the columns give, the account, the creation time and the Turkish business day as SQL computes it.
 */
export const TRANSACTION_ROWS_SQL = `select jsonb_build_object('version', version, 'requestFingerprint', '', 'view', jsonb_build_object(
     'transactionId', transaction_id::text, 'number', number, 'type', type, 'state', state,
     'merchantId', merchant_id, 'providerId', provider_id, 'infrastructureId', infrastructure_id, 'form', form,
     'externalId', external_id, 'amountKurus', amount_kurus::text, 'originalAmountKurus', original_amount_kurus::text,
     'feeKurus', fee_kurus::text, 'customer', customer, 'assignee', assignee, 'reason', reason, 'echo', '{}'::jsonb,
     'createdAt', created_at, 'updatedAt', updated_at)) as snapshot, bank_account_id, created_at::text as at,
     ((created_at at time zone 'UTC') + interval '3 hours')::date::text as day
   from rm_transactions where transaction_id = any($1::uuid[])`;

export interface StoredTransactionRow {
  snapshot: TransactionAggregate;
  bank_account_id: string | null;
  at: string;
  day: string;
}

export function readRowOf(stored: StoredTransactionRow): TransactionReadRow {
  return { aggregate: stored.snapshot, bankAccountId: stored.bank_account_id, createdAt: stored.at, day: stored.day };
}

/** A transaction's pending rm_transfers rows ($1: the transaction ids as a uuid[]). */
export const PENDING_TRANSFERS_SQL = `select transfer_id, transaction_id::text, merchant_id, debit_account, credit_account,
     amount_kurus::text, state, created_at::text, updated_at::text
   from rm_transfers where state = 'pending' and transaction_id = any($1::uuid[])`;
