import { AmountSchema, DomainError } from '@transfergate/contracts';

/**
 * Reading a free-form webhook body: the status it asks for, the ids that name the transaction, the
 * rejection reason. Pure functions; the contract shows no payload, so every spelling the forms use
 * is accepted (docs/architecture.md: found by any id field the forms use, statuses mapped tolerantly).
 */

export type WebhookDecision = 'approved' | 'rejected';

export type WebhookBody = Record<string, unknown>;

export function isJsonObject(body: unknown): body is WebhookBody {
  return body !== null && typeof body === 'object' && !Array.isArray(body);
}

/** Status words by meaning, compared case-insensitively after trimming. */
const APPROVED_WORDS = new Set([
  'approved',
  'approve',
  'confirmed',
  'confirm',
  'success',
  'successful',
  'succeeded',
  'completed',
  'complete',
  'paid',
  'ok',
  'true',
]);
const REJECTED_WORDS = new Set([
  'rejected',
  'reject',
  'declined',
  'decline',
  'cancel',
  'cancelled',
  'canceled',
  'failed',
  'fail',
  'failure',
  'denied',
  'refused',
  'false',
]);

/** The fields a status may come in, most specific first (matched case-insensitively). */
const STATUS_FIELDS = ['status', 'state', 'result'] as const;

export interface MappedStatus {
  field: string;
  /** The value as sent, as text (for the log). */
  sent: string;
  decision: WebhookDecision;
}

/** The first field whose name (any case) is one of `names`, exact spelling preferred. */
function fieldOf(body: WebhookBody, name: string): string | undefined {
  if (Object.hasOwn(body, name)) return name;
  return Object.keys(body).find((key) => key.toLowerCase() === name);
}

/**
 * `status` / `Status` / `state` / `result` (any case), a boolean or a word: approved, confirmed,
 * confirm, success, true ... → approved; rejected, declined, cancel, failed, false ... → rejected.
 * No status field → 400; a status we cannot map (e.g. `pending`) → 422. Both are logged.
 */
export function mapStatus(body: WebhookBody): MappedStatus {
  for (const name of STATUS_FIELDS) {
    const field = fieldOf(body, name);
    if (field === undefined) continue;
    const value = body[field];
    if (typeof value === 'boolean') return { field, sent: String(value), decision: value ? 'approved' : 'rejected' };
    if (typeof value === 'string') {
      const word = value.trim().toLowerCase();
      if (APPROVED_WORDS.has(word)) return { field, sent: value, decision: 'approved' };
      if (REJECTED_WORDS.has(word)) return { field, sent: value, decision: 'rejected' };
    }
    const sent = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    throw new DomainError(
      'invalid_state_transition',
      `unknown status "${clip(sent, 64)}" in ${field}: send approved/confirmed/confirm/success/true or rejected/declined/cancel/failed/false`,
      { field, status: clip(sent, 64) },
    );
  }
  throw new DomainError('validation_failed', 'the webhook carries no status (status, Status, state or result)', {
    fields: [{ field: 'status', problem: 'required' }],
  });
}

/** How a field's value may name a transaction. */
type IdMeaning = 'external' | 'number' | 'uuid';

/**
 * The id fields of every form and what each may mean. `id` is the integer id in most answers but
 * equals the transaction id in the H2H deposit answer, and the H2H callback's `uuid` "equals the
 * transaction id" too: those fields are tried each way, and the fields together must name one
 * transaction (see resolveCandidates).
 */
const ID_FIELDS: Record<string, readonly IdMeaning[]> = {
  transactionId: ['external'],
  transaction_id: ['external'],
  RequestId: ['external'],
  requestId: ['external'],
  depositId: ['number'],
  withdrawalId: ['number'],
  id: ['number', 'uuid', 'external'],
  uuid: ['uuid', 'external'],
};

export const ID_FIELD_NAMES = Object.keys(ID_FIELDS);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const PLAIN_TEXT = /^[^\u0000-\u001f\u007f]{1,128}$/;

export interface IdCandidate {
  field: string;
  meaning: IdMeaning;
  /** External id as sent, lower-case UUID, or a digit string. */
  value: string;
}

/** Every (field, meaning, value) the body offers; values that cannot be an id are skipped. */
export function idCandidates(body: WebhookBody): IdCandidate[] {
  const found: IdCandidate[] = [];
  for (const [field, meanings] of Object.entries(ID_FIELDS)) {
    if (!Object.hasOwn(body, field)) continue;
    const raw = body[field];
    const text =
      typeof raw === 'string' ? raw.trim() : typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : '';
    if (!PLAIN_TEXT.test(text)) continue;
    for (const meaning of meanings) {
      if (meaning === 'external') found.push({ field, meaning, value: text });
      else if (meaning === 'number' && /^[1-9]\d{0,14}$/.test(text)) found.push({ field, meaning, value: text });
      else if (meaning === 'uuid' && UUID.test(text)) found.push({ field, meaning, value: text.toLowerCase() });
    }
  }
  return found;
}

/** A transaction the lookup found for at least one candidate. */
export interface CandidateMatch {
  transactionId: string;
  number: string;
  externalId: string;
}

export type Resolution =
  | { kind: 'found'; transactionId: string }
  | { kind: 'none' }
  | { kind: 'conflict'; fields: string[] }
  | { kind: 'ambiguous'; count: number };

/**
 * Which transaction the body names. Each id field names the set of transactions it matches in any of
 * its meanings; fields that match nothing are passed over (an upstream may put its own reference in
 * one of them). The fields that match must agree on exactly one transaction: fields naming different
 * ones are a conflict, and a value that fits several (an external id used by two providers of the
 * infrastructure) is ambiguous. Neither is ever guessed.
 */
export function resolveCandidates(candidates: readonly IdCandidate[], matches: readonly CandidateMatch[]): Resolution {
  const byField = new Map<string, Set<string>>();
  for (const candidate of candidates) {
    const set = byField.get(candidate.field) ?? new Set<string>();
    byField.set(candidate.field, set);
    for (const match of matches) {
      const hit =
        (candidate.meaning === 'external' && match.externalId === candidate.value) ||
        (candidate.meaning === 'number' && match.number === candidate.value) ||
        (candidate.meaning === 'uuid' && match.transactionId === candidate.value);
      if (hit) set.add(match.transactionId);
    }
  }
  const naming = [...byField.entries()].filter(([, set]) => set.size > 0);
  if (naming.length === 0) return { kind: 'none' };
  let common = new Set(naming[0]![1]);
  for (const [, set] of naming.slice(1)) common = new Set([...common].filter((id) => set.has(id)));
  if (common.size === 1) return { kind: 'found', transactionId: [...common][0]! };
  if (common.size === 0) return { kind: 'conflict', fields: naming.map(([field]) => field) };
  return { kind: 'ambiguous', count: common.size };
}

/**
 * The paid amount a webhook states (`amount` or `Amount`, a JSON number or numeric string, TRY with
 * at most 2 decimals), in kuruş; undefined when it states none. An amount that is not a valid
 * amount is refused (400): a webhook whose amount cannot be read must not approve anything.
 */
export function paidAmountOf(body: WebhookBody): bigint | undefined {
  for (const field of ['amount', 'Amount']) {
    if (!Object.hasOwn(body, field) || body[field] === null) continue;
    const parsed = AmountSchema.safeParse(body[field]);
    if (!parsed.success) {
      throw new DomainError('invalid_amount', `${field} is not an amount: ${parsed.error.issues[0]?.message ?? ''}`, {
        field,
      });
    }
    return parsed.data;
  }
  return undefined;
}

const DEFAULT_REASON = 'rejected by upstream';

/** The rejection reason: `reason` / `message` / `Message` as sent (cleaned, 1..500 chars), else a default. */
export function rejectionReason(body: WebhookBody): string {
  for (const field of ['reason', 'Reason', 'message', 'Message']) {
    const value = body[field];
    if (typeof value !== 'string') continue;
    const cleaned = cleanText(value).trim();
    if (cleaned) return clip(cleaned, 500);
  }
  return DEFAULT_REASON;
}

/**
 * Text safe for PostgreSQL text/jsonb and for events: control characters become spaces and lone
 * UTF-16 surrogates become U+FFFD (PostgreSQL refuses NUL and unpaired surrogates).
 */
export function cleanText(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- replacing control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
  );
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
