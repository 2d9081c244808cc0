import { STREAMS } from '@transfergate/contracts';
import type { BatchExecutor, RecordedEvent, RowsAlongside, SqlExecutor } from '@transfergate/event-store';
import type { TransactionAggregate } from '../domain/transaction.js';
import { RECORD_COLUMN_TYPES, rowColumns, type RecordRow } from '../reconciliation/read-model/projection.js';
import {
  BALANCE_COLUMNS,
  PENDING_TRANSFERS_SQL,
  TRANSACTION_COLUMNS,
  TRANSACTION_ROWS_SQL,
  foldEvent,
  readRowOf,
  settledTransactionOf,
  transactionColumns,
  type BalanceColumn,
  type ConfigReadRow,
  type ReadRowStore,
  type StoredTransactionRow,
  type TransactionReadRow,
  type TransferReadRow,
} from './read-model-fold.js';

/**
 * Applies events to the read models. Runs inside the consumer's transaction together with the
 * checkpoint, so each event is applied exactly once. What an event does to a row is the shared fold
 * (read-model-fold.ts); this file is its live store: the rows one batch touches, read from the
 * tables before the fold and written back after it. The replay's SQL projector (`--projector sql`)
 * runs this same code into a scratch schema.
 *
 * A batch is applied with one multi-row statement per table where it can be: new transactions,
 * changed transactions, new transfers, balance deltas and daily volumes are gathered in memory
 * (sums commute, and a transaction's rows are folded in stream order) and written at the end, so
 * a burst of N deposits costs a handful of statements, not 2N.
 */
export async function projectEvents(
  tx: SqlExecutor | BatchExecutor,
  events: RecordedEvent[],
  effects?: DepositContextEffects,
  /**
   * Transactions whose row this process knows was written with their first event (rows alongside):
   * not inserted again. Any other is inserted, and an insert that finds its row leaves it.
   */
  rowWrittenAlong?: (transactionId: string) => boolean,
): Promise<void> {
  const batch = new ProjectionBatch(tx, effects, rowWrittenAlong);
  await batch.loadTransactions(transactionsChangedNotCreated(events));
  await batch.loadPendingTransfers(events);
  for (const event of events) foldEvent(batch, event);
  await batch.flush();
}

/** The transactions whose later events the batch holds without their first (their rows exist already). */
function transactionsChangedNotCreated(events: readonly RecordedEvent[]): string[] {
  const created = new Set<string>();
  const changed = new Set<string>();
  for (const event of events) {
    if (!event.streamId.startsWith('txn-')) continue;
    const transactionId = event.streamId.slice('txn-'.length);
    if (event.streamVersion === 1) created.add(transactionId);
    else if (!created.has(transactionId)) changed.add(transactionId);
  }
  return [...changed];
}

/**
 * What a batch wrote to the read models a new deposit is decided from (rm_merchants,
 * rm_bank_accounts, rm_bank_account_daily), exactly as written, in batch order: the deposit-context
 * cache applies it once the batch has committed.
 */
export interface DepositContextEffects {
  records: Array<{ table: 'rm_merchants' | 'rm_bank_accounts'; key: string; active?: boolean; record: unknown }>;
  daily: Array<{ bankAccountId: string; day: string; deltaKurus: bigint }>;
  /** A provider, merchant or infrastructure record changed: cached provider credentials are stale. */
  providerDirectoryChanged: boolean;
}

export function newDepositContextEffects(): DepositContextEffects {
  return { records: [], daily: [], providerDirectoryChanged: false };
}

/** The tables FindProviderByApiKeyQuery reads (the gateway caches its answers). */
const PROVIDER_DIRECTORY_TABLES: ReadonlySet<string> = new Set(['rm_providers', 'rm_merchants', 'rm_infrastructures']);

/** A transaction's row as this batch leaves it. */
interface BatchTransactionRow extends TransactionReadRow {
  /** Not in rm_transactions yet: inserted at the flush. */
  isNew: boolean;
}

/** A transfer as this batch leaves it. */
interface BatchTransferRow extends TransferReadRow {
  /** Read from rm_transfers before the fold: updated at the flush if its state changed, never inserted. */
  loaded: boolean;
}

/** What one batch of events does to the read models: the live row store of the fold, written once at the end. */
class ProjectionBatch implements ReadRowStore {
  readonly transactions = new Map<string, BatchTransactionRow>();
  private readonly changed = new Set<string>();
  /** Transfers of the batch and the pending ones it settles, in order. */
  private readonly transfers: BatchTransferRow[] = [];
  /** Lower-case transaction id → its transfers still pending (uuid text is lower case in the table). */
  private readonly pendingOf = new Map<string, BatchTransferRow[]>();
  /** account → column → delta (kuruş); every account touched gets its row, as one upsert each did. */
  private readonly balances = new Map<string, Map<BalanceColumn, bigint>>();
  /** Configuration records in event order (each one upsert, as its event came). */
  private readonly configRecords: ConfigReadRow[] = [];
  /** Record rows of the reconciliation tables: table → key → columns (last write of the batch wins). */
  private readonly records = new Map<string, { keyColumn: string; rows: Map<string, Record<string, unknown>> }>();
  /** `bankAccountId|day` → delta of the day's issued volume. */
  private readonly daily = new Map<string, { bankAccountId: string; day: string; deltaKurus: bigint }>();

  constructor(
    readonly tx: SqlExecutor | BatchExecutor,
    readonly effects?: DepositContextEffects,
    readonly rowWrittenAlong?: (transactionId: string) => boolean,
  ) {}

  /**
   * A write of the flush: nothing of the batch reads it back and no two touch one row, so a
   * consumer that can defer sends them all with its checkpoint in one statement.
   */
  private async write(sql: string, params: unknown[]): Promise<void> {
    if ('defer' in this.tx) this.tx.defer(sql, params);
    else await this.tx.query(sql, params);
  }

  /**
   * The rows of every transaction the batch changes but did not create, in one read, before its
   * events are folded: one statement per batch, not one per transaction.
   */
  async loadTransactions(transactionIds: readonly string[]): Promise<void> {
    const missing = transactionIds.filter((id) => !this.transactions.has(id));
    if (missing.length === 0) return;
    const { rows } = await this.tx.query<StoredTransactionRow>(TRANSACTION_ROWS_SQL, [missing]);
    // Kept under the id as the stream names it (uuid's text form is lower case).
    const asNamed = new Map(missing.map((id) => [id.toLowerCase(), id]));
    for (const row of rows) {
      const id = asNamed.get(row.snapshot.view.transactionId) ?? row.snapshot.view.transactionId;
      this.transactions.set(id, { ...readRowOf(row), isNew: false });
    }
  }

  /** The pending transfers the batch's settling events end, in one read before the fold. */
  async loadPendingTransfers(events: readonly RecordedEvent[]): Promise<void> {
    const settled = new Set<string>();
    for (const event of events) {
      const id = settledTransactionOf(event);
      if (id !== undefined) settled.add(id.toLowerCase());
    }
    if (settled.size === 0) return;
    const { rows } = await this.tx.query<TransferReadRow>(PENDING_TRANSFERS_SQL, [[...settled]]);
    for (const row of rows) this.holdTransfer({ ...row, loaded: true });
  }

  private holdTransfer(row: BatchTransferRow): void {
    this.transfers.push(row);
    if (row.state !== 'pending') return;
    const key = row.transaction_id.toLowerCase();
    const pending = this.pendingOf.get(key);
    if (pending) pending.push(row);
    else this.pendingOf.set(key, [row]);
  }

  transaction(transactionId: string): TransactionReadRow | undefined {
    return this.transactions.get(transactionId);
  }

  createTransaction(transactionId: string, row: TransactionReadRow): void {
    this.transactions.set(transactionId, { ...row, isNew: !this.rowWrittenAlong?.(transactionId) });
  }

  updateTransaction(transactionId: string, aggregate: TransactionAggregate): void {
    const row = this.transactions.get(transactionId)!;
    row.aggregate = aggregate;
    if (!row.isNew) this.changed.add(transactionId);
  }

  addTransfer(row: TransferReadRow): void {
    this.holdTransfer({ ...row, loaded: false });
  }

  pendingTransfers(transactionId: string): readonly TransferReadRow[] {
    return this.pendingOf.get(transactionId.toLowerCase()) ?? [];
  }

  settleTransfer(row: TransferReadRow, state: 'posted' | 'voided', at: string): void {
    row.state = state;
    row.updated_at = at;
    const key = row.transaction_id.toLowerCase();
    const left = (this.pendingOf.get(key) ?? []).filter((t) => t !== row);
    if (left.length === 0) this.pendingOf.delete(key);
    else this.pendingOf.set(key, left);
  }

  addToBalance(account: string, column: BalanceColumn, deltaKurus: bigint): void {
    let columns = this.balances.get(account);
    if (!columns) this.balances.set(account, (columns = new Map()));
    columns.set(column, (columns.get(column) ?? 0n) + deltaKurus);
  }

  putConfigRecord(row: ConfigReadRow): void {
    this.configRecords.push(row);
    if (!this.effects) return;
    if (PROVIDER_DIRECTORY_TABLES.has(row.table)) this.effects.providerDirectoryChanged = true;
    if (row.table === 'rm_merchants' || row.table === 'rm_bank_accounts') {
      // The record as the jsonb column holds it (a JSON round trip), so the cache reads what SQL reads.
      this.effects.records.push({
        table: row.table,
        key: row.key,
        ...(typeof row.columns.active === 'boolean' ? { active: row.columns.active } : {}),
        record: JSON.parse(JSON.stringify(row.record)),
      });
    }
  }

  putReconciliationRow(row: RecordRow, at: string): void {
    // A statement import brings thousands of lines at once: gathered and written per table at the flush.
    let known = this.records.get(row.table);
    if (!known) this.records.set(row.table, (known = { keyColumn: row.keyColumn, rows: new Map() }));
    known.rows.delete(row.key);
    known.rows.set(row.key, rowColumns(row, at));
  }

  addDailyIssued(bankAccountId: string, day: string, deltaKurus: bigint): void {
    const key = `${bankAccountId}|${day}`;
    const known = this.daily.get(key);
    if (known) known.deltaKurus += deltaKurus;
    else this.daily.set(key, { bankAccountId, day, deltaKurus });
  }

  async flush(): Promise<void> {
    await this.flushConfigRecords();
    await this.flushTransactions();
    await this.flushTransfers();
    await this.flushBalances();
    await this.flushDaily();
    await this.flushRecords();
  }

  /** One upsert per record event, in order (configuration changes are few; the last one wins). */
  private async flushConfigRecords(): Promise<void> {
    for (const row of this.configRecords) {
      const names = Object.keys(row.columns);
      const values = Object.values(row.columns);
      const cols = [row.keyColumn, ...names, 'record', 'updated_at'];
      const placeholders = cols.map((_, i) => `$${i + 1}`);
      const updates = cols.slice(1).map((c) => `${c} = excluded.${c}`);
      await this.tx.query(
        `insert into ${row.table} (${cols.join(', ')}) values (${placeholders.join(', ')})
         on conflict (${row.keyColumn}) do update set ${updates.join(', ')}`,
        [row.key, ...values, JSON.stringify(row.record), row.updatedAt],
      );
    }
  }

  private async flushTransfers(): Promise<void> {
    const inserts = this.transfers.filter((t) => !t.loaded);
    const settled = this.transfers.filter((t) => t.loaded && t.state !== 'pending');
    if (inserts.length > 0) {
      await this.write(
        `insert into rm_transfers (transfer_id, transaction_id, merchant_id, debit_account, credit_account, amount_kurus,
           state, created_at, updated_at)
         select transfer_id, transaction_id, merchant_id, debit_account, credit_account, amount_kurus, state, created_at,
           updated_at
         from jsonb_to_recordset($1::jsonb) as x(transfer_id text, transaction_id uuid, merchant_id text,
           debit_account text, credit_account text, amount_kurus bigint, state text, created_at timestamptz,
           updated_at timestamptz)`,
        [JSON.stringify(inserts, TRANSFER_COLUMNS)],
      );
    }
    if (settled.length > 0) {
      await this.write(
        `update rm_transfers t set state = x.state, updated_at = x.updated_at
         from jsonb_to_recordset($1::jsonb) as x(transfer_id text, state text, updated_at timestamptz)
         where t.transfer_id = x.transfer_id`,
        [JSON.stringify(settled, ['transfer_id', 'state', 'updated_at'])],
      );
    }
  }

  private async flushRecords(): Promise<void> {
    for (const [table, { keyColumn, rows }] of this.records) {
      const types = RECORD_COLUMN_TYPES[table];
      if (!types) throw new Error(`projection: no column types for ${table}`);
      const columns = Object.keys(types);
      const all = [...rows.values()];
      for (let i = 0; i < all.length; i += RECORD_FLUSH_ROWS) {
        await this.write(
          `insert into ${table} (${columns.join(', ')})
           select ${columns.join(', ')} from jsonb_to_recordset($1::jsonb)
             as x(${columns.map((c) => `${c} ${types[c]}`).join(', ')})
           on conflict (${keyColumn}) do update set ${columns
             .filter((c) => c !== keyColumn)
             .map((c) => `${c} = excluded.${c}`)
             .join(', ')}`,
          [JSON.stringify(all.slice(i, i + RECORD_FLUSH_ROWS))],
        );
      }
    }
    this.records.clear();
  }

  private async flushTransactions(): Promise<void> {
    const inserts: Record<string, unknown>[] = [];
    const updates: Record<string, unknown>[] = [];
    for (const [transactionId, row] of this.transactions) {
      const view = row.aggregate.view;
      if (row.isNew) inserts.push(transactionColumns(transactionId, row));
      // A new row's later events: it may have been written at version 1 with its event already.
      if ((row.isNew && row.aggregate.version > 1) || this.changed.has(transactionId)) {
        updates.push({
          transaction_id: transactionId,
          state: view.state,
          amount_kurus: view.amountKurus,
          fee_kurus: view.feeKurus,
          assignee: view.assignee ?? null,
          reason: view.reason ?? null,
          version: row.aggregate.version,
          updated_at: view.updatedAt,
        });
      }
    }
    if (inserts.length > 0) {
      await this.write(
        `insert into rm_transactions (${TRANSACTION_COLUMN_NAMES})
         select ${TRANSACTION_COLUMN_NAMES}
         from jsonb_to_recordset($1::jsonb) as x(${TRANSACTION_COLUMNS_TYPED})
         -- A new deposit's row was written with its event (rowAlongsideRequest): this same row at
         -- version 1, left as it is (without the row lock an upsert takes); the updates below move
         -- it on if this batch has its later events.
         on conflict (transaction_id) do nothing`,
        [JSON.stringify(inserts)],
      );
    }
    if (updates.length > 0) {
      await this.write(
        `update rm_transactions t set state = x.state, amount_kurus = x.amount_kurus, fee_kurus = x.fee_kurus,
           assignee = x.assignee, reason = x.reason, version = x.version, updated_at = x.updated_at
         from jsonb_to_recordset($1::jsonb) as x(transaction_id uuid, state text, amount_kurus bigint,
           fee_kurus bigint, assignee text, reason text, version integer, updated_at timestamptz)
         where t.transaction_id = x.transaction_id and t.version < x.version`,
        [JSON.stringify(updates)],
      );
    }
  }

  private async flushBalances(): Promise<void> {
    if (this.balances.size === 0) return;
    const rows = [...this.balances].map(([account_id, columns]) => ({
      account_id,
      ...Object.fromEntries(BALANCE_COLUMNS.map((c) => [c, (columns.get(c) ?? 0n).toString()])),
    }));
    await this.write(
      `insert into rm_balances (account_id, debits_pending_kurus, debits_posted_kurus, credits_pending_kurus,
         credits_posted_kurus)
       select account_id, debits_pending_kurus, debits_posted_kurus, credits_pending_kurus, credits_posted_kurus
       from jsonb_to_recordset($1::jsonb) as x(account_id text, debits_pending_kurus bigint,
         debits_posted_kurus bigint, credits_pending_kurus bigint, credits_posted_kurus bigint)
       on conflict (account_id) do update set
         debits_pending_kurus = rm_balances.debits_pending_kurus + excluded.debits_pending_kurus,
         debits_posted_kurus = rm_balances.debits_posted_kurus + excluded.debits_posted_kurus,
         credits_pending_kurus = rm_balances.credits_pending_kurus + excluded.credits_pending_kurus,
         credits_posted_kurus = rm_balances.credits_posted_kurus + excluded.credits_posted_kurus`,
      [JSON.stringify(rows)],
    );
  }

  private async flushDaily(): Promise<void> {
    if (this.daily.size === 0) return;
    this.effects?.daily.push(...[...this.daily.values()].map((d) => ({ ...d })));
    const rows = [...this.daily.values()].map((d) => ({
      bank_account_id: d.bankAccountId,
      day: d.day,
      issued_kurus: d.deltaKurus.toString(),
    }));
    await this.write(
      `insert into rm_bank_account_daily (bank_account_id, day, issued_kurus)
       select bank_account_id, day, issued_kurus
       from jsonb_to_recordset($1::jsonb) as x(bank_account_id text, day date, issued_kurus bigint)
       on conflict (bank_account_id, day) do update set
         issued_kurus = rm_bank_account_daily.issued_kurus + excluded.issued_kurus`,
      [JSON.stringify(rows)],
    );
  }
}

const TRANSFER_COLUMNS = [
  'transfer_id',
  'transaction_id',
  'merchant_id',
  'debit_account',
  'credit_account',
  'amount_kurus',
  'state',
  'created_at',
  'updated_at',
];
const TRANSACTION_COLUMN_NAMES = Object.keys(TRANSACTION_COLUMNS).join(', ');
const TRANSACTION_COLUMNS_TYPED = Object.entries(TRANSACTION_COLUMNS)
  .map(([column, type]) => `${column} ${type}`)
  .join(', ');
/** What the store stamps on a row written alongside its event: the event's recorded time. */
const { created_at: _createdAt, updated_at: _updatedAt, ...TRANSACTION_COLUMNS_WRITTEN } = TRANSACTION_COLUMNS;
/** The declaration every new transaction's row hands the store; frozen, so the store checks its names once. */
const TRANSACTION_COLUMNS_ALONGSIDE = Object.freeze(TRANSACTION_COLUMNS_WRITTEN);
/** The same for every row: the recorded-time columns. */
const RECORDED_AT_COLUMNS = Object.freeze(['created_at', 'updated_at']);

/**
 * A new transaction's rm_transactions row, for its append to write alongside its first event
 * (LedgerRepository.appendNewDeposit): exactly what the projection inserts for that event, with
 * the times left to the store, which stamps the event's recorded time (the fold takes both from
 * it). The projection's insert then finds the row there and leaves it as it is.
 */
export function rowAlongsideRequest(streamId: string, aggregate: TransactionAggregate): RowsAlongside {
  assert(streamId.startsWith('txn-'), 'a transaction row comes from a transaction stream');
  assert(aggregate.version === 1, 'a new transaction holds its request event only');
  const {
    created_at: _created,
    updated_at: _updated,
    ...row
  } = transactionColumns(streamId.slice('txn-'.length), {
    aggregate,
    bankAccountId: aggregate.view.bankAccount?.bankAccountId ?? null,
    createdAt: '',
  });
  return {
    table: 'rm_transactions',
    columns: TRANSACTION_COLUMNS_ALONGSIDE,
    rows: [row],
    recordedAtColumns: RECORDED_AT_COLUMNS,
  };
}

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(`projection: ${message}`);
}

/** Rows per multi-row upsert of record tables (one JSON parameter of a few MB at most). */
const RECORD_FLUSH_ROWS = 5_000;

export const LEDGER_PROJECTION = 'ledger-read-models';
export { STREAMS };
