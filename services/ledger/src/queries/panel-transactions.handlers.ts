import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  EVENT_CATALOG,
  FindPanelProviderQuery,
  FindPanelTransactionQuery,
  ListPanelTransactionsQuery,
  STREAMS,
  type CustomerRef,
  type PanelProviderRef,
  type PanelTransactionFound,
  type PanelTransactionHistoryEvent,
  type PanelTransactionPage,
  type PanelTransactionRecord,
  type TransactionState,
} from '@transfergate/contracts';
import {
  EVENT_STORE,
  SQL_DATABASE,
  type PostgresEventStore,
  type RecordedEvent,
  type SqlDatabase,
} from '@transfergate/event-store';
import { foldTransaction } from '../domain/transaction.js';
import { decodeListCursor, encodeListCursor } from '../read-models/transaction-read-model.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NUMBER = /^[1-9]\d{0,14}$/;
/** Microsecond UTC text: the cursor must keep created_at exactly, or a page boundary could skip rows. */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const ISO_US = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

interface ListRow {
  id: string;
  number: string;
  type: 'deposit' | 'withdrawal';
  state: TransactionState;
  merchant_id: string;
  provider_id: string;
  infrastructure_id: string;
  form: PanelTransactionRecord['form'];
  external_id: string;
  amount_kurus: string;
  original_amount_kurus: string;
  fee_kurus: string;
  customer: CustomerRef;
  bank_account_id: string | null;
  iban: string | null;
  expires_at: string | null;
  assignee: string | null;
  reason: string | null;
  created_at: string;
  updated_at: string;
  cursor_time: string;
}

/** `%text%` for ILIKE … ESCAPE '\': the operator's text is matched literally, never as a pattern. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function encodeCursor(row: ListRow): string {
  return encodeListCursor(row.cursor_time, row.id);
}

function recordOf(row: ListRow): PanelTransactionRecord {
  return {
    transactionId: row.id,
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
    customer: row.customer,
    ...(row.bank_account_id ? { bankAccountId: row.bank_account_id } : {}),
    ...(row.iban ? { iban: row.iban } : {}),
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
    ...(row.assignee ? { assignee: row.assignee } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The panel's transaction list from the read model: filters, text search, newest first, keyset
 * pagination on (created_at, transaction_id) so every row appears on exactly one page however
 * many share a timestamp. What the projection has not applied yet (milliseconds) is not listed.
 */
@QueryHandler(ListPanelTransactionsQuery)
export class ListPanelTransactionsHandler implements IQueryHandler<ListPanelTransactionsQuery, PanelTransactionPage> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ filters }: ListPanelTransactionsQuery): Promise<PanelTransactionPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filters.type) where.push(`type = ${param(filters.type)}`);
    if (filters.state?.length) where.push(`state in (${filters.state.map((s) => param(s)).join(', ')})`);
    if (filters.merchantId) where.push(`merchant_id = ${param(filters.merchantId)}`);
    if (filters.providerId) where.push(`provider_id = ${param(filters.providerId)}`);
    if (filters.createdFrom) where.push(`created_at >= ${param(filters.createdFrom)}::timestamptz`);
    if (filters.createdUntil) where.push(`created_at <= ${param(filters.createdUntil)}::timestamptz`);
    if (filters.createdBefore) where.push(`created_at < ${param(filters.createdBefore)}::timestamptz`);
    if (filters.q) {
      const text = param(containsPattern(filters.q));
      const compact = param(containsPattern(filters.q.replace(/\s+/g, '')));
      const alternatives = [
        `external_id ilike ${text} escape '\\'`,
        `customer->>'fullName' ilike ${text} escape '\\'`,
        `customer->>'username' ilike ${text} escape '\\'`,
        `iban ilike ${compact} escape '\\'`,
      ];
      if (NUMBER.test(filters.q)) alternatives.push(`number = ${param(filters.q)}::bigint`);
      where.push(`(${alternatives.join(' or ')})`);
    }
    if (filters.cursor) {
      const [time, id] = decodeListCursor(filters.cursor, CURSOR_TIME);
      where.push(`(created_at, transaction_id) < (${param(time)}::timestamptz, ${param(id)}::uuid)`);
    }
    const limit = Math.min(Math.max(Math.trunc(filters.limit), 1), 200);
    const { rows } = await this.db.query<ListRow>(
      `select transaction_id::text id, number::text, type, state, merchant_id, provider_id, infrastructure_id, form,
         external_id, amount_kurus::text, original_amount_kurus::text, fee_kurus::text, customer, bank_account_id, iban,
         to_char(expires_at at time zone 'UTC', ${ISO_MS}) expires_at, assignee, reason,
         to_char(created_at at time zone 'UTC', ${ISO_MS}) created_at,
         to_char(updated_at at time zone 'UTC', ${ISO_MS}) updated_at,
         to_char(created_at at time zone 'UTC', ${ISO_US}) cursor_time
       from rm_transactions
       ${where.length ? `where ${where.join(' and ')}` : ''}
       order by created_at desc, transaction_id desc
       limit ${param(limit + 1)}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(recordOf), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
  }
}

function historyOf(event: RecordedEvent): PanelTransactionHistoryEvent {
  const meta = event.metadata ?? {};
  const text = (key: string) => (typeof meta[key] === 'string' ? { [key]: meta[key] as string } : {});
  return {
    type: event.type,
    version: event.streamVersion,
    schemaVersion: event.schemaVersion,
    data: (event.data ?? {}) as Record<string, unknown>,
    metadata: { ...text('actor'), ...text('source'), ...text('ip') },
    createdAt: event.createdAt,
  };
}

/**
 * Any transaction for the panel, by UUID (its stream, no projection lag) or integer number (the read
 * model finds the UUID); with its whole event history when asked.
 */
@QueryHandler(FindPanelTransactionQuery)
export class FindPanelTransactionHandler implements IQueryHandler<
  FindPanelTransactionQuery,
  PanelTransactionFound | null
> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ ref, withHistory }: FindPanelTransactionQuery): Promise<PanelTransactionFound | null> {
    let transactionId: string | undefined;
    if (UUID.test(ref)) transactionId = ref;
    else if (NUMBER.test(ref)) {
      const { rows } = await this.db.query<{ id: string }>(
        'select transaction_id::text id from rm_transactions where number = $1::bigint',
        [ref],
      );
      transactionId = rows[0]?.id;
    }
    if (!transactionId) return null;
    const events = await this.store.readStream(STREAMS.transaction(transactionId));
    const aggregate = foldTransaction(events);
    if (!aggregate) return null;
    return { view: aggregate.view, ...(withHistory ? { history: events.map(historyOf) } : {}) };
  }
}

/** A provider by id or integer number, with what a panel-created transaction needs. */
@QueryHandler(FindPanelProviderQuery)
export class FindPanelProviderHandler implements IQueryHandler<FindPanelProviderQuery, PanelProviderRef | null> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ ref }: FindPanelProviderQuery): Promise<PanelProviderRef | null> {
    const { rows } = await this.db.query<{ record: unknown }>(
      `select record from rm_providers where provider_id = $1 or record->>'number' = $1 order by provider_id = $1 desc limit 1`,
      [ref],
    );
    if (!rows[0]) return null;
    const provider = EVENT_CATALOG.ProviderConfigured.schema.parse(rows[0].record);
    return {
      providerId: provider.providerId,
      number: provider.number,
      name: provider.name,
      merchantId: provider.merchantId,
      infrastructureId: provider.infrastructureId,
      active: provider.active,
    };
  }
}

/** Registered in LedgerModule's providers. */
export const PANEL_TRANSACTION_QUERY_HANDLERS = [
  ListPanelTransactionsHandler,
  FindPanelTransactionHandler,
  FindPanelProviderHandler,
];
