import { Query } from '@nestjs/cqrs';
import type { TransactionView } from '../commands/transaction-commands.js';

/**
 * Queries the panel sends to the ledger for its transaction screens. The ledger owns the SQL and
 * the event store; the panel only sees these shapes (kuruş as decimal strings, like TransactionView).
 */

/** A transaction as the list shows it: the read model's columns, no payment token or echo fields. */
export type PanelTransactionRecord = Omit<
  TransactionView,
  'bankAccount' | 'paymentToken' | 'echo' | 'callbackUrl' | 'replayed'
> & {
  bankAccountId?: string;
  /** Deposit: the receiving account (bank, IBAN, holder) from the bank account records. */
  bankAccount?: { bankAccountId: string; bank: string; holderName: string; iban: string; fast: boolean };
};

export interface PanelTransactionFilters {
  type?: 'deposit' | 'withdrawal';
  state?: string[];
  merchantId?: string;
  providerId?: string;
  /** created_at >= createdFrom (ISO date-time with offset). */
  createdFrom?: string;
  /** created_at <= createdUntil. */
  createdUntil?: string;
  /** created_at < createdBefore. */
  createdBefore?: string;
  /**
   * Text in external id, customer name/username (Turkish letters folded: `ozturk` finds `Öztürk`),
   * destination or receiving IBAN (spaces ignored), the exact number or its `TG-<number>` reference,
   * or the exact amount in a Turkish spelling (`45.000,00`).
   */
  q?: string;
  bankAccountId?: string;
  /** Inclusive amount range. */
  amountMinKurus?: bigint;
  amountMaxKurus?: bigint;
  /** Default createdAt, newest first. */
  sort?: 'createdAt' | 'amount' | 'number' | 'urgency';
  order?: 'asc' | 'desc';
  /** 1..200. */
  limit: number;
  /** Opaque: the `nextCursor` of the previous page. */
  cursor?: string;
}

export interface PanelTransactionPage {
  items: PanelTransactionRecord[];
  nextCursor: string | null;
}

/** Newest first, keyset-paginated on (created_at, transaction_id). A malformed cursor is a 400. */
export class ListPanelTransactionsQuery extends Query<PanelTransactionPage> {
  constructor(readonly filters: PanelTransactionFilters) {
    super();
  }
}

/** One recorded event of a transaction's stream. */
export interface PanelTransactionHistoryEvent {
  type: string;
  version: number;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: { actor?: string; actorName?: string; source?: string; ip?: string };
  createdAt: string;
}

export interface PanelTransactionFound {
  /** Current state, folded from the stream (no projection lag). */
  view: TransactionView;
  /** The whole stream, oldest first (only when asked for). */
  history?: PanelTransactionHistoryEvent[];
  /** With the history: the bank statement line matched to this transaction, if any. */
  paidBy?: PanelPaidByLine;
}

/** The bank statement line that paid a deposit (or paid out a withdrawal), as the panel links to it. */
export interface PanelPaidByLine {
  lineId: string;
  bankAccountId: string;
  bankReference: string | null;
  amountKurus: string;
  bookedOn: string;
}

/**
 * Any transaction by internal UUID (straight from its stream) or integer number (through the read
 * model), for any provider: the panel sees them all.
 */
export class FindPanelTransactionQuery extends Query<PanelTransactionFound | null> {
  constructor(
    /** A lower-case UUID or a digit string (see TransactionRefSchema). */
    readonly ref: string,
    readonly withHistory = false,
  ) {
    super();
  }
}

/** What the panel needs to create a transaction on a provider's behalf. */
export interface PanelProviderRef {
  providerId: string;
  number: number;
  name: string;
  merchantId: string;
  infrastructureId: string;
  active: boolean;
}

/** A provider by id or integer number. */
export class FindPanelProviderQuery extends Query<PanelProviderRef | null> {
  constructor(readonly ref: string) {
    super();
  }
}

/** At most this many pending amount changes are listed (oldest first): a queue longer than that is worked down first. */
export const MAX_PENDING_AMOUNT_CHANGES_LISTED = 200;

/** The transactions with an amount change waiting for a second operator, oldest request first. */
export class ListPendingAmountChangesQuery extends Query<TransactionView[]> {
  constructor(readonly limit: number = MAX_PENDING_AMOUNT_CHANGES_LISTED) {
    super();
  }
}
