import { EVENT_CATALOG, type Transfer, type TransactionState, type TransactionView } from '@transfergate/contracts';
import type { RecordedEvent, SqlExecutor } from '@transfergate/event-store';
import { reconciliationRow, rowColumns } from '../reconciliation/read-model/projection.js';
import { evolve, isFinal, type TransactionAggregate } from '../domain/transaction.js';
import { projectEvents } from '../read-models/projector.js';

/**
 * The replay's projection: the semantics of `read-models/projector.ts`, applied to state held in
 * Maps and written to the scratch schema in bulk, instead of 2-4 statements per event.
 *
 * - Transactions fold with the domain's own `evolve`, from the same snapshot the SQL projector reads
 *   back (the row's columns, `echo` {} and an empty fingerprint), so the written columns are the same.
 * - Configuration records and settings are not re-implemented: the SQL projector itself is run
 *   against a capturing executor and its one upsert per event is kept (last write wins per key).
 * - Balances and the daily issued volume are deltas, flushed as additive upserts (the projector's own
 *   `on conflict … + excluded` arithmetic, once per key instead of once per event).
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

interface TransactionRow {
  transaction_id: string;
  number: Text;
  type: string;
  state: string;
  merchant_id: Text;
  provider_id: Text;
  infrastructure_id: Text;
  form: Text;
  external_id: Text;
  amount_kurus: string;
  original_amount_kurus: Text;
  fee_kurus: string;
  customer: Text;
  bank_account_id: Text;
  iban: Text;
  payment_token: Text;
  expires_at: Text;
  assignee: Text;
  reason: Text;
  version: number;
  created_at: string;
  updated_at: string;
  /** The business day (UTC+3) the deposit's volume counts for, as the projector computes it. */
  issueDay: string;
  /** Inserted in memory (INSERT at flush) or loaded from the scratch schema (UPDATE at flush). */
  loaded: boolean;
}

interface TransferRow {
  transfer_id: string;
  transaction_id: string;
  merchant_id: string;
  debit_account: string;
  credit_account: string;
  amount_kurus: string;
  state: 'pending' | 'posted' | 'voided';
  created_at: string;
  updated_at: string;
  loaded: boolean;
}

interface BalanceDelta {
  debits_pending_kurus: bigint;
  debits_posted_kurus: bigint;
  credits_pending_kurus: bigint;
  credits_posted_kurus: bigint;
}

/** What one flush writes. */
interface Held {
  transactions: Map<string, TransactionRow>;
  transfers: Map<string, TransferRow>;
  balances: Map<string, BalanceDelta>;
  daily: Map<string, bigint>;
  records: Map<string, RecordUpsert>;
}

/** One captured upsert of the SQL projector: `insert into <table> (<columns>) … on conflict (<key>)`. */
interface RecordUpsert {
  table: string;
  keyColumn: string;
  columns: string[];
  values: Text[];
}

const UPSERT = /^\s*insert into (\w+) \(([\w, ]+)\) values \([$\d, ]+\)\s+on conflict \((\w+)\) do update set /;
const FINAL_VOLUME_STATES = ['rejected', 'expired'];
/** Ledger events that end a transaction's pending transfers (settlePending). */
const SETTLING_TYPES = new Set(['ReservationChanged', 'ReservationPosted', 'ReservationVoided']);
const TRANSACTION_COLUMNS = [
  'transaction_id',
  'number',
  'type',
  'state',
  'merchant_id',
  'provider_id',
  'infrastructure_id',
  'form',
  'external_id',
  'amount_kurus',
  'original_amount_kurus',
  'fee_kurus',
  'customer',
  'bank_account_id',
  'iban',
  'payment_token',
  'expires_at',
  'version',
  'created_at',
  'updated_at',
] as const;
const TRANSACTION_MUTABLE = ['state', 'amount_kurus', 'fee_kurus', 'assignee', 'reason', 'version', 'updated_at'];
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
const BALANCE_COLUMNS = [
  'debits_pending_kurus',
  'debits_posted_kurus',
  'credits_pending_kurus',
  'credits_posted_kurus',
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

/** Days by UTC hour (`2026-11-21T07`): the day only depends on the hour, and parsing dates is costly. */
const issueDays = new Map<string, string>();
const MAX_CACHED_HOURS = 100_000;

/** `at time zone 'UTC' + 3 hours ::date` of the projector, for a UTC ISO time. */
function issueDayOf(createdAt: string): string {
  const hour = createdAt.slice(0, 13);
  const cached = issueDays.get(hour);
  if (cached !== undefined && createdAt.endsWith('Z')) return cached;
  const ms = Date.parse(createdAt);
  if (!Number.isFinite(ms)) throw new Error(`memory projection: unparsable time ${createdAt}`);
  const day = new Date(ms + 3 * 3600_000).toISOString().slice(0, 10);
  if (!createdAt.endsWith('Z')) return day;
  if (issueDays.size >= MAX_CACHED_HOURS) issueDays.clear();
  issueDays.set(hour, day);
  return day;
}

/** Records the statements the SQL projector would run for one event, answering no rows. */
class CapturingExecutor implements SqlExecutor {
  readonly statements: Array<{ sql: string; params: readonly unknown[] }> = [];
  query<Row>(sql: string, params: readonly unknown[] = []): Promise<{ rows: Row[] }> {
    this.statements.push({ sql, params });
    return Promise.resolve({ rows: [] });
  }
}

export class MemoryProjection {
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
      // Only a captured record projection is asynchronous: the common events cost no promise.
      const pending = this.apply(event);
      if (pending) await pending;
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
      if (!isFinal(row.state as TransactionState)) continue;
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

  private apply(event: RecordedEvent): Promise<void> | undefined {
    if (event.streamId.startsWith('txn-')) {
      this.applyTransaction(event);
      return undefined;
    }
    const reconciliation = reconciliationRow(event);
    if (reconciliation) {
      // The projector's own row (reconciliation/read-model/projection.ts), kept like a captured upsert.
      const row = rowColumns(reconciliation, event.createdAt);
      const upsert = {
        table: reconciliation.table,
        keyColumn: reconciliation.keyColumn,
        columns: Object.keys(row),
        values: Object.values(row).map(asText),
      };
      const key = `${upsert.table}\u0000${upsert.values[0]}`;
      this.records.delete(key);
      this.records.set(key, upsert);
      return undefined;
    }
    switch (event.type) {
      case 'TransfersPosted':
        this.addTransfers(event, 'posted', EVENT_CATALOG.TransfersPosted.schema.parse(event.data));
        return undefined;
      case 'TransfersReserved':
        this.addTransfers(event, 'pending', EVENT_CATALOG.TransfersReserved.schema.parse(event.data));
        return undefined;
      case 'ReservationChanged': {
        const d = EVENT_CATALOG.ReservationChanged.schema.parse(event.data);
        this.settlePending(event, d.transactionId, 'voided');
        this.addTransfers(event, 'pending', d);
        return undefined;
      }
      case 'ReservationPosted':
        this.settlePending(event, EVENT_CATALOG.ReservationPosted.schema.parse(event.data).transactionId, 'posted');
        return undefined;
      case 'ReservationVoided':
        this.settlePending(event, EVENT_CATALOG.ReservationVoided.schema.parse(event.data).transactionId, 'voided');
        return undefined;
      default:
        return this.captureRecord(event);
    }
  }

  /** Configuration records and settings: whatever upsert the SQL projector issues, kept per key. */
  private async captureRecord(event: RecordedEvent): Promise<void> {
    const capture = new CapturingExecutor();
    await projectEvents(capture, [event]);
    for (const { sql, params } of capture.statements) {
      const m = UPSERT.exec(sql);
      if (!m) {
        throw new Error(`memory projection: ${event.type} needs a statement it does not know; use --projector sql`);
      }
      const columns = m[2]!.split(',').map((c) => c.trim());
      if (columns.length !== params.length || columns[0] !== m[3]) {
        throw new Error(`memory projection: unexpected upsert shape for ${event.type}`);
      }
      const upsert = { table: m[1]!, keyColumn: m[3]!, columns, values: params.map(asText) };
      const key = `${upsert.table}\u0000${upsert.values[0]}`;
      // Map order is insertion order: delete first so the newest write is also the last.
      this.records.delete(key);
      this.records.set(key, upsert);
    }
  }

  private applyTransaction(event: RecordedEvent): void {
    const transactionId = event.streamId.slice('txn-'.length).toLowerCase();
    let current: TransactionAggregate | undefined;
    let row: TransactionRow | undefined;
    if (event.streamVersion > 1) {
      row = this.transactions.get(transactionId);
      if (!row) throw new Error(`projection: ${event.type} for unknown transaction ${transactionId}`);
      current = snapshotOf(row);
    }
    const next = evolve(current, event).view;
    if (event.streamVersion === 1) {
      const id = next.transactionId.toLowerCase();
      if (this.transactions.has(id)) throw new Error(`memory projection: transaction ${id} requested twice`);
      const created: TransactionRow = {
        transaction_id: id,
        number: asText(next.number),
        type: next.type,
        state: next.state,
        merchant_id: next.merchantId,
        provider_id: next.providerId,
        infrastructure_id: next.infrastructureId,
        form: next.form,
        external_id: next.externalId,
        amount_kurus: next.amountKurus,
        original_amount_kurus: next.amountKurus,
        fee_kurus: next.feeKurus,
        customer: JSON.stringify(next.customer),
        bank_account_id: next.bankAccount?.bankAccountId ?? null,
        iban: next.iban ?? null,
        payment_token: next.paymentToken ?? null,
        expires_at: next.expiresAt ?? null,
        assignee: null,
        reason: null,
        version: event.streamVersion,
        created_at: event.createdAt,
        updated_at: event.createdAt,
        issueDay: issueDayOf(event.createdAt),
        loaded: false,
      };
      this.transactions.set(id, created);
      if (next.type === 'deposit' && next.bankAccount) {
        this.addDailyIssued(next.bankAccount.bankAccountId, created.issueDay, BigInt(next.amountKurus));
      }
      return;
    }
    if (row!.type === 'deposit') {
      // Daily volume per receiving account: what is still expected; rejected/expired deposits give it back.
      const before = FINAL_VOLUME_STATES.includes(row!.state) ? 0n : BigInt(row!.amount_kurus);
      const after = FINAL_VOLUME_STATES.includes(next.state) ? 0n : BigInt(next.amountKurus);
      if (before !== after) this.addDailyIssued(row!.bank_account_id, row!.issueDay, after - before);
    }
    row!.state = next.state;
    row!.amount_kurus = next.amountKurus;
    row!.fee_kurus = next.feeKurus;
    row!.assignee = next.assignee ?? null;
    row!.reason = next.reason ?? null;
    row!.version = event.streamVersion;
    row!.updated_at = event.createdAt;
  }

  private addTransfers(
    event: RecordedEvent,
    state: 'pending' | 'posted',
    data: { transactionId: string; merchantId: string; transfers: Transfer[] },
  ): void {
    const transactionId = data.transactionId.toLowerCase();
    for (const t of data.transfers) {
      if (this.transfers.has(t.transferId)) throw new Error(`memory projection: transfer ${t.transferId} twice`);
      this.transfers.set(t.transferId, {
        transfer_id: t.transferId,
        transaction_id: transactionId,
        merchant_id: data.merchantId,
        debit_account: t.debitAccount,
        credit_account: t.creditAccount,
        amount_kurus: t.amountKurus,
        state,
        created_at: event.createdAt,
        updated_at: event.createdAt,
        loaded: false,
      });
      const ids = this.transfersOf.get(transactionId);
      if (ids) ids.push(t.transferId);
      else this.transfersOf.set(transactionId, [t.transferId]);
      const amount = BigInt(t.amountKurus);
      this.addToBalance(t.debitAccount, state === 'posted' ? 'debits_posted_kurus' : 'debits_pending_kurus', amount);
      this.addToBalance(t.creditAccount, state === 'posted' ? 'credits_posted_kurus' : 'credits_pending_kurus', amount);
    }
  }

  private settlePending(event: RecordedEvent, transactionIdText: string, state: 'posted' | 'voided'): void {
    const transactionId = transactionIdText.toLowerCase();
    for (const id of this.transfersOf.get(transactionId) ?? []) {
      const row = this.transfers.get(id)!;
      if (row.state !== 'pending') continue;
      row.state = state;
      row.updated_at = event.createdAt;
      const amount = BigInt(row.amount_kurus);
      this.addToBalance(row.debit_account, 'debits_pending_kurus', -amount);
      this.addToBalance(row.credit_account, 'credits_pending_kurus', -amount);
      if (state === 'posted') {
        this.addToBalance(row.debit_account, 'debits_posted_kurus', amount);
        this.addToBalance(row.credit_account, 'credits_posted_kurus', amount);
      }
    }
  }

  private addDailyIssued(bankAccountId: string | null, day: string, deltaKurus: bigint): void {
    // The projector's insert fails on a null account (the column is not null): so does this.
    if (bankAccountId === null) throw new Error('projection: daily volume of a deposit without bank account');
    const key = `${bankAccountId}\u0000${day}`;
    this.daily.set(key, (this.daily.get(key) ?? 0n) + deltaKurus);
  }

  private addToBalance(account: string, column: keyof BalanceDelta, amountKurus: bigint): void {
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
      } else if (SETTLING_TYPES.has(row.type)) {
        const data = row.data as { transactionId?: unknown };
        const id = String(data.transactionId ?? '').toLowerCase();
        const written = this.pendingWritten === 'unknown' || this.pendingWritten.has(id);
        if (id && written && !this.pendingLoaded.has(id)) settled.add(id);
      }
    }
    if (transactionIds.size === 0 && settled.size === 0) return;
    await this.writing;
    await inScratch((tx) => this.load(tx, transactionIds, settled));
  }

  private async load(tx: SqlExecutor, transactionIds: Set<string>, settled: Set<string>): Promise<void> {
    await this.beforeLoadBack?.(tx);
    if (transactionIds.size > 0) {
      const { rows } = await tx.query<Omit<TransactionRow, 'loaded'>>(
        `select transaction_id::text, number::text, type, state, merchant_id, provider_id, infrastructure_id, form,
                external_id, amount_kurus::text, original_amount_kurus::text, fee_kurus::text, customer::text, bank_account_id,
                iban, payment_token, expires_at::text, assignee, reason, version, created_at::text, updated_at::text,
                ((created_at at time zone 'UTC') + interval '3 hours')::date::text as "issueDay"
         from rm_transactions where transaction_id in (select value::uuid from json_array_elements_text($1::json))`,
        [JSON.stringify([...transactionIds])],
      );
      for (const row of rows) this.transactions.set(row.transaction_id, { ...row, loaded: true });
      this.rowsLoadedBack += rows.length;
    }
    if (settled.size > 0) {
      const { rows } = await tx.query<Omit<TransferRow, 'loaded'>>(
        `select transfer_id, transaction_id::text, merchant_id, debit_account, credit_account, amount_kurus::text, state,
                created_at::text, updated_at::text
         from rm_transfers
         where state = 'pending' and transaction_id in (select value::uuid from json_array_elements_text($1::json))`,
        [JSON.stringify([...settled])],
      );
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
      [...TRANSACTION_COLUMNS, 'assignee', 'reason'],
      txns.filter((r) => !r.loaded),
    );
    await updateRows(
      tx,
      types,
      'rm_transactions',
      'transaction_id',
      TRANSACTION_MUTABLE,
      txns.filter((r) => r.loaded),
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

/** The view the SQL projector reads back before a later event (projector.ts, `jsonb_build_object`). */
function snapshotOf(row: TransactionRow): TransactionAggregate {
  const view = {
    transactionId: row.transaction_id,
    number: Number(row.number),
    type: row.type,
    state: row.state,
    merchantId: row.merchant_id,
    providerId: row.provider_id,
    infrastructureId: row.infrastructure_id,
    form: row.form,
    externalId: row.external_id,
    amountKurus: row.amount_kurus,
    originalAmountKurus: row.original_amount_kurus,
    feeKurus: row.fee_kurus,
    // Kept as text: the fold copies it along and never reads it, nor is it written back.
    customer: row.customer,
    assignee: row.assignee,
    reason: row.reason,
    echo: {},
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  } as unknown as TransactionView;
  return { version: row.version, requestFingerprint: '', view };
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
       'rm_reconciliation_settings']) as name)
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
