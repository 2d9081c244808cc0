import { decodeListCursor, encodeListCursor, invalidCursor } from '../read-models/transaction-read-model.js';

/** Microsecond UTC text: the cursor must keep created_at exactly, or a page boundary could skip rows. */
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SORT_KEY = /^-?\d{1,19}$/;

export type ListSort = 'createdAt' | 'amount' | 'number' | 'urgency';

/**
 * What an operator must look at first: a reported payment (or a withdrawal someone took), then the
 * ones still waiting, then expired deposits (a late transfer is the commonest case), then final ones.
 */
const URGENCY = `(case t.state when 'payment_reported' then 0 when 'processing' then 0
  when 'awaiting_payment' then 1 when 'pending' then 1 when 'expired' then 2 else 3 end)`;

const KEYS: Record<ListSort, string | null> = {
  createdAt: null,
  amount: 't.amount_kurus',
  number: 't.number',
  urgency: URGENCY,
};

export interface ListOrder {
  sort: ListSort;
  /** SQL of an integer sort key over `rm_transactions t`, or null for the plain newest-first order. */
  key: string | null;
  direction: 'asc' | 'desc';
}

/**
 * Every order ends in (created_at desc, transaction_id desc), so the keyset cursor (key, created_at, id)
 * puts every row on exactly one page whatever the sort. `createdAt asc` is not offered: the queues
 * read newest first, and the oldest open ones come first under `urgency` anyway.
 */
export function listOrder(sort: ListSort, direction: 'asc' | 'desc'): ListOrder {
  return { sort, key: KEYS[sort], direction: KEYS[sort] === null ? 'desc' : direction };
}

/** The plain order keeps the old two-part cursor; a sorted one adds its sort name and key. */
export function encodeSortedCursor(sort: ListSort, row: { cursor_time: string; id: string; sort_key: string | null }) {
  if (KEYS[sort] === null) return encodeListCursor(row.cursor_time, row.id);
  return Buffer.from(JSON.stringify([sort, row.sort_key, row.cursor_time, row.id])).toString('base64url');
}

/** [key, time, id]; a cursor of another sort or a forged one is a 400. */
export function decodeSortedCursor(cursor: string, sort: ListSort): [string, string, string] {
  if (KEYS[sort] === null) {
    const [time, id] = decodeListCursor(cursor, CURSOR_TIME);
    return ['', time, id];
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 4 &&
      parsed[0] === sort &&
      typeof parsed[1] === 'string' &&
      SORT_KEY.test(parsed[1]) &&
      typeof parsed[2] === 'string' &&
      CURSOR_TIME.test(parsed[2]) &&
      typeof parsed[3] === 'string' &&
      CURSOR_ID.test(parsed[3])
    ) {
      return [parsed[1], parsed[2], parsed[3]];
    }
  } catch {
    // fall through to the refusal
  }
  throw invalidCursor();
}
