import { EVENT_CATALOG, STREAMS, type EventData, type EventType, type Transfer } from '@transfergate/contracts';
import type { BatchExecutor, RecordedEvent, RowsAlongside, SqlExecutor } from '@transfergate/event-store';
import { evolve, type TransactionAggregate } from '../domain/transaction.js';
import { RECORD_COLUMN_TYPES, reconciliationRow, rowColumns } from '../reconciliation/read-model/projection.js';
import { turkishDay } from './deposit-context.cache.js';

/**
 * Applies events to the read models. Runs inside the consumer's transaction together with the
 * checkpoint, so each event is applied exactly once. Pure SQL on an executor: the replay tool
 * runs the same code into a scratch schema.
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
  for (const event of events) await projectEvent(batch, event);
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

async function projectEvent(batch: ProjectionBatch, event: RecordedEvent): Promise<void> {
  const tx = batch.tx;
  if (event.streamId.startsWith('txn-')) return projectTransaction(batch, event);
  const record = RECORD_PROJECTIONS[event.type];
  if (record) {
    const [key, columns] = record.row(event.data);
    const parsed = record.parse(event.data);
    if (batch.effects && PROVIDER_DIRECTORY_TABLES.has(record.table)) batch.effects.providerDirectoryChanged = true;
    if (batch.effects && (record.table === 'rm_merchants' || record.table === 'rm_bank_accounts')) {
      // The record as the jsonb column holds it (a JSON round trip), so the cache reads what SQL reads.
      batch.effects.records.push({
        table: record.table,
        key,
        ...(typeof columns.active === 'boolean' ? { active: columns.active } : {}),
        record: JSON.parse(JSON.stringify(parsed)),
      });
    }
    return upsert(tx, record.table, record.keyColumn, key, columns, parsed, event);
  }
  const reconciliation = reconciliationRow(event);
  if (reconciliation) {
    // A statement import brings thousands of lines at once: gathered and written per table at the flush.
    batch.addRecord(reconciliation.table, reconciliation.keyColumn, rowColumns(reconciliation, event.createdAt));
    return;
  }
  switch (event.type) {
    case 'TransfersPosted':
      return applyTransfers(batch, event, 'posted', EVENT_CATALOG.TransfersPosted.schema.parse(event.data));
    case 'TransfersReserved':
      return applyTransfers(batch, event, 'pending', EVENT_CATALOG.TransfersReserved.schema.parse(event.data));
    case 'ReservationChanged': {
      const d = EVENT_CATALOG.ReservationChanged.schema.parse(event.data);
      await settlePending(batch, event, d.transactionId, 'voided');
      return applyTransfers(batch, event, 'pending', d);
    }
    case 'ReservationPosted': {
      const d = EVENT_CATALOG.ReservationPosted.schema.parse(event.data);
      return settlePending(batch, event, d.transactionId, 'posted');
    }
    case 'ReservationVoided':
      return settlePending(
        batch,
        event,
        EVENT_CATALOG.ReservationVoided.schema.parse(event.data).transactionId,
        'voided',
      );
    case 'ApiSettingsConfigured': {
      const d = EVENT_CATALOG.ApiSettingsConfigured.schema.parse(event.data);
      const by = typeof event.metadata.actor === 'string' ? event.metadata.actor : null;
      await upsert(tx, 'rm_settings', 'name', 'api', { updated_by: by }, d, event);
      return;
    }
    default:
      // Events of other services' streams are not this projection's concern.
      return;
  }
}

interface RecordProjection {
  table: string;
  keyColumn: string;
  parse: (data: unknown) => unknown;
  /** The row key and the indexed columns kept beside the whole record. */
  row: (data: unknown) => [string, Record<string, unknown>];
}

/** Configuration records: one row per record, the whole record as jsonb (soft deletes included). */
function recordProjection<T extends EventType>(
  type: T,
  table: string,
  keyColumn: string,
  row: (data: EventData<T>) => [string, Record<string, unknown>],
): RecordProjection {
  const parse = (data: unknown) => EVENT_CATALOG[type].schema.parse(data) as EventData<T>;
  return { table, keyColumn, parse, row: (data) => row(parse(data)) };
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

async function upsert(
  tx: SqlExecutor,
  table: string,
  keyColumn: string,
  key: string,
  columns: Record<string, unknown>,
  record: unknown,
  event: RecordedEvent,
): Promise<void> {
  const names = Object.keys(columns);
  const values = Object.values(columns);
  const cols = [keyColumn, ...names, 'record', 'updated_at'];
  const placeholders = cols.map((_, i) => `$${i + 1}`);
  const updates = cols.slice(1).map((c) => `${c} = excluded.${c}`);
  await tx.query(
    `insert into ${table} (${cols.join(', ')}) values (${placeholders.join(', ')})
     on conflict (${keyColumn}) do update set ${updates.join(', ')}`,
    [key, ...values, JSON.stringify(record), event.createdAt],
  );
}

/** A transaction's row as this batch leaves it. */
interface TransactionRow {
  aggregate: TransactionAggregate;
  /** Not in rm_transactions yet: inserted at the flush. */
  isNew: boolean;
  bankAccountId: string | null;
  createdAt: string;
  /** The Turkish business day (UTC+3) of createdAt: the day its receiving account's volume counts on. */
  day: string;
}

type BalanceColumn = 'debits_pending_kurus' | 'debits_posted_kurus' | 'credits_pending_kurus' | 'credits_posted_kurus';
const BALANCE_COLUMNS: readonly BalanceColumn[] = [
  'debits_pending_kurus',
  'debits_posted_kurus',
  'credits_pending_kurus',
  'credits_posted_kurus',
];

interface TransferRow {
  transfer_id: string;
  transaction_id: string;
  merchant_id: string;
  debit_account: string;
  credit_account: string;
  amount_kurus: string;
  state: 'pending' | 'posted';
  created_at: string;
}

/** rm_transactions rows as the aggregate they were projected from ($1: the transaction ids). */
const TRANSACTION_ROWS_SQL = `select jsonb_build_object('version', version, 'requestFingerprint', '', 'view', jsonb_build_object(
     'transactionId', transaction_id::text, 'number', number, 'type', type, 'state', state,
     'merchantId', merchant_id, 'providerId', provider_id, 'infrastructureId', infrastructure_id, 'form', form,
     'externalId', external_id, 'amountKurus', amount_kurus::text, 'originalAmountKurus', original_amount_kurus::text,
     'feeKurus', fee_kurus::text, 'customer', customer, 'assignee', assignee, 'reason', reason, 'echo', '{}'::jsonb,
     'createdAt', created_at, 'updatedAt', updated_at)) as snapshot, bank_account_id, created_at::text as at,
     ((created_at at time zone 'UTC') + interval '3 hours')::date::text as day
   from rm_transactions where transaction_id = any($1::uuid[])`;

interface StoredTransactionRow {
  snapshot: TransactionAggregate;
  bank_account_id: string | null;
  at: string;
  day: string;
}

/** What one batch of events does to the transaction tables, gathered and written once. */
class ProjectionBatch {
  readonly transactions = new Map<string, TransactionRow>();
  private readonly changed = new Set<string>();
  private newTransfers: TransferRow[] = [];
  /** account → column → delta (kuruş); every account touched gets its row, as one upsert each did. */
  private readonly balances = new Map<string, Map<BalanceColumn, bigint>>();
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
   * events are applied: one statement per batch, not one per transaction.
   */
  async loadTransactions(transactionIds: readonly string[]): Promise<void> {
    const missing = transactionIds.filter((id) => !this.transactions.has(id));
    if (missing.length === 0) return;
    const { rows } = await this.tx.query<StoredTransactionRow>(TRANSACTION_ROWS_SQL, [missing]);
    // Kept under the id as the stream names it (uuid's text form is lower case).
    const asNamed = new Map(missing.map((id) => [id.toLowerCase(), id]));
    for (const row of rows) {
      this.transactions.set(asNamed.get(row.snapshot.view.transactionId) ?? row.snapshot.view.transactionId, {
        aggregate: row.snapshot,
        isNew: false,
        bankAccountId: row.bank_account_id,
        createdAt: row.at,
        day: row.day,
      });
    }
  }

  async transaction(transactionId: string): Promise<TransactionRow | undefined> {
    await this.loadTransactions([transactionId]);
    return this.transactions.get(transactionId);
  }

  created(row: TransactionRow): void {
    this.transactions.set(row.aggregate.view.transactionId, row);
  }

  updated(transactionId: string, aggregate: TransactionAggregate): void {
    const row = this.transactions.get(transactionId)!;
    row.aggregate = aggregate;
    if (!row.isNew) this.changed.add(transactionId);
  }

  addTransfer(row: TransferRow): void {
    this.newTransfers.push(row);
  }

  addToBalance(account: string, column: BalanceColumn, deltaKurus: bigint): void {
    let columns = this.balances.get(account);
    if (!columns) this.balances.set(account, (columns = new Map()));
    columns.set(column, (columns.get(column) ?? 0n) + deltaKurus);
  }

  addRecord(table: string, keyColumn: string, columns: Record<string, unknown>): void {
    let known = this.records.get(table);
    if (!known) this.records.set(table, (known = { keyColumn, rows: new Map() }));
    const key = String(columns[keyColumn]);
    known.rows.delete(key);
    known.rows.set(key, columns);
  }

  addDailyIssued(bankAccountId: string, day: string, deltaKurus: bigint): void {
    const key = `${bankAccountId}|${day}`;
    const known = this.daily.get(key);
    if (known) known.deltaKurus += deltaKurus;
    else this.daily.set(key, { bankAccountId, day, deltaKurus });
  }

  /**
   * Transfers must be in the table before a settlement of this batch updates them: `atOnce` then;
   * at the flush they are one more deferred write.
   */
  async flushTransfers(atOnce: boolean): Promise<void> {
    if (this.newTransfers.length === 0) return;
    const rows = this.newTransfers;
    this.newTransfers = [];
    const run = atOnce ? (sql: string, params: unknown[]) => this.tx.query(sql, params) : this.write.bind(this);
    await run(
      `insert into rm_transfers (transfer_id, transaction_id, merchant_id, debit_account, credit_account, amount_kurus,
         state, created_at, updated_at)
       select transfer_id, transaction_id, merchant_id, debit_account, credit_account, amount_kurus, state, created_at,
         created_at
       from jsonb_to_recordset($1::jsonb) as x(transfer_id text, transaction_id uuid, merchant_id text,
         debit_account text, credit_account text, amount_kurus bigint, state text, created_at timestamptz)`,
      [JSON.stringify(rows)],
    );
  }

  async flush(): Promise<void> {
    await this.flushTransactions();
    await this.flushTransfers(false);
    await this.flushBalances();
    await this.flushDaily();
    await this.flushRecords();
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
      if (row.isNew) inserts.push(insertRowOf(transactionId, row));
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

/** rm_transactions' columns and their types, as its rows are read from JSON (insertRowOf's keys). */
const TRANSACTION_COLUMNS = {
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

/** rm_transactions' row of a transaction new in the batch (its columns by name). */
function insertRowOf(transactionId: string, row: Pick<TransactionRow, 'aggregate' | 'bankAccountId' | 'createdAt'>) {
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
 * A new transaction's rm_transactions row, for its append to write alongside its first event
 * (LedgerRepository.appendNewDeposit): exactly what the projection inserts for that event, with
 * the times left to the store, which stamps the event's recorded time (projectTransaction takes
 * both from it). The projection's insert then finds the row there and leaves it as it is.
 */
export function rowAlongsideRequest(streamId: string, aggregate: TransactionAggregate): RowsAlongside {
  assert(streamId.startsWith('txn-'), 'a transaction row comes from a transaction stream');
  assert(aggregate.version === 1, 'a new transaction holds its request event only');
  const {
    created_at: _created,
    updated_at: _updated,
    ...row
  } = insertRowOf(streamId.slice('txn-'.length), {
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

/** The date (UTC+3, Turkey has no DST) of an event's ISO UTC time, as the SQL day of the same instant. */
function turkishBusinessDay(isoUtc: string): string {
  const ms = Date.parse(isoUtc);
  if (Number.isNaN(ms)) throw new Error(`projection: unreadable event time ${isoUtc}`);
  return turkishDay(ms);
}

/** The part of a deposit's amount its receiving account's day still counts (rejected/expired give it back). */
function dailyShare(view: { state: string; amountKurus: string }): bigint {
  return ['rejected', 'expired'].includes(view.state) ? 0n : BigInt(view.amountKurus);
}

async function projectTransaction(batch: ProjectionBatch, event: RecordedEvent): Promise<void> {
  const transactionId = event.streamId.slice('txn-'.length);
  if (event.streamVersion === 1) {
    const aggregate = evolve(undefined, event);
    const view = aggregate.view;
    const row: TransactionRow = {
      aggregate,
      isNew: !batch.rowWrittenAlong?.(transactionId),
      bankAccountId: view.bankAccount?.bankAccountId ?? null,
      createdAt: event.createdAt,
      day: turkishBusinessDay(event.createdAt),
    };
    batch.created(row);
    if (view.type === 'deposit' && view.bankAccount) {
      batch.addDailyIssued(view.bankAccount.bankAccountId, row.day, BigInt(view.amountKurus));
    }
    return;
  }
  const row = await batch.transaction(transactionId);
  if (!row) throw new Error(`projection: ${event.type} for unknown transaction ${transactionId}`);
  const current = row.aggregate;
  const next = evolve(current, event);
  if (current.view.type === 'deposit' && row.bankAccountId) {
    // Daily volume per receiving account: what is still expected; rejected/expired deposits give it back.
    const delta = dailyShare(next.view) - dailyShare(current.view);
    if (delta !== 0n) batch.addDailyIssued(row.bankAccountId, row.day, delta);
  }
  batch.updated(transactionId, next);
}

async function applyTransfers(
  batch: ProjectionBatch,
  event: RecordedEvent,
  state: 'pending' | 'posted',
  data: { transactionId: string; merchantId: string; transfers: Transfer[] },
): Promise<void> {
  for (const t of data.transfers) {
    batch.addTransfer({
      transfer_id: t.transferId,
      transaction_id: data.transactionId,
      merchant_id: data.merchantId,
      debit_account: t.debitAccount,
      credit_account: t.creditAccount,
      amount_kurus: t.amountKurus,
      state,
      created_at: event.createdAt,
    });
    const amount = BigInt(t.amountKurus);
    batch.addToBalance(t.debitAccount, state === 'posted' ? 'debits_posted_kurus' : 'debits_pending_kurus', amount);
    batch.addToBalance(t.creditAccount, state === 'posted' ? 'credits_posted_kurus' : 'credits_pending_kurus', amount);
  }
}

/** Ends the transaction's open pending transfers: posted moves them to the posted columns, voided drops them. */
async function settlePending(
  batch: ProjectionBatch,
  event: RecordedEvent,
  transactionId: string,
  state: 'posted' | 'voided',
): Promise<void> {
  await batch.flushTransfers(true);
  const { rows } = await batch.tx.query<{ debit_account: string; credit_account: string; amount_kurus: string }>(
    `update rm_transfers set state = $2, updated_at = $3::timestamptz
     where transaction_id = $1 and state = 'pending'
     returning debit_account, credit_account, amount_kurus::text`,
    [transactionId, state, event.createdAt],
  );
  for (const row of rows) {
    const amount = BigInt(row.amount_kurus);
    batch.addToBalance(row.debit_account, 'debits_pending_kurus', -amount);
    batch.addToBalance(row.credit_account, 'credits_pending_kurus', -amount);
    if (state === 'posted') {
      batch.addToBalance(row.debit_account, 'debits_posted_kurus', amount);
      batch.addToBalance(row.credit_account, 'credits_posted_kurus', amount);
    }
  }
}

export const LEDGER_PROJECTION = 'ledger-read-models';
export { STREAMS };
