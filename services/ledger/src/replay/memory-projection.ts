import type { RecordedEvent, SqlExecutor } from '@transfergate/event-store';
import { rowColumns, type RecordRow } from '../reconciliation/read-model/projection.js';
import type { TransactionAggregate } from '../domain/transaction.js';
import { isFinal } from '../domain/transaction-states.js';
import {
  BALANCE_COLUMNS,
  PENDING_TRANSFERS_SQL,
  TRANSACTION_COLUMNS,
  TRANSACTION_MUTABLE_COLUMNS,
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
} from '../read-models/read-model-fold.js';

/**
 * The replay's row store of the read-model fold (`read-models/read-model-fold.ts`, the same fold the
 * live projector runs): rows held in Maps for a whole rebuild and written to the scratch schema in
 * bulk, instead of a few statements per batch. Nothing here decides what an event does to a row.
 *
 * - Transactions are held as the fold leaves them; one loaded back from the scratch schema is the
 *   snapshot the live projector reads back (TRANSACTION_ROWS_SQL), so the written columns are the same.
 * - Configuration records and reconciliation rows are last-write-wins per key, written as the live
 *   projector's upserts (the same columns and values, once per key instead of once per event).
 * - Balances and the daily issued volume are deltas, flushed as additive upserts (the projector's own
 *   `on conflict … + excluded` arithmetic, once per key instead of once per batch).
 *
 * Write-behind (SETTLED_FLUSH_ROWS): settled rows are written in the background as the fold goes on.
 *
 * Memory bound (TIGER_STYLE): at most MAX_HELD_ROWS rows (transactions + transfers + balance, daily
 * and record rows) are held after each page of events; past it everything is handed to a background
 * write and evicted. Rows needed again later are loaded back before the page that needs them, one
 * query per kind (a bench deposit's events are adjacent, an operator's approval may come hours later:
 * either way one query per page). Peak: twice MAX_HELD_ROWS (one set being written, one being
 * folded) plus one page's worth (a page adds a few rows per event); about 1 KB per row held. Beside
 * them, at most MAX_HELD_ROWS ids of transactions with pending transfers already written.
 */
export const MAX_HELD_ROWS = 100_000;
/**
 * Write-behind: once this many rows were added since the last write, the settled ones (final
 * transactions without pending transfers, posted and voided transfers, every delta and record) are
 * written in the background while folding goes on, unless the previous write is still running.
 * Settled rows are rarely touched again, so this costs few load-backs, keeps PostgreSQL busy
 * during the fold instead of after it and leaves a short final write. (Evicting everything at the
 * bound made the next page load back the transactions it continues, and so wait for the write.)
 */
export const SETTLED_FLUSH_ROWS = 20_000;
/** Rows per bulk statement: one JSON parameter of a few MB at most. */
export const FLUSH_CHUNK_ROWS = 5_000;

type Text = string | null;
export type InScratch = <T>(work: (tx: SqlExecutor) => Promise<T>) => Promise<T>;

/** A transaction's row as held. */
interface TransactionRow extends TransactionReadRow {
  /** The id as rm_transactions prints it (lower case). */
  transactionId: string;
  /** Inserted in memory (INSERT at flush) or loaded from the scratch schema (UPDATE at flush). */
  loaded: boolean;
}

interface TransferRow extends TransferReadRow {
  loaded: boolean;
}

type BalanceDelta = Record<BalanceColumn, bigint>;

/** What one flush writes. */
interface Held {
  transactions: Map<string, TransactionRow>;
  transfers: Map<string, TransferRow>;
  balances: Map<string, BalanceDelta>;
  daily: Map<string, bigint>;
  records: Map<string, RecordUpsert>;
}

/** One record row, as the live projector's upsert writes it: `insert into <table> (<columns>) … on conflict (<key>)`. */
interface RecordUpsert {
  table: string;
  keyColumn: string;
  columns: string[];
  values: Text[];
}

const TRANSACTION_COLUMN_NAMES = Object.keys(TRANSACTION_COLUMNS);
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
] as const;

/** A parameter as text, the way pg serialises it (the server casts it to the column's type). */
function asText(value: unknown): Text {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) || value instanceof Date || Buffer.isBuffer(value)) {
    throw new TypeError('memory projection: a captured parameter must be a scalar or a JSON object');
  }
  return JSON.stringify(value);
}

/**
 * Implements the fold's ReadRowStore: the fold calls those methods (transaction … putReconciliationRow)
 * as it applies a page; the replay calls applyPage and finish.
 */
export class MemoryProjection implements ReadRowStore {
  private transactions = new Map<string, TransactionRow>();
  private transfers = new Map<string, TransferRow>();
  /** Transfer ids per transaction id, for settling its pending ones. */
  private transfersOf = new Map<string, string[]>();
  /** Transactions whose pending transfers already written to the scratch schema are loaded. */
  private pendingLoaded = new Set<string>();
  /**
   * Transactions with pending transfers in the scratch schema, so that settling any other costs no
   * query; 'unknown' once it would outgrow the bound (then every settlement asks the database).
   */
  private pendingWritten: Set<string> | 'unknown' = new Set();
  private balances = new Map<string, BalanceDelta>();
  private daily = new Map<string, bigint>();
  private records = new Map<string, RecordUpsert>();
  /** Once something was flushed, a miss may be a row in the scratch schema rather than an unknown one. */
  private flushedOnce = false;
  /**
   * An eviction's write runs while the next pages are folded (PostgreSQL works while this process
   * parses and hashes); it is awaited before any load-back, the next eviction and the end. So up to
   * twice MAX_HELD_ROWS rows exist at once: the ones being written and the ones being folded.
   */
  private writing: Promise<void> = Promise.resolve();
  private writeInFlight = false;
  /** heldRows right after the last write started: what was added since is measured against settledFlushRows. */
  private heldAfterLastWrite = 0;
  flushes = 0;
  rowsLoadedBack = 0;

  /**
   * @param beforeLoadBack runs in a load-back's transaction before its reads: the replay puts the
   * bulk tables' keys back there (deferred-keys.ts), since a load-back reads them by key.
   */
  constructor(
    private readonly maxHeldRows = MAX_HELD_ROWS,
    private readonly settledFlushRows = Math.min(SETTLED_FLUSH_ROWS, maxHeldRows),
    private readonly beforeLoadBack?: (tx: SqlExecutor) => Promise<void>,
  ) {
    if (!Number.isInteger(maxHeldRows) || maxHeldRows < 1) throw new RangeError('maxHeldRows must be ≥ 1');
    if (!Number.isInteger(settledFlushRows) || settledFlushRows < 1 || settledFlushRows > maxHeldRows) {
      throw new RangeError('settledFlushRows must be 1..maxHeldRows');
    }
  }

  get heldRows(): number {
    return this.transactions.size + this.transfers.size + this.balances.size + this.daily.size + this.records.size;
  }

  /**
   * Applies one page of events in order, then flushes and evicts when the bound is exceeded.
   * `inScratch` runs work in a transaction on the scratch schema; it is only used for load-backs
   * and flushes, so a page that needs neither costs no round trip. The page is consumed: each event
   * is dropped from it once applied, so a collection during the fold need not keep it.
   */
  async applyPage(events: Array<RecordedEvent | undefined>, inScratch: InScratch): Promise<void> {
    if (this.flushedOnce) await this.loadMisses(events as RecordedEvent[], inScratch);
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      events[i] = undefined;
      foldEvent(this, event);
    }
    if (this.heldRows > this.maxHeldRows) {
      await this.writing;
      this.startWrite(this.detach(), inScratch);
    } else if (!this.writeInFlight && this.heldRows - this.heldAfterLastWrite > this.settledFlushRows) {
      this.startWrite(this.detachSettled(), inScratch);
    }
  }

  /** Writes `held` in the background; awaited before a load-back, a full eviction and the end. */
  private startWrite(held: Held, inScratch: InScratch): void {
    this.writeInFlight = true;
    this.heldAfterLastWrite = this.heldRows;
    this.writing = inScratch((tx) => MemoryProjection.write(tx, held)).finally(() => {
      this.writeInFlight = false;
    });
    // Awaited later; a failure must not surface as an unhandled rejection meanwhile.
    this.writing.catch(() => undefined);
  }

  /** Writes everything still held (after the last page); the scratch tables are then complete. */
  async finish(inScratch: InScratch): Promise<void> {
    await this.writing;
    const held = this.detach();
    // Kept in `writing`, so that settle() waits for this write too.
    this.writing = inScratch((tx) => MemoryProjection.write(tx, held));
    await this.writing;
  }

  /** Waits for an eviction's write without caring how it ended (before the scratch schema is dropped). */
  async settle(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  private detach(): Held {
    if (this.pendingWritten !== 'unknown') {
      for (const t of this.transfers.values()) if (t.state === 'pending') this.pendingWritten.add(t.transaction_id);
      if (this.pendingWritten.size > this.maxHeldRows) this.pendingWritten = 'unknown';
    }
    const held: Held = { transactions: this.transactions, transfers: this.transfers, ...this.takeDeltas() };
    this.transactions = new Map();
    this.transfers = new Map();
    this.transfersOf = new Map();
    this.pendingLoaded = new Set();
    return held;
  }

  /** Every flush writes all deltas and records (additive or last-write-wins: early is as good as late). */
  private takeDeltas(): Pick<Held, 'balances' | 'daily' | 'records'> {
    const taken = { balances: this.balances, daily: this.daily, records: this.records };
    this.balances = new Map();
    this.daily = new Map();
    this.records = new Map();
    this.flushedOnce = true;
    this.flushes += 1;
    return taken;
  }

  /**
   * The write-behind's share: settled transactions and transfers, and every delta and record. Open
   * transactions and pending transfers stay, so the events still to come find them in memory.
   */
  private detachSettled(): Held {
    const held: Held = { transactions: new Map(), transfers: new Map(), ...this.takeDeltas() };
    for (const [id, t] of this.transfers) {
      if (t.state === 'pending') continue;
      held.transfers.set(id, t);
      this.transfers.delete(id);
    }
    for (const [id, row] of this.transactions) {
      if (!isFinal(row.aggregate.view.state)) continue;
      const ids = this.transfersOf.get(id);
      if (ids?.some((transferId) => this.transfers.has(transferId))) continue; // a pending one is still held
      held.transactions.set(id, row);
      this.transactions.delete(id);
      this.transfersOf.delete(id);
    }
    for (const [id, ids] of this.transfersOf) {
      const kept = ids.filter((transferId) => this.transfers.has(transferId));
      if (kept.length === 0) this.transfersOf.delete(id);
      else if (kept.length !== ids.length) this.transfersOf.set(id, kept);
    }
    return held;
  }

  transaction(transactionId: string): TransactionReadRow | undefined {
    return this.transactions.get(transactionId.toLowerCase());
  }

  createTransaction(transactionIdAsNamed: string, row: TransactionReadRow): void {
    const transactionId = transactionIdAsNamed.toLowerCase();
    if (this.transactions.has(transactionId)) {
      throw new Error(`memory projection: transaction ${transactionId} requested twice`);
    }
    this.transactions.set(transactionId, { ...row, transactionId, loaded: false });
  }

  updateTransaction(transactionId: string, aggregate: TransactionAggregate): void {
    this.transactions.get(transactionId.toLowerCase())!.aggregate = aggregate;
  }

  addTransfer(row: TransferReadRow): void {
    if (this.transfers.has(row.transfer_id)) throw new Error(`memory projection: transfer ${row.transfer_id} twice`);
    const transactionId = row.transaction_id.toLowerCase();
    this.transfers.set(row.transfer_id, { ...row, transaction_id: transactionId, loaded: false });
    const ids = this.transfersOf.get(transactionId);
    if (ids) ids.push(row.transfer_id);
    else this.transfersOf.set(transactionId, [row.transfer_id]);
  }

  pendingTransfers(transactionId: string): readonly TransferReadRow[] {
    const pending: TransferReadRow[] = [];
    for (const id of this.transfersOf.get(transactionId.toLowerCase()) ?? []) {
      const row = this.transfers.get(id)!;
      if (row.state === 'pending') pending.push(row);
    }
    return pending;
  }

  settleTransfer(row: TransferReadRow, state: 'posted' | 'voided', at: string): void {
    row.state = state;
    row.updated_at = at;
  }

  addDailyIssued(bankAccountId: string, day: string, deltaKurus: bigint): void {
    const key = `${bankAccountId}\u0000${day}`;
    this.daily.set(key, (this.daily.get(key) ?? 0n) + deltaKurus);
  }

  addToBalance(account: string, column: BalanceColumn, amountKurus: bigint): void {
    let delta = this.balances.get(account);
    if (!delta) {
      delta = {
        debits_pending_kurus: 0n,
        debits_posted_kurus: 0n,
        credits_pending_kurus: 0n,
        credits_posted_kurus: 0n,
      };
      this.balances.set(account, delta);
    }
    delta[column] += amountKurus;
  }

  putConfigRecord(row: ConfigReadRow): void {
    this.putRecord({
      table: row.table,
      keyColumn: row.keyColumn,
      columns: [row.keyColumn, ...Object.keys(row.columns), 'record', 'updated_at'],
      values: [row.key, ...Object.values(row.columns).map(asText), JSON.stringify(row.record), row.updatedAt],
    });
  }

  putReconciliationRow(row: RecordRow, at: string): void {
    const columns = rowColumns(row, at);
    this.putRecord({
      table: row.table,
      keyColumn: row.keyColumn,
      columns: Object.keys(columns),
      values: Object.values(columns).map(asText),
    });
  }

  private putRecord(upsert: RecordUpsert): void {
    const key = `${upsert.table}\u0000${upsert.values[0]}`;
    // Map order is insertion order: delete first so the newest write is also the last.
    this.records.delete(key);
    this.records.set(key, upsert);
  }

  /** Before a page: the evicted transactions it continues and the evicted pending transfers it settles. */
  private async loadMisses(rows: readonly RecordedEvent[], inScratch: InScratch): Promise<void> {
    const transactionIds = new Set<string>();
    const settled = new Set<string>();
    // Transactions this very page starts are no miss (most pages continue what they start).
    const startedHere = new Set<string>();
    for (const row of rows) {
      if (row.streamId.startsWith('txn-')) {
        const id = row.streamId.slice('txn-'.length).toLowerCase();
        if (row.streamVersion === 1) startedHere.add(id);
        else if (!this.transactions.has(id) && !startedHere.has(id)) transactionIds.add(id);
      } else {
        const id = settledTransactionOf(row)?.toLowerCase();
        if (id === undefined) continue;
        const written = this.pendingWritten === 'unknown' || this.pendingWritten.has(id);
        if (written && !this.pendingLoaded.has(id)) settled.add(id);
      }
    }
    if (transactionIds.size === 0 && settled.size === 0) return;
    await this.writing;
    await inScratch((tx) => this.load(tx, transactionIds, settled));
  }

  private async load(tx: SqlExecutor, transactionIds: Set<string>, settled: Set<string>): Promise<void> {
    await this.beforeLoadBack?.(tx);
    if (transactionIds.size > 0) {
      const { rows } = await tx.query<StoredTransactionRow>(TRANSACTION_ROWS_SQL, [[...transactionIds]]);
      for (const row of rows) {
        const transactionId = row.snapshot.view.transactionId;
        this.transactions.set(transactionId, { ...readRowOf(row), transactionId, loaded: true });
      }
      this.rowsLoadedBack += rows.length;
    }
    if (settled.size > 0) {
      const { rows } = await tx.query<TransferReadRow>(PENDING_TRANSFERS_SQL, [[...settled]]);
      for (const row of rows) {
        if (this.transfers.has(row.transfer_id)) continue;
        this.transfers.set(row.transfer_id, { ...row, loaded: true });
        const ids = this.transfersOf.get(row.transaction_id);
        if (ids) ids.push(row.transfer_id);
        else this.transfersOf.set(row.transaction_id, [row.transfer_id]);
      }
      this.rowsLoadedBack += rows.length;
      for (const id of settled) {
        this.pendingLoaded.add(id);
        if (this.pendingWritten !== 'unknown') this.pendingWritten.delete(id);
      }
    }
  }

  /** Writes what was held into the scratch schema (`tx` resolves rm_* there). */
  private static async write(tx: SqlExecutor, held: Held): Promise<void> {
    const types = await columnTypes(tx);
    const txns = [...held.transactions.values()];
    await insertRows(
      tx,
      types,
      'rm_transactions',
      TRANSACTION_COLUMN_NAMES,
      txns.filter((r) => !r.loaded).map(transactionText),
    );
    await updateRows(
      tx,
      types,
      'rm_transactions',
      'transaction_id',
      TRANSACTION_MUTABLE_COLUMNS,
      txns.filter((r) => r.loaded).map(transactionText),
    );
    const transfers = [...held.transfers.values()];
    await insertRows(
      tx,
      types,
      'rm_transfers',
      [...TRANSFER_COLUMNS],
      transfers.filter((r) => !r.loaded),
    );
    await updateRows(
      tx,
      types,
      'rm_transfers',
      'transfer_id',
      ['state', 'updated_at'],
      transfers.filter((r) => r.loaded),
    );
    await addRows(
      tx,
      types,
      'rm_balances',
      ['account_id'],
      [...BALANCE_COLUMNS],
      [...held.balances].map(([account, d]) => ({
        account_id: account,
        ...Object.fromEntries(BALANCE_COLUMNS.map((c) => [c, d[c].toString()])),
      })),
    );
    await addRows(
      tx,
      types,
      'rm_bank_account_daily',
      ['bank_account_id', 'day'],
      ['issued_kurus'],
      [...held.daily].map(([key, kurus]) => {
        const [bankAccountId, day] = key.split('\u0000');
        return { bank_account_id: bankAccountId!, day: day!, issued_kurus: kurus.toString() };
      }),
    );
    const byShape = new Map<string, RecordUpsert[]>();
    for (const r of held.records.values()) {
      const shape = `${r.table}(${r.columns.join(',')})`;
      const list = byShape.get(shape);
      if (list) list.push(r);
      else byShape.set(shape, [r]);
    }
    for (const list of byShape.values()) {
      const { table, keyColumn, columns } = list[0]!;
      const rows = list.map((r) => Object.fromEntries(columns.map((c, i) => [c, r.values[i] ?? null])));
      await upsertRows(tx, types, table, keyColumn, columns, rows);
    }
  }
}

/** A held transaction's columns as COPY and JSON text take them (every value text, a safe integer or null). */
function transactionText(row: TransactionRow): Record<string, string | number | null> {
  const columns = transactionColumns(row.transactionId, row);
  return { ...columns, customer: asText(columns.customer) };
}

type ColumnTypes = Map<string, string>;

/** `table.column` → SQL type of the tables `tx` resolves (the scratch schema's). */
async function columnTypes(tx: SqlExecutor): Promise<ColumnTypes> {
  const { rows } = await tx.query<{ t: string; c: string; type: string }>(
    `select c.relname as t, a.attname as c, format_type(a.atttypid, a.atttypmod) as type
     from pg_attribute a join pg_class c on c.oid = a.attrelid
     where c.oid in (select to_regclass(name) from unnest(array['rm_transactions', 'rm_transfers', 'rm_balances',
       'rm_bank_account_daily', 'rm_infrastructures', 'rm_merchants', 'rm_providers', 'rm_bank_accounts', 'rm_roles',
       'rm_operators', 'rm_settings', 'rm_statement_imports', 'rm_statement_lines', 'rm_statement_line_status',
       'rm_reconciliation_settings', 'rm_amount_change_requests']) as name)
       and a.attnum > 0 and not a.attisdropped`,
  );
  return new Map(rows.map((r) => [`${r.t}.${r.c}`, r.type]));
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * `select <casts> from json_to_recordset($1)`: every value travels as JSON text (or null) and is cast
 * to the column's type by the server, as the projector's text parameters are.
 */
function recordset(types: ColumnTypes, table: string, columns: readonly string[]): { select: string; from: string } {
  for (const c of [table, ...columns]) if (!IDENTIFIER.test(c)) throw new Error(`invalid identifier ${c}`);
  const cast = (c: string) => {
    const type = types.get(`${table}.${c}`);
    if (!type) throw new Error(`memory projection: no column ${table}.${c} in the scratch schema`);
    return `x.${c}::${type}`;
  };
  return {
    select: columns.map(cast).join(', '),
    from: `json_to_recordset($1::json) as x(${columns.map((c) => `${c} text`).join(', ')})`,
  };
}

async function inChunks<R>(rows: readonly R[], write: (chunk: readonly R[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += FLUSH_CHUNK_ROWS) await write(rows.slice(i, i + FLUSH_CHUNK_ROWS));
}

/**
 * The rows as a JSON array of objects with just these columns (the replacer list keeps the held
 * rows' bookkeeping out). Every held value is already text, an integer or null.
 */
function payload(rows: readonly object[], columns: readonly string[]): string {
  return JSON.stringify(rows, columns as string[]);
}

/**
 * New rows: a plain INSERT (or COPY), so a duplicate key fails as the projector's INSERT would.
 * On a PostgreSQL server they go by COPY, which the server parses at about 0.6 of the CPU of
 * json_to_recordset with its casts (307,692 transactions into a table with the scratch schema's four
 * unique indexes: 2.9-3.3 s against 4.8-5.3 s); the writes were the larger half of what a replay
 * asks of the server. PGlite's driver has no COPY from a stream; it keeps the INSERT.
 */
async function insertRows(
  tx: SqlExecutor,
  types: ColumnTypes,
  table: string,
  columns: readonly string[],
  rows: readonly object[],
): Promise<void> {
  // Also the check that every column exists in the scratch schema, whichever path writes.
  const { select, from } = recordset(types, table, columns);
  const copyRows = tx.copyRows?.bind(tx);
  if (copyRows) return inChunks(rows, (chunk) => copyRows(table, columns, chunk));
  await inChunks(rows, (chunk) =>
    tx.query(`insert into ${table} (${columns.join(', ')}) select ${select} from ${from}`, [payload(chunk, columns)]),
  );
}

/** Rows loaded back from the scratch schema: only their mutable columns change. */
async function updateRows(
  tx: SqlExecutor,
  types: ColumnTypes,
  table: string,
  keyColumn: string,
  columns: readonly string[],
  rows: readonly object[],
): Promise<void> {
  const all = [keyColumn, ...columns];
  const { from } = recordset(types, table, all);
  const cast = (c: string) => `x.${c}::${types.get(`${table}.${c}`)!}`;
  await inChunks(rows, (chunk) =>
    tx.query(
      `update ${table} t set ${columns.map((c) => `${c} = ${cast(c)}`).join(', ')}
       from ${from} where t.${keyColumn} = ${cast(keyColumn)}`,
      [payload(chunk, all)],
    ),
  );
}

/** Deltas: the projector's additive upsert, once per key. */
async function addRows(
  tx: SqlExecutor,
  types: ColumnTypes,
  table: string,
  keyColumns: readonly string[],
  columns: readonly string[],
  rows: readonly object[],
): Promise<void> {
  const all = [...keyColumns, ...columns];
  const { select, from } = recordset(types, table, all);
  await inChunks(rows, (chunk) =>
    tx.query(
      `insert into ${table} (${all.join(', ')}) select ${select} from ${from}
       on conflict (${keyColumns.join(', ')}) do update set ${columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`,
      [payload(chunk, all)],
    ),
  );
}

/** Configuration records: the projector's last-write-wins upsert, once per key. */
async function upsertRows(
  tx: SqlExecutor,
  types: ColumnTypes,
  table: string,
  keyColumn: string,
  columns: readonly string[],
  rows: readonly object[],
): Promise<void> {
  const { select, from } = recordset(types, table, columns);
  await inChunks(rows, (chunk) =>
    tx.query(
      `insert into ${table} (${columns.join(', ')}) select ${select} from ${from}
       on conflict (${keyColumn}) do update set ${columns
         .slice(1)
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}`,
      [payload(chunk, columns)],
    ),
  );
}
