import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  EVENT_CATALOG,
  FindPanelProviderQuery,
  FindPanelTransactionQuery,
  ListPanelTransactionsQuery,
  ListPendingAmountChangesQuery,
  MAX_PENDING_AMOUNT_CHANGES_LISTED,
  STREAMS,
  type TransactionView,
  type CustomerRef,
  type PanelPaidByLine,
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
import { decodeSortedCursor, encodeSortedCursor, listOrder } from './transaction-list-order.js';
import { FEE_WITHHELD, searchCondition } from './transaction-search.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NUMBER = /^[1-9]\d{0,14}$/;
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
  sort_key: string | null;
  bank_account: { bankAccountId: string; bank: string; holderName: string; iban: string; fast: boolean } | null;
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
    ...(row.bank_account
      ? {
          bankAccount: {
            bankAccountId: row.bank_account.bankAccountId,
            bank: row.bank_account.bank,
            holderName: row.bank_account.holderName,
            iban: row.bank_account.iban,
            fast: row.bank_account.fast,
          },
        }
      : {}),
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
    if (filters.type) where.push(`t.type = ${param(filters.type)}`);
    if (filters.state?.length) where.push(`t.state in (${filters.state.map((s) => param(s)).join(', ')})`);
    if (filters.merchantId) where.push(`t.merchant_id = ${param(filters.merchantId)}`);
    if (filters.providerId) where.push(`t.provider_id = ${param(filters.providerId)}`);
    if (filters.createdFrom) where.push(`t.created_at >= ${param(filters.createdFrom)}::timestamptz`);
    if (filters.createdUntil) where.push(`t.created_at <= ${param(filters.createdUntil)}::timestamptz`);
    if (filters.createdBefore) where.push(`t.created_at < ${param(filters.createdBefore)}::timestamptz`);
    if (filters.bankAccountId) where.push(`t.bank_account_id = ${param(filters.bankAccountId)}`);
    if (filters.amountMinKurus !== undefined)
      where.push(`t.amount_kurus >= ${param(filters.amountMinKurus.toString())}::bigint`);
    if (filters.amountMaxKurus !== undefined)
      where.push(`t.amount_kurus <= ${param(filters.amountMaxKurus.toString())}::bigint`);
    if (filters.q) where.push(searchCondition(filters.q, param));
    const order = listOrder(filters.sort ?? 'createdAt', filters.order ?? 'desc');
    if (filters.cursor) {
      const [key, time, id] = decodeSortedCursor(filters.cursor, order.sort);
      const tie = `(t.created_at, t.transaction_id) < (${param(time)}::timestamptz, ${param(id)}::uuid)`;
      if (order.key === null) where.push(tie);
      else {
        const k = param(key);
        where.push(
          `(${order.key} ${order.direction === 'asc' ? '>' : '<'} ${k}::bigint or (${order.key} = ${k}::bigint and ${tie}))`,
        );
      }
    }
    const limit = Math.min(Math.max(Math.trunc(filters.limit), 1), 200);
    const { rows } = await this.db.query<ListRow>(
      `select t.transaction_id::text id, t.number::text, t.type, t.state, t.merchant_id, t.provider_id,
         t.infrastructure_id, t.form, t.external_id, t.amount_kurus::text, t.original_amount_kurus::text,
         ${FEE_WITHHELD} fee_kurus, t.customer, t.bank_account_id, t.iban,
         ba.record bank_account,
         to_char(t.expires_at at time zone 'UTC', ${ISO_MS}) expires_at, t.assignee, t.reason,
         to_char(t.created_at at time zone 'UTC', ${ISO_MS}) created_at,
         to_char(t.updated_at at time zone 'UTC', ${ISO_MS}) updated_at,
         to_char(t.created_at at time zone 'UTC', ${ISO_US}) cursor_time,
         ${order.key ?? 'null'}::text sort_key
       from rm_transactions t
       left join rm_bank_accounts ba on ba.bank_account_id = t.bank_account_id
       ${where.length ? `where ${where.join(' and ')}` : ''}
       order by ${order.key === null ? '' : `${order.key} ${order.direction}, `}t.created_at desc, t.transaction_id desc
       limit ${param(limit + 1)}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(recordOf),
      nextCursor: rows.length > limit && last ? encodeSortedCursor(order.sort, last) : null,
    };
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
    const view =
      aggregate.view.type === 'deposit'
        ? { ...aggregate.view, feeKurus: await this.commissionWithheld(transactionId) }
        : aggregate.view;
    if (!withHistory) return { view };
    const paidBy = await this.paidBy(transactionId);
    return { view, history: await this.withActorNames(events.map(historyOf)), ...(paidBy ? { paidBy } : {}) };
  }

  /** The statement line matched to the transaction (at most one: the match claims the transaction). */
  private async paidBy(transactionId: string): Promise<PanelPaidByLine | undefined> {
    const { rows } = await this.db.query<{
      line_id: string;
      bank_account_id: string;
      reference: string | null;
      amount: string;
      booked_on: string;
    }>(
      `select l.line_id::text, l.bank_account_id, l.record->>'bankReference' as reference,
              l.amount_kurus::text as amount, to_char(l.booked_on, 'YYYY-MM-DD') as booked_on
       from rm_statement_line_status s join rm_statement_lines l on l.line_id = s.line_id
       where s.transaction_id = $1::uuid and s.state = 'matched' limit 1`,
      [transactionId],
    );
    const row = rows[0];
    return row
      ? {
          lineId: row.line_id,
          bankAccountId: row.bank_account_id,
          bankReference: row.reference,
          amountKurus: row.amount,
          bookedOn: row.booked_on,
        }
      : undefined;
  }

  /** Operator usernames next to their ids (an operator renamed later shows the current name). */
  private async withActorNames(history: PanelTransactionHistoryEvent[]): Promise<PanelTransactionHistoryEvent[]> {
    const ids = [...new Set(history.map((event) => event.metadata.actor).filter((id): id is string => Boolean(id)))];
    if (ids.length === 0) return history;
    const { rows } = await this.db.query<{ operator_id: string; username: string }>(
      `select operator_id, username from rm_operators where operator_id in (select jsonb_array_elements_text($1::jsonb))`,
      [JSON.stringify(ids)],
    );
    const names = new Map(rows.map((row) => [row.operator_id, row.username]));
    return history.map((event) => {
      const name = event.metadata.actor ? names.get(event.metadata.actor) : undefined;
      return name ? { ...event, metadata: { ...event.metadata, actorName: name } } : event;
    });
  }

  /** A deposit's fee is the commission posted to fee revenue on approval (0 before). */
  private async commissionWithheld(transactionId: string): Promise<string> {
    const { rows } = await this.db.query<{ kurus: string }>(
      `select coalesce(sum(amount_kurus), 0)::text kurus from rm_transfers
       where transaction_id = $1::uuid and credit_account = 'fees' and state = 'posted'`,
      [transactionId],
    );
    return rows[0]?.kurus ?? '0';
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
/**
 * The transactions whose amount change waits for a second operator, oldest request first: the
 * requests' read model names them, each transaction's stream says whether its change still waits
 * (a transaction that became final meanwhile drops out).
 */
@QueryHandler(ListPendingAmountChangesQuery)
export class ListPendingAmountChangesHandler implements IQueryHandler<
  ListPendingAmountChangesQuery,
  TransactionView[]
> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  async execute({ limit }: ListPendingAmountChangesQuery): Promise<TransactionView[]> {
    const bounded = Math.max(1, Math.min(limit, MAX_PENDING_AMOUNT_CHANGES_LISTED));
    const { rows } = await this.db.query<{ id: string }>(
      `select r.transaction_id::text as id from rm_amount_change_requests r
       join rm_transactions t on t.transaction_id = r.transaction_id and t.state not in ('approved', 'rejected')
       where r.state = 'pending' order by r.updated_at limit $1`,
      [bounded],
    );
    const views: TransactionView[] = [];
    for (const { id } of rows) {
      const aggregate = foldTransaction(await this.store.readStream(STREAMS.transaction(id)));
      if (aggregate?.view.pendingAmountChange) views.push(aggregate.view);
    }
    return views;
  }
}

export const PANEL_TRANSACTION_QUERY_HANDLERS = [
  ListPendingAmountChangesHandler,
  ListPanelTransactionsHandler,
  FindPanelTransactionHandler,
  FindPanelProviderHandler,
];
