import { Inject, Injectable, Logger } from '@nestjs/common';
import type {
  WebhookKind,
  WebhookLogEntry,
  WebhookLogFilters,
  WebhookLogItem,
  WebhookLogPage,
  WebhookOutcome,
} from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';
import { cleanText, clip } from '../webhook-body.js';
import { redactCredentialFields, redactCredentialText } from './credential-redaction.js';

/** What is known about a webhook when it arrives. */
export interface ReceivedWebhook {
  /** The path segment as sent (an alias or a slug), lower-cased. */
  slug: string;
  kind: WebhookKind;
  path: string;
  sourceIp: string;
  /** The HTTP request's id, stamped on the events the webhook causes (absent for a logged refusal). */
  requestId?: string;
  headers: Record<string, string>;
  /** The parsed body (any JSON value); undefined when there was none. */
  body?: unknown;
  /** The body as text, when it is not JSON (captured before a parser refused it). */
  rawText?: string;
  /** The body limit of the route: nothing larger is stored. */
  bodyLimit: number;
}

/** What webhook-ingest made of it. */
export interface WebhookResult {
  outcome: Exclude<WebhookOutcome, 'received'>;
  reason: string;
  errorCode?: string;
  httpStatus: number;
  infrastructureId?: string;
  infrastructureSlug?: string;
  statusValue?: string;
  transactionId?: string;
}

interface StoredBody {
  json: string | null;
  rawText: string | null;
  truncated: boolean;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const ITEM_COLUMNS = `id::text id, to_char(received_at at time zone 'UTC', ${ISO}) received_at, slug, kind, path,
  source_ip, infrastructure_id, infrastructure_slug, status_value, outcome, reason, error_code, http_status,
  transaction_id::text transaction_id, to_char(completed_at at time zone 'UTC', ${ISO}) completed_at`;

interface ItemRow {
  id: string;
  received_at: string;
  slug: string;
  kind: WebhookKind;
  path: string;
  source_ip: string;
  infrastructure_id: string | null;
  infrastructure_slug: string | null;
  status_value: string | null;
  outcome: WebhookOutcome;
  reason: string | null;
  error_code: string | null;
  http_status: number | null;
  transaction_id: string | null;
  completed_at: string | null;
}

interface EntryRow extends ItemRow {
  headers: Record<string, string>;
  body: unknown;
  raw_text: string | null;
  body_truncated: boolean;
}

/** The first `limit` bytes of a text (a character cut in two becomes U+FFFD). */
function cutBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= limit ? text : bytes.subarray(0, limit).toString('utf8');
}

/** The body as stored: JSON when it fits the limit, else its text cut at the limit; credentials blanked. */
function storedBody(webhook: ReceivedWebhook): StoredBody {
  if (webhook.rawText !== undefined) {
    const truncated = Buffer.byteLength(webhook.rawText, 'utf8') > webhook.bodyLimit;
    const text = cutBytes(redactCredentialText(cleanText(webhook.rawText)), webhook.bodyLimit);
    return { json: null, rawText: text, truncated };
  }
  if (webhook.body === undefined) return { json: null, rawText: null, truncated: false };
  let text: string | undefined;
  try {
    text = JSON.stringify(webhook.body, redactCredentialFields);
  } catch {
    return { json: null, rawText: '[the body could not be serialised]', truncated: false };
  }
  if (text === undefined) return { json: null, rawText: null, truncated: false };
  if (Buffer.byteLength(text, 'utf8') > webhook.bodyLimit) {
    return { json: null, rawText: cutBytes(text, webhook.bodyLimit), truncated: true };
  }
  return { json: text, rawText: null, truncated: false };
}

function toItem(row: ItemRow): WebhookLogItem {
  return {
    id: row.id,
    receivedAt: row.received_at,
    slug: row.slug,
    infrastructureSlug: row.infrastructure_slug,
    infrastructureId: row.infrastructure_id,
    kind: row.kind,
    path: row.path,
    sourceIp: row.source_ip,
    statusValue: row.status_value,
    outcome: row.outcome,
    reason: row.reason,
    errorCode: row.error_code,
    httpStatus: row.http_status === null ? null : Number(row.http_status),
    transactionId: row.transaction_id,
    completedAt: row.completed_at,
  };
}

const text = (value: string | undefined, max: number) => (value === undefined ? null : clip(cleanText(value), max));

/** Reads and writes wh_log. Every text that came from outside is cleaned and bounded before it is stored. */
@Injectable()
export class WebhookLogRepository {
  private readonly logger = new Logger('WebhookLog');

  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  /** Stores a webhook as it arrived (outcome `received`); answers its id. */
  async open(webhook: ReceivedWebhook): Promise<string> {
    return this.insert(webhook, undefined);
  }

  /** Stores a webhook that was answered without reaching the handler (the body parser refused it ...). */
  async record(webhook: ReceivedWebhook, result: WebhookResult): Promise<string> {
    return this.insert(webhook, result);
  }

  async complete(id: string, result: WebhookResult): Promise<void> {
    await this.db.query(
      `update wh_log set outcome = $2, reason = $3, error_code = $4, http_status = $5, infrastructure_id = $6,
         infrastructure_slug = $7, status_value = $8, transaction_id = $9::uuid, completed_at = now()
       where id = $1::bigint`,
      [id, ...this.resultParams(result)],
    );
  }

  async list(filters: WebhookLogFilters): Promise<WebhookLogPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    if (filters.slug) {
      const p = param(filters.slug);
      where.push(`(slug = ${p} or infrastructure_slug = ${p})`);
    }
    if (filters.outcome)
      where.push(`outcome in (select jsonb_array_elements_text(${param(JSON.stringify(filters.outcome))}::jsonb))`);
    if (filters.kind) where.push(`kind = ${param(filters.kind)}`);
    if (filters.transactionId) where.push(`transaction_id = ${param(filters.transactionId)}::uuid`);
    if (filters.cursor) where.push(`id < ${param(filters.cursor)}::bigint`);
    const { rows } = await this.db.query<ItemRow>(
      `select ${ITEM_COLUMNS} from wh_log ${where.length ? `where ${where.join(' and ')}` : ''}
       order by wh_log.id desc limit ${param(filters.limit + 1)}::integer`,
      params,
    );
    const items = rows.slice(0, filters.limit).map(toItem);
    return { items, nextCursor: rows.length > filters.limit ? items[items.length - 1]!.id : null };
  }

  async find(id: string): Promise<WebhookLogEntry | null> {
    const { rows } = await this.db.query<EntryRow>(
      `select ${ITEM_COLUMNS}, headers, body, raw_text, body_truncated from wh_log where id = $1::bigint`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      ...toItem(row),
      headers: row.headers,
      body: row.body ?? null,
      rawText: row.raw_text,
      bodyTruncated: row.body_truncated,
    };
  }

  private resultParams(result: WebhookResult): unknown[] {
    return [
      result.outcome,
      text(result.reason, 1000),
      result.errorCode ?? null,
      result.httpStatus,
      result.infrastructureId ?? null,
      result.infrastructureSlug ?? null,
      text(result.statusValue, 200),
      result.transactionId ?? null,
    ];
  }

  private async insert(webhook: ReceivedWebhook, result: WebhookResult | undefined): Promise<string> {
    const stored = storedBody(webhook);
    const headers = JSON.stringify(
      Object.fromEntries(Object.entries(webhook.headers).map(([name, value]) => [name, clip(cleanText(value), 1024)])),
    );
    const write = (body: StoredBody) =>
      this.db.query<{ id: string }>(
        `insert into wh_log (slug, kind, path, source_ip, headers, body, raw_text, body_truncated, outcome, reason,
           error_code, http_status, infrastructure_id, infrastructure_slug, status_value, transaction_id, completed_at)
         values ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::uuid,
           case when $9 = 'received' then null else now() end)
         returning id::text id`,
        [
          clip(cleanText(webhook.slug), 256),
          webhook.kind,
          clip(cleanText(webhook.path), 2048),
          clip(cleanText(webhook.sourceIp), 64),
          headers,
          body.json,
          body.rawText,
          body.truncated,
          ...(result ? this.resultParams(result) : ['received', null, null, null, null, null, null, null]),
        ],
      );
    try {
      return (await write(stored)).rows[0]!.id;
    } catch (error) {
      if (stored.json === null) throw error;
      // jsonb refuses some valid JSON (NUL in a string, unpaired surrogate escapes, extreme nesting):
      // keep the body as text instead of losing the webhook.
      this.logger.warn(`webhook body kept as text: ${(error as Error).message}`);
      return (await write({ json: null, rawText: stored.json, truncated: stored.truncated })).rows[0]!.id;
    }
  }
}
