import {
  DomainError,
  type PanelTransactionFilters,
  type PanelTransactionPage,
  type PanelTransactionRecord,
  type TransactionView,
} from '@transfergate/contracts';
import type { RecordedEvent } from '@transfergate/event-store';

/**
 * The transaction read model as a port: what /status (number → transaction) and the panel's list
 * need, served by SQL (the rm_transactions table, the default) or MongoDB (MONGODB_URL). One
 * contract suite runs on every adapter (test/read-models).
 *
 * apply() takes events in global order, ignores every stream but `txn-*`, and is idempotent by
 * stream version: an event at or below the stored version changes nothing, a gap is an error. So
 * an adapter without a transaction shared with the consumer's checkpoint (MongoDB) is safe under
 * the at-least-once redelivery of a crashed or taken-over consumer.
 */
export interface TransactionReadModel {
  readonly adapter: 'sql' | 'mongodb';
  /** Creates tables or collections and their indexes (idempotent). */
  prepare(): Promise<void>;
  apply(events: readonly RecordedEvent[]): Promise<void>;
  /** The transaction id of an integer number, only among one provider's when `providerId` is given. */
  findIdByNumber(number: string, providerId?: string): Promise<string | undefined>;
  /** Newest first, keyset-paginated; a malformed cursor is DomainError('validation_failed'). */
  list(filters: PanelTransactionFilters): Promise<PanelTransactionPage>;
}

export const TRANSACTION_READ_MODEL = 'transfergate:TransactionReadModel';

/** Limits (TIGER_STYLE): a page holds 1..200 records, as the panel's route says. */
export const MAX_PAGE_SIZE = 200;
export const TRANSACTION_STREAM_PREFIX = 'txn-';

export function pageSize(limit: number): number {
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE);
}

/** The list's record of a transaction: its view without the payment token, echo fields and callback URL. */
export function panelRecordOf(view: TransactionView): PanelTransactionRecord {
  return {
    transactionId: view.transactionId,
    number: view.number,
    type: view.type,
    state: view.state,
    merchantId: view.merchantId,
    providerId: view.providerId,
    infrastructureId: view.infrastructureId,
    form: view.form,
    externalId: view.externalId,
    amountKurus: view.amountKurus,
    originalAmountKurus: view.originalAmountKurus,
    feeKurus: view.feeKurus,
    customer: view.customer,
    ...(view.bankAccount ? { bankAccountId: view.bankAccount.bankAccountId } : {}),
    ...(view.iban ? { iban: view.iban } : {}),
    ...(view.expiresAt ? { expiresAt: view.expiresAt } : {}),
    ...(view.assignee ? { assignee: view.assignee } : {}),
    ...(view.reason ? { reason: view.reason } : {}),
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}

export function invalidCursor(): DomainError {
  return new DomainError('validation_failed', 'invalid request: cursor is not a cursor from this list', {
    fields: [{ field: 'cursor', problem: 'not a cursor from this list' }],
  });
}

const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The transaction lists' keyset cursor (both adapters): `[creation time, transaction id]` as base64url JSON. */
export function encodeListCursor(time: string, transactionId: string): string {
  return Buffer.from(JSON.stringify([time, transactionId])).toString('base64url');
}

/** The cursor's parts, the time in the adapter's own text form (`timeFormat`); anything else is a 400. */
export function decodeListCursor(cursor: string, timeFormat: RegExp): [string, string] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string' &&
      timeFormat.test(parsed[0]) &&
      CURSOR_ID.test(parsed[1])
    ) {
      return [parsed[0], parsed[1]];
    }
  } catch {
    // fall through to the refusal
  }
  throw invalidCursor();
}

export class ReadModelGapError extends Error {
  constructor(transactionId: string, storedVersion: number, eventVersion: number) {
    super(`read model: transaction ${transactionId} is at version ${storedVersion}, event has ${eventVersion}`);
    this.name = 'ReadModelGapError';
  }
}
