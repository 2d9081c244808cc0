import {
  EVENT_CATALOG,
  STREAMS,
  customerIdentities,
  type CustomerReference,
  type DomainError,
  type EventData,
} from '@transfergate/contracts';
import {
  newEventId,
  type EventStore,
  type PersonalDataCodec,
  type RecordedEvent,
  type SqlDatabase,
} from '@transfergate/event-store';
import { decideEraseCustomer } from '../decisions/erase-customer.decide.js';
import { isRefusal } from '../decisions/decision.js';
import { PERSONAL_EVENT_TYPES } from './encrypt-existing-store.js';

/** Most events one erasure reads back (a customer's requests and statement lines: far fewer). */
export const MAX_ERASURE_EVENTS = 100_000;

export interface CustomerErasure {
  erasureId: string;
  customer: CustomerReference;
  reason: string;
  requestedBy: string;
  confirmedBy: string;
}

export interface ErasureOutcome {
  erasure: EventData<'CustomerErased'>;
  /** Rows of the callback log and of the webhook log whose copies of the fields were replaced. */
  callbackLogRows: number;
  webhookLogRows: number;
}

interface EventRow {
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  created_at: string;
}

/**
 * Erases a customer (docs/decisions/0067-personal-data.md): load what is held, decide (a reason, a
 * second admin), record the CustomerErased event (audited first: a crash after it leaves the keys
 * live and a retry erases them, never an erasure without its record), destroy the keys, then replace
 * the fields' copies in the live read models (rebuilt from the now-erased events, exactly as the
 * replay rebuilds them) and in the callback and webhook logs (whole JSON or form values equal to a
 * field, read before the keys went).
 */
export async function eraseCustomer(
  db: SqlDatabase,
  /** The store of `db` (the record names the customer by pseudonyms only). */
  store: EventStore,
  codec: PersonalDataCodec,
  request: CustomerErasure,
): Promise<ErasureOutcome | DomainError> {
  const keys = codec.keys;
  const subjectIds = [...new Set(customerIdentities(request.customer).map((identity) => keys.subjectIdOf(identity)))];
  const { rows: live } = await db.query<{ key_ref: string }>(
    `select key_ref from pd_data_keys where subject_id = any($1::text[]) and erased_at is null`,
    [subjectIds],
  );
  const events =
    live.length > 0
      ? await eventsUnder(
          db,
          live.map((r) => r.key_ref),
        )
      : [];
  const transactionIds = transactionIdsOf(events);
  const lineCount = events.filter((e) => e.type === 'StatementLineImported').length;
  const decided = decideEraseCustomer(
    { ...request, subjectIds },
    { liveKeys: live.length, transactions: transactionIds.length, statementLines: lineCount },
  );
  if (isRefusal(decided)) return decided;

  // The values as they are now, to find their copies in the logs once the keys are gone.
  const plainValues = await plainValuesOf(codec, events);
  await store.append(
    STREAMS.erasures(),
    [
      {
        eventId: newEventId(),
        type: decided.type,
        schemaVersion: EVENT_CATALOG.CustomerErased.version,
        data: decided.data,
        metadata: { actor: request.confirmedBy, source: 'panel', requestedBy: request.requestedBy },
      },
    ],
    'any',
  );
  const { callbackLogRows, webhookLogRows } = await shredAndScrub(db, codec, {
    subjectIds,
    keyRefs: live.map((r) => r.key_ref),
    transactionIds,
    plainValues,
    reason: decided.data.reason,
    erasedBy: `${request.requestedBy},${request.confirmedBy}`,
  });
  return { erasure: decided.data, callbackLogRows, webhookLogRows };
}

/** The personal values of these events as they read now (to find their copies in the logs later). */
export async function plainValuesOf(codec: PersonalDataCodec, events: RecordedEvent[]): Promise<Set<string>> {
  const values = new Set<string>();
  for (const event of await codec.decrypt(events)) {
    const fields = codec.policy.fieldsOf(event.type);
    if (fields) codec.visitPersonalStrings(event.data, fields, (value) => values.add(value));
  }
  values.delete(codec.policy.erasedText);
  return values;
}

/** The transactions these events belong to. */
export function transactionIdsOf(events: readonly RecordedEvent[]): string[] {
  return [...new Set(events.filter((e) => e.streamId.startsWith('txn-')).map((e) => e.streamId.slice('txn-'.length)))];
}

/**
 * Destroys the subjects' keys, then rebuilds the live read-model rows of their events from the
 * now-erased events (as the replay does) and replaces the fields' copies in the callback and
 * webhook logs. Called once the erasure's event is recorded.
 */
export async function shredAndScrub(
  db: SqlDatabase,
  codec: PersonalDataCodec,
  what: {
    subjectIds: readonly string[];
    keyRefs: readonly string[];
    transactionIds: readonly string[];
    plainValues: ReadonlySet<string>;
    reason: string;
    erasedBy: string;
    /** Per subject: erase its key only if not written since (SubjectKeys.erase's guard). */
    lastWrittenAt?: ReadonlyMap<string, string>;
  },
): Promise<{ callbackLogRows: number; webhookLogRows: number }> {
  for (const subjectId of what.subjectIds) {
    const lastWrittenAt = what.lastWrittenAt?.get(subjectId);
    await codec.keys.erase(
      subjectId,
      { reason: what.reason, erasedBy: what.erasedBy },
      lastWrittenAt !== undefined ? { lastWrittenAt } : undefined,
    );
  }
  const reread = what.keyRefs.length > 0 ? await codec.decrypt(await eventsUnder(db, what.keyRefs)) : [];
  for (const event of reread) {
    if (event.type === 'DepositRequested' || event.type === 'WithdrawalRequested') {
      const d = EVENT_CATALOG[event.type].schema.parse(event.data);
      await db.query(
        `update rm_transactions set customer = $2::jsonb, iban = case when type = 'withdrawal' then $3 else iban end
          where transaction_id = $1::uuid`,
        [d.transactionId, JSON.stringify(d.customer), 'iban' in d ? d.iban : null],
      );
    } else if (event.type === 'StatementLineImported') {
      const d = EVENT_CATALOG.StatementLineImported.schema.parse(event.data);
      await db.query(`update rm_statement_lines set record = $2::jsonb where line_id = $1::uuid`, [
        d.lineId,
        JSON.stringify(d),
      ]);
    }
  }
  const erased = codec.policy.erasedText;
  const ids = what.transactionIds;
  const callbackLogRows = await scrubLog(db, 'cb_deliveries', 'delivery_id', ['body'], ids, what.plainValues, erased);
  const webhookLogRows = await scrubLog(db, 'wh_log', 'id', ['body', 'raw_text'], ids, what.plainValues, erased);
  return { callbackLogRows, webhookLogRows };
}

/** The stored events of personal types with a field under one of these keys (hex refs: safe in a pattern). */
export async function eventsUnder(db: SqlDatabase, keyRefs: readonly string[]): Promise<RecordedEvent[]> {
  if (keyRefs.some((ref) => !/^[0-9a-f]{32}$/.test(ref))) throw new Error('personal data invariant: a key ref is hex');
  const { rows } = await db.query<EventRow>(
    `select event_id::text as event_id, stream_id, stream_version, type, schema_version, data,
            to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at from es_events
      where type = any($1::text[]) and data::text ~ $2 order by seq limit $3`,
    [PERSONAL_EVENT_TYPES, `pd1\\.(${keyRefs.join('|')})\\.`, MAX_ERASURE_EVENTS + 1],
  );
  if (rows.length > MAX_ERASURE_EVENTS) throw new Error(`an erasure reads at most ${MAX_ERASURE_EVENTS} events`);
  return rows.map((row) => ({
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    type: row.type,
    schemaVersion: row.schema_version,
    data: row.data,
    metadata: {},
    position: { commitXid: '0', seq: '0' },
    createdAt: row.created_at,
  }));
}

/**
 * Replaces every string value equal to one of `values` in a JSON or form-encoded text; the text
 * comes back as it was when none is found.
 */
export function scrubText(text: string, values: ReadonlySet<string>, erased: string): string {
  let replaced = 0;
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!values.has(value)) return value;
      replaced += 1;
      return erased;
    }
    if (Array.isArray(value)) return value.map(scrub);
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
    }
    return value;
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text) as unknown;
  } catch {
    if (!/^[^\s{}[\]"]*=/.test(text)) return text;
    const form = new URLSearchParams(text);
    for (const [key, value] of [...form.entries()]) form.set(key, scrub(value) as string);
    return replaced > 0 ? form.toString() : text;
  }
  const next = scrub(parsed);
  return replaced > 0 ? JSON.stringify(next) : text;
}

async function scrubLog(
  db: SqlDatabase,
  table: 'cb_deliveries' | 'wh_log',
  keyColumn: string,
  columns: readonly string[],
  transactionIds: readonly string[],
  values: ReadonlySet<string>,
  erased: string,
): Promise<number> {
  if (transactionIds.length === 0 || values.size === 0) return 0;
  const { rows: present } = await db.query<{ present: boolean }>(`select to_regclass($1) is not null as present`, [
    table,
  ]);
  if (!present[0]?.present) return 0;
  const { rows } = await db.query<Record<string, unknown>>(
    `select ${keyColumn}::text as key, ${columns.map((c) => `${c}::text as ${c}`).join(', ')} from ${table}
      where transaction_id = any($1::uuid[])`,
    [transactionIds],
  );
  let changed = 0;
  for (const row of rows) {
    const next = columns.map((c) => (typeof row[c] === 'string' ? scrubText(row[c], values, erased) : row[c]));
    if (next.every((v, i) => v === row[columns[i]!])) continue;
    const sets = columns.map((c, i) => `${c} = $${i + 2}${table === 'wh_log' && c === 'body' ? '::jsonb' : ''}`);
    await db.query(`update ${table} set ${sets.join(', ')} where ${keyColumn}::text = $1`, [row.key, ...next]);
    changed += 1;
  }
  return changed;
}
