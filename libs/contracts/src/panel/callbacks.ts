import { Command, Query } from '@nestjs/cqrs';
import { z } from 'zod';
import type { ActorRef } from '../commands/transaction-commands.js';
import { requestText } from '../http/text.js';

/**
 * The callback log (/panel/callbacks): one delivery per final transaction, owned by the callback
 * dispatcher, with every attempt. The panel reads it through these queries and resends through
 * ResendCallbackCommand; the SQL lives with the dispatcher.
 *
 * Delivery rules (docs/architecture.md, "The callback's path"; the contract names the bodies only):
 * - POST JSON to the infrastructure's registered `callback_deposit` / `callback_withdrawal`, as it
 *   was when the transaction became final (frozen with the body). Redirects are never followed.
 * - Success is a 2xx answered within 15 s. Anything else (timeout, 3xx, 4xx, 5xx, refused
 *   connection) is retried on the API settings' `callbackRetryScheduleSeconds` (entry i = delay
 *   before attempt i+1; default: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). A `Retry-After`
 *   (seconds or HTTP date, at most 24 h) that asks for longer wins. After the last entry the delivery
 *   is `failed`.
 * - Standard Webhooks headers on every attempt: `webhook-id` (a UUID derived from the approval or
 *   rejection event, the same on every retry and resend), `webhook-timestamp` (Unix seconds of the
 *   attempt) and `webhook-signature` = `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`))
 *   where the key is the provider's API secret as UTF-8 bytes (not a `whsec_` base64 key) and `body`
 *   is the exact request body.
 * - A manual resend makes the delivery pending and due at once (also when it was delivered or
 *   failed) and starts the retry schedule again from its first entry; the next attempt is recorded
 *   as `manual` with the operator who asked.
 */

export const CALLBACK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type CallbackDeliveryState = (typeof CALLBACK_DELIVERY_STATES)[number];

/** How an attempt ended. */
export const CALLBACK_ATTEMPT_OUTCOMES = [
  /** 2xx within the request timeout. */
  'success',
  /** A 4xx/5xx (or other non-2xx, non-3xx) answer. */
  'http_error',
  /** A 3xx answer: redirects are never followed. */
  'redirect',
  /** No answer within the request timeout. */
  'timeout',
  /** Connection refused, reset, DNS, TLS ... */
  'network_error',
  /** This process stopped while the request was in flight (does not use up a retry). */
  'aborted',
  /** Nothing was sent (for example the provider's secret could not be read). */
  'not_sent',
] as const;
export type CallbackAttemptOutcome = (typeof CALLBACK_ATTEMPT_OUTCOMES)[number];

export const CALLBACK_LIST_MAX_LIMIT = 200;
export const CALLBACK_LIST_DEFAULT_LIMIT = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /panel/callbacks query string. */
export const PanelCallbackListRequestSchema = z.object({
  /** One state or a comma-separated list (`pending,failed`). */
  state: z
    .string()
    .transform((text) => [...new Set(text.split(',').map((s) => s.trim()))])
    .pipe(z.array(z.enum(CALLBACK_DELIVERY_STATES)).min(1).max(CALLBACK_DELIVERY_STATES.length))
    .optional(),
  /** The transaction's internal UUID, its integer number or the caller's transaction id (external id). */
  transactionId: requestText(128).optional(),
  type: z.enum(['deposit', 'withdrawal']).optional(),
  limit: z.coerce.number().int().min(1).max(CALLBACK_LIST_MAX_LIMIT).default(CALLBACK_LIST_DEFAULT_LIMIT),
  /** Opaque: the `nextCursor` of the previous page. */
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,512}$/, 'not a cursor from this list')
    .optional(),
});
export type PanelCallbackListRequest = z.infer<typeof PanelCallbackListRequestSchema>;

/** A delivery id (= its webhook-id), the transaction's UUID, or the transaction's integer number. */
export const CallbackRefSchema = z.union([z.string().trim(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value;
  if (UUID.test(text)) return text.toLowerCase();
  if (/^[1-9]\d{0,14}$/.test(text)) return text;
  ctx.addIssue({ code: 'custom', message: 'must be a callback id, a transaction UUID or its integer number' });
  return z.NEVER;
});

/** POST /panel/callbacks/resend. */
export const PanelCallbackResendRequestSchema = z.object({ id: CallbackRefSchema });

/** One delivery as the list shows it. */
export interface PanelCallbackDelivery {
  /** The delivery id; also the `webhook-id` header of every attempt. */
  id: string;
  webhookId: string;
  transactionId: string;
  transactionNumber: number;
  /** The caller's transaction id. */
  externalId: string;
  type: 'deposit' | 'withdrawal';
  outcome: 'approved' | 'rejected';
  providerId: string;
  infrastructureId: string;
  format: 'merchant' | 'h2h' | 'infrastructure' | 'md5';
  targetUrl: string;
  state: CallbackDeliveryState;
  attemptCount: number;
  /** Pending: when the next attempt is due. */
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PanelCallbackAttempt {
  /** 1, 2, ... over the delivery's whole life (resends continue the count). */
  number: number;
  trigger: 'automatic' | 'manual';
  /** Manual: the operator who asked for the resend. */
  requestedBy: string | null;
  startedAt: string;
  latencyMs: number | null;
  statusCode: number | null;
  outcome: CallbackAttemptOutcome;
  error: string | null;
  /** The first bytes of the answer (at most 1 KiB, UTF-8). */
  responseExcerpt: string | null;
  /** Retry-After of the answer, in ms, when it had one. */
  retryAfterMs: number | null;
  /** When the next attempt was scheduled for after this one (null: delivered or failed). */
  nextAttemptAt: string | null;
}

export interface PanelCallbackDetail extends PanelCallbackDelivery {
  /** The exact JSON body every attempt sends (frozen when the transaction became final). */
  body: unknown;
  attempts: PanelCallbackAttempt[];
}

export interface PanelCallbackPage {
  items: PanelCallbackDelivery[];
  nextCursor: string | null;
}

export interface CallbackListFilters {
  state?: CallbackDeliveryState[];
  /** Only callbacks of these providers (the portal: a merchant's providers). */
  providerIds?: string[];
  /** Only callbacks created in [createdFrom, createdTo) (ISO 8601). */
  createdFrom?: string;
  createdTo?: string;
  transactionId?: string;
  type?: 'deposit' | 'withdrawal';
  limit: number;
  cursor?: string;
}

/** Newest first, keyset-paginated on (created_at, id). A malformed cursor is a 400. */
export class ListCallbackDeliveriesQuery extends Query<PanelCallbackPage> {
  constructor(readonly filters: CallbackListFilters) {
    super();
  }
}

/** One delivery with its body and attempts, by delivery id, transaction UUID or number. */
export class FindCallbackDeliveryQuery extends Query<PanelCallbackDetail | null> {
  constructor(readonly ref: string) {
    super();
  }
}

/**
 * A manual resend: the delivery becomes pending and due now, whatever its state (a request in
 * flight finishes first, then the resend follows). Answers the delivery after the change; an
 * unknown ref is a 404 `not_found`.
 */
export class ResendCallbackCommand extends Command<PanelCallbackDetail> {
  constructor(readonly input: { ref: string; actor: ActorRef }) {
    super();
  }
}
