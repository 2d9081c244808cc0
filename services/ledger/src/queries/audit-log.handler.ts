import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { isDeepStrictEqual } from 'node:util';
import {
  AUDIT_COMPANION_TYPES,
  AUDIT_REDACTED,
  AUDIT_SECRET_FIELDS,
  AuditLogQuery,
  DomainError,
  type AuditEntry,
  type AuditPage,
  type EventType,
} from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';

/**
 * The audit log straight from the event store: every event an operator (source `panel`) or the
 * provisioning file (`bootstrap`) caused, and every configuration event whoever wrote it. For a
 * configuration event the previous event of the same stream is the "before" (each carries the
 * whole record). Secret fields are replaced by AUDIT_REDACTED here, before an entry leaves the
 * ledger; `changes` still names a changed secret field (a password change shows as `passwordHash`).
 *
 * Newest first by global position (xid8, seq). A page boundary is a position, so paging never
 * repeats an entry; an event committed later with a position above the cursor appears on a fresh
 * first page, not on the next one.
 */
export const CONFIG_EVENT_TYPES: readonly EventType[] = [
  'InfrastructureConfigured',
  'MerchantConfigured',
  'MerchantDeleted',
  'ProviderConfigured',
  'ProviderDeleted',
  'BankAccountConfigured',
  'OperatorConfigured',
  'RoleConfigured',
  'ApiSettingsConfigured',
];
const AUDITED_SOURCES = ['panel', 'bootstrap'];
const SECRET = new Set(AUDIT_SECRET_FIELDS);

interface AuditRow {
  xid: string;
  seq: string;
  type: string;
  stream_id: string;
  stream_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  created_at: string;
  before_data: unknown;
  username: string | null;
  transaction_number: string | null;
  line_reference: string | null;
  line_amount: string | null;
  line_booked_on: string | null;
  line_file_name: string | null;
}

/** Replaces every secret field (at any depth) by AUDIT_REDACTED. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([key, field]) => [
      key,
      SECRET.has(key) && field !== undefined && field !== null ? AUDIT_REDACTED : redactSecrets(field),
    ]),
  );
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** `2026-05-01` = 00:00 of that Turkish business day (UTC+3); date-times are taken as given. */
function instant(text: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00+03:00` : text;
}

@QueryHandler(AuditLogQuery)
export class AuditLogHandler implements IQueryHandler<AuditLogQuery, AuditPage> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ filters }: AuditLogQuery): Promise<AuditPage> {
    // Lists travel as JSON (the same on pg and PGlite): x in (select jsonb_array_elements_text($n)).
    const params: unknown[] = [JSON.stringify(AUDITED_SOURCES), JSON.stringify(CONFIG_EVENT_TYPES)];
    const where = [
      `(e.metadata->>'source' in (select jsonb_array_elements_text($1::jsonb))
        or e.type in (select jsonb_array_elements_text($2::jsonb)))`,
    ];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filters.operatorId) where.push(`e.metadata->>'actor' = ${param(filters.operatorId)}`);
    if (filters.type)
      where.push(
        `e.type in (select jsonb_array_elements_text(${param(JSON.stringify(filters.type.split(',')))}::jsonb))`,
      );
    else
      where.push(
        `e.type not in (select jsonb_array_elements_text(${param(JSON.stringify(AUDIT_COMPANION_TYPES))}::jsonb))`,
      );
    if (filters.from) where.push(`e.created_at >= ${param(instant(filters.from))}::timestamptz`);
    if (filters.to) where.push(`e.created_at < ${param(instant(filters.to))}::timestamptz`);
    if (filters.cursor) {
      const [xid, seq] = filters.cursor.split(':');
      if (BigInt(xid!) > 2n ** 63n - 1n || BigInt(seq!) > 2n ** 63n - 1n) {
        throw new DomainError('validation_failed', 'invalid request: cursor out of range');
      }
      where.push(`(e.xid, e.seq) < (${param(xid)}::xid8, ${param(seq)}::bigint)`);
    }
    const limit = filters.limit;
    const { rows } = await this.db.query<AuditRow>(
      `select e.xid::text as xid, e.seq::text as seq, e.type, e.stream_id, e.stream_version, e.data, e.metadata,
              to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
              p.data as before_data, o.username, t.number::text as transaction_number,
              l.record->>'bankReference' as line_reference, l.amount_kurus::text as line_amount,
              to_char(l.booked_on, 'YYYY-MM-DD') as line_booked_on, i.record->>'fileName' as line_file_name
       from es_events e
       left join es_events p
         on e.type in (select jsonb_array_elements_text($2::jsonb)) and p.stream_id = e.stream_id and p.stream_version = e.stream_version - 1
       left join rm_operators o on o.operator_id = e.metadata->>'actor'
       left join rm_transactions t
         on t.transaction_id = (case
           when e.stream_id like 'txn-%' then substring(e.stream_id from 5)::uuid
           -- ledger entries (merchant-ledger streams) name their transaction in the data
           when e.data->>'transactionId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
             then (e.data->>'transactionId')::uuid
         end)
       -- reconciliation events about a bank line: the line and the file it came in
       left join rm_statement_lines l
         on e.data->>'lineId' ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
           and l.line_id = (e.data->>'lineId')::uuid
       left join rm_statement_imports i on i.import_id = (l.record->>'importId')::uuid
       where ${where.join(' and ')}
       order by e.xid desc, e.seq desc
       limit ${param(limit + 1)}`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(toEntry),
      nextCursor: rows.length > limit && last ? `${last.xid}:${last.seq}` : null,
    };
  }
}

function toEntry(row: AuditRow): AuditEntry {
  const isConfig = (CONFIG_EVENT_TYPES as readonly string[]).includes(row.type);
  const after = asObject(row.data);
  const before = isConfig && row.before_data !== null ? asObject(row.before_data) : null;
  const changes = isConfig
    ? [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].filter(
        (key) => !isDeepStrictEqual(before?.[key], after[key]),
      )
    : null;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    position: `${row.xid}:${row.seq}`,
    at: row.created_at,
    type: row.type,
    stream: row.stream_id,
    streamVersion: row.stream_version,
    actor: text(row.metadata.actor),
    username: row.username,
    source: text(row.metadata.source),
    ip: text(row.metadata.ip),
    before: before === null ? null : (redactSecrets(before) as Record<string, unknown>),
    after: redactSecrets(after) as Record<string, unknown>,
    changes,
    transactionNumber: row.transaction_number === null ? null : Number(row.transaction_number),
    statementLine:
      row.line_amount === null
        ? null
        : {
            bankReference: row.line_reference,
            amountKurus: row.line_amount,
            bookedOn: row.line_booked_on ?? '',
            fileName: row.line_file_name,
          },
  };
}
