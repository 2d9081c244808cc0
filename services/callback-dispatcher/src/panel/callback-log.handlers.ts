import { Inject } from '@nestjs/common';
import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  DomainError,
  FindCallbackDeliveryQuery,
  ListCallbackDeliveriesQuery,
  ResendCallbackCommand,
  type CallbackAttemptOutcome,
  type CallbackDeliveryState,
  type PanelCallbackAttempt,
  type PanelCallbackDelivery,
  type PanelCallbackDetail,
  type PanelCallbackPage,
} from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase, type SqlExecutor } from '@transfergate/event-store';
import { CallbackDispatcherRunner } from '../callback-dispatcher.runner.js';

/** The callback log for the panel: reads and the manual resend, on the dispatcher's own tables. */

const UTC = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const DELIVERY_COLUMNS = `delivery_id::text as id, transaction_id::text, transaction_number::text, external_id, type,
  outcome, provider_id, infrastructure_id, format, target_url, state, attempt_count,
  case when state = 'pending' then ${UTC('greatest(due_at, coalesce(lease_until, due_at))')} end as next_attempt_at,
  ${UTC('last_attempt_at')} as last_attempt_at, last_status_code, last_error, ${UTC('delivered_at')} as delivered_at,
  ${UTC('created_at')} as created_at, ${UTC('updated_at')} as updated_at,
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at_exact`;

interface DeliveryRow {
  id: string;
  transaction_id: string;
  transaction_number: string;
  external_id: string;
  type: 'deposit' | 'withdrawal';
  outcome: 'approved' | 'rejected';
  provider_id: string;
  infrastructure_id: string;
  format: PanelCallbackDelivery['format'];
  target_url: string;
  state: CallbackDeliveryState;
  attempt_count: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  created_at_exact: string;
}

function toDelivery(row: DeliveryRow): PanelCallbackDelivery {
  return {
    id: row.id,
    webhookId: row.id,
    transactionId: row.transaction_id,
    transactionNumber: Number(row.transaction_number),
    externalId: row.external_id,
    type: row.type,
    outcome: row.outcome,
    providerId: row.provider_id,
    infrastructureId: row.infrastructure_id,
    format: row.format,
    targetUrl: row.target_url,
    state: row.state,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A delivery id or transaction UUID (lower case), or a transaction number: the matching row's where clause. */
function refCondition(ref: string): { sql: string; param: string } | undefined {
  if (UUID.test(ref)) return { sql: '(delivery_id = $1::uuid or transaction_id = $1::uuid)', param: ref };
  if (/^[1-9]\d{0,14}$/.test(ref)) return { sql: 'transaction_number = $1::bigint', param: ref };
  return undefined;
}

function encodeCursor(row: DeliveryRow): string {
  return Buffer.from(`${row.created_at_exact}|${row.id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (
    extra !== undefined ||
    !createdAt ||
    !id ||
    !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(createdAt) ||
    !UUID.test(id)
  ) {
    throw new DomainError('validation_failed', 'invalid request: cursor is not a cursor from this list', {
      fields: [{ field: 'cursor', problem: 'not a cursor from this list' }],
    });
  }
  return { createdAt, id };
}

async function findDetail(db: SqlExecutor, ref: string): Promise<PanelCallbackDetail | null> {
  const condition = refCondition(ref);
  if (!condition) return null;
  const { rows } = await db.query<DeliveryRow & { body: string }>(
    `select ${DELIVERY_COLUMNS}, body from cb_deliveries where ${condition.sql} order by created_at limit 1`,
    [condition.param],
  );
  const row = rows[0];
  if (!row) return null;
  const attempts = await db.query<{
    attempt_no: number;
    trigger: 'automatic' | 'manual';
    requested_by: string | null;
    started_at: string;
    latency_ms: number | null;
    status_code: number | null;
    outcome: CallbackAttemptOutcome;
    error: string | null;
    response_excerpt: string | null;
    retry_after_ms: number | null;
    next_due_at: string | null;
  }>(
    `select attempt_no, trigger, requested_by, ${UTC('started_at')} as started_at, latency_ms, status_code, outcome, error,
       response_excerpt, retry_after_ms, ${UTC('next_due_at')} as next_due_at
     from cb_attempts where delivery_id = $1::uuid order by attempt_no`,
    [row.id],
  );
  let body: unknown;
  try {
    body = row.body ? JSON.parse(row.body) : null;
  } catch {
    body = row.body;
  }
  return {
    ...toDelivery(row),
    body,
    attempts: attempts.rows.map((a): PanelCallbackAttempt => ({
      number: a.attempt_no,
      trigger: a.trigger,
      requestedBy: a.requested_by,
      startedAt: a.started_at,
      latencyMs: a.latency_ms,
      statusCode: a.status_code,
      outcome: a.outcome,
      error: a.error,
      responseExcerpt: a.response_excerpt,
      retryAfterMs: a.retry_after_ms,
      nextAttemptAt: a.next_due_at,
    })),
  };
}

@QueryHandler(ListCallbackDeliveriesQuery)
export class ListCallbackDeliveriesHandler implements IQueryHandler<ListCallbackDeliveriesQuery, PanelCallbackPage> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ filters }: ListCallbackDeliveriesQuery): Promise<PanelCallbackPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filters.state?.length) where.push(`state in (${filters.state.map((s) => param(s)).join(', ')})`);
    if (filters.type) where.push(`type = ${param(filters.type)}`);
    if (filters.providerIds) {
      // No provider: nothing (an empty list must not mean "every provider").
      where.push(
        filters.providerIds.length === 0
          ? 'false'
          : `provider_id in (select jsonb_array_elements_text(${param(JSON.stringify(filters.providerIds))}::jsonb))`,
      );
    }
    if (filters.createdFrom) where.push(`created_at >= ${param(filters.createdFrom)}::timestamptz`);
    if (filters.createdTo) where.push(`created_at < ${param(filters.createdTo)}::timestamptz`);
    if (filters.transactionId) {
      const ref = filters.transactionId.trim();
      const alternatives = [`external_id = ${param(ref)}`];
      if (UUID.test(ref.toLowerCase())) alternatives.push(`transaction_id = ${param(ref.toLowerCase())}::uuid`);
      if (/^[1-9]\d{0,14}$/.test(ref)) alternatives.push(`transaction_number = ${param(ref)}::bigint`);
      where.push(`(${alternatives.join(' or ')})`);
    }
    if (filters.cursor) {
      const cursor = decodeCursor(filters.cursor);
      where.push(`(created_at, delivery_id) < (${param(cursor.createdAt)}::timestamptz, ${param(cursor.id)}::uuid)`);
    }
    const limit = param(filters.limit + 1);
    const { rows } = await this.db.query<DeliveryRow>(
      `select ${DELIVERY_COLUMNS} from cb_deliveries ${where.length ? `where ${where.join(' and ')}` : ''}
       order by created_at desc, delivery_id desc limit ${limit}`,
      params,
    );
    const page = rows.slice(0, filters.limit);
    return {
      items: page.map(toDelivery),
      nextCursor: rows.length > filters.limit ? encodeCursor(page[page.length - 1]!) : null,
    };
  }
}

@QueryHandler(FindCallbackDeliveryQuery)
export class FindCallbackDeliveryHandler implements IQueryHandler<
  FindCallbackDeliveryQuery,
  PanelCallbackDetail | null
> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  execute({ ref }: FindCallbackDeliveryQuery): Promise<PanelCallbackDetail | null> {
    return findDetail(this.db, ref);
  }
}

/**
 * Manual resend: a delivery nobody holds becomes pending, due now, its retry schedule started
 * again and its next attempt marked manual; a delivery in flight gets the resend queued, applied
 * when that attempt is recorded (so the attempt in flight cannot overwrite it).
 */
@CommandHandler(ResendCallbackCommand)
export class ResendCallbackHandler implements ICommandHandler<ResendCallbackCommand, PanelCallbackDetail> {
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    private readonly runner: CallbackDispatcherRunner,
  ) {}

  async execute({ input }: ResendCallbackCommand): Promise<PanelCallbackDetail> {
    const found = await findDetail(this.db, input.ref);
    if (!found) throw new DomainError('not_found', `no callback ${input.ref}`);
    if (!found.targetUrl || found.body === null) {
      throw new DomainError(
        'invalid_state_transition',
        `this callback cannot be sent: ${found.lastError ?? 'it has no body or target'}`,
      );
    }
    const requestedBy = input.actor.operatorId ?? input.actor.source;
    await this.db.query(
      `update cb_deliveries set
         resend_requested = coalesce(lease_until > now(), false),
         resend_requested_by = case when lease_until > now() then $2::text end,
         state = case when lease_until > now() then state else 'pending' end,
         due_at = case when lease_until > now() then due_at else now() end,
         round_attempts = case when lease_until > now() then round_attempts else 0 end,
         next_trigger = case when lease_until > now() then next_trigger else 'manual' end,
         next_requested_by = case when lease_until > now() then next_requested_by else $2::text end,
         lease_owner = case when lease_until > now() then lease_owner end,
         lease_until = case when lease_until > now() then lease_until end,
         updated_at = now()
       where delivery_id = $1::uuid`,
      [found.id, requestedBy],
    );
    this.runner.wake();
    return (await findDetail(this.db, found.id))!;
  }
}

export const CALLBACK_LOG_HANDLERS = [
  ListCallbackDeliveriesHandler,
  FindCallbackDeliveryHandler,
  ResendCallbackHandler,
];
