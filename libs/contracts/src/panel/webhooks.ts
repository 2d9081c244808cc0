import { Query } from '@nestjs/cqrs';
import { z } from 'zod';

/**
 * The incoming-webhook log (GET /panel/webhooks, GET /panel/webhooks/:id, permission `callbacks.view`).
 * webhook-ingest stores every webhook that reaches one of its routes, refused ones included, with
 * what it did and why; the panel reads the log through the two queries below (webhook-ingest owns
 * the table, the panel only sees these shapes).
 */

/** What webhook-ingest did with a webhook. `received` = still in progress (or the process stopped mid-way). */
export const WEBHOOK_OUTCOMES = ['received', 'applied', 'ignored_repeat', 'refused', 'failed'] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

export const WEBHOOK_KINDS = ['deposit', 'withdrawal'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

export const WEBHOOK_LOG_MAX_LIMIT = 200;
export const WEBHOOK_LOG_DEFAULT_LIMIT = 50;

/** A log entry id: the positive integer the log assigns, as a digit string. */
export const WebhookLogIdSchema = z.string().regex(/^[1-9]\d{0,17}$/, 'a webhook log id is a positive integer');

/** GET /panel/webhooks query string. */
export const WebhookLogListRequestSchema = z.object({
  /** The slug as it appeared in the path (an alias too) or the infrastructure it resolved to. */
  slug: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/, 'slug: 1..63 of a-z, 0-9 and -')
    .transform((s) => s.toLowerCase())
    .optional(),
  /** One outcome or a comma-separated list (`refused,failed`). */
  outcome: z
    .string()
    .transform((text) => [...new Set(text.split(',').map((s) => s.trim()))])
    .pipe(z.array(z.enum(WEBHOOK_OUTCOMES)).min(1).max(WEBHOOK_OUTCOMES.length))
    .optional(),
  kind: z.enum(WEBHOOK_KINDS).optional(),
  /** The internal UUID of the transaction a webhook was matched to. */
  transactionId: z
    .uuid()
    .transform((s) => s.toLowerCase())
    .optional(),
  limit: z.coerce.number().int().min(1).max(WEBHOOK_LOG_MAX_LIMIT).default(WEBHOOK_LOG_DEFAULT_LIMIT),
  /** `nextCursor` of the previous page. */
  cursor: WebhookLogIdSchema.optional(),
});
export type WebhookLogFilters = z.infer<typeof WebhookLogListRequestSchema>;

/** One webhook as the list shows it (no headers or body). */
export const WebhookLogItemSchema = z.object({
  id: z.string(),
  receivedAt: z.string(),
  /** The slug as it appeared in the path (lower-cased; may be an alias). */
  slug: z.string(),
  /** The infrastructure it resolved to, when it did. */
  infrastructureSlug: z.string().nullable(),
  infrastructureId: z.string().nullable(),
  kind: z.enum(WEBHOOK_KINDS),
  /** The request path without the query string. */
  path: z.string(),
  sourceIp: z.string(),
  /** The status value as sent (`true`, `"confirmed"` ...), when one was found. */
  statusValue: z.string().nullable(),
  outcome: z.enum(WEBHOOK_OUTCOMES),
  /** Why: the answer's message (refusal reason, `already approved` ...). */
  reason: z.string().nullable(),
  /** The refusal's stable `errorCode`, when refused or failed. */
  errorCode: z.string().nullable(),
  /** The HTTP status answered (null while `received`). */
  httpStatus: z.number().int().nullable(),
  /** Internal UUID of the matched transaction. */
  transactionId: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type WebhookLogItem = z.infer<typeof WebhookLogItemSchema>;

/** One webhook with what was received. */
export const WebhookLogEntrySchema = WebhookLogItemSchema.extend({
  /** Request headers except credentials (authorization, cookies, keys, secrets, tokens). */
  headers: z.record(z.string(), z.string()),
  /** The parsed JSON body (any JSON value), null when it could not be parsed or stored as JSON. */
  body: z.unknown(),
  /** The body as text when it is not stored as JSON (malformed, not JSON, or too large). */
  rawText: z.string().nullable(),
  /** true when the stored body was cut at the app's body limit. */
  bodyTruncated: z.boolean(),
});
export type WebhookLogEntry = z.infer<typeof WebhookLogEntrySchema>;

export const WebhookLogPageSchema = z.object({
  items: z.array(WebhookLogItemSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type WebhookLogPage = z.infer<typeof WebhookLogPageSchema>;

/** Newest first, keyset-paginated on the log id. */
export class ListWebhookLogQuery extends Query<WebhookLogPage> {
  constructor(readonly filters: WebhookLogFilters) {
    super();
  }
}

/** One entry by id (a digit string, see WebhookLogIdSchema); null when there is none. */
export class FindWebhookLogEntryQuery extends Query<WebhookLogEntry | null> {
  constructor(readonly id: string) {
    super();
  }
}
