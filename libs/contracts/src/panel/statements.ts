import { Query } from '@nestjs/cqrs';
import { z } from 'zod';
import { DomainError } from '../errors/domain-error.js';
import { KurusStringSchema } from '../money/kurus.js';

/**
 * A merchant's account statement for [from, to): opening balance, every entry of the merchant's
 * ledger stream (`merchant-ledger-<id>`) in stream order, closing balance. It is folded from the
 * event stream alone (never from a read model), so it can be reproduced from the events at any time
 * and a statement of a past range never changes.
 *
 * Two balances, because withdrawals are two-phase:
 * - `booked`: posted credits − posted debits (what the merchant has been paid / has paid out);
 * - `available`: booked − open holds (pending withdrawal reservations); what a new withdrawal may use.
 * A hold shows as an entry in phase `pending` (available goes down, booked does not move); its
 * approval as `posted` (booked goes down, available does not move again); its rejection or an amount
 * change as `voided` (the hold is released: available goes back up).
 */

/** Longest range one statement covers (TIGER_STYLE: explicit limits). */
export const MAX_STATEMENT_RANGE_DAYS = 366;
/** Most entries one statement lists; a busier range must be asked for in parts. */
export const MAX_STATEMENT_ENTRIES = 10_000;
const DAY_MS = 86_400_000;

export const STATEMENT_ENTRY_TYPES = ['deposit', 'withdrawal', 'fee', 'other'] as const;
export type StatementEntryType = (typeof STATEMENT_ENTRY_TYPES)[number];
export const STATEMENT_PHASES = ['pending', 'posted', 'voided'] as const;
export type StatementPhase = (typeof STATEMENT_PHASES)[number];

export const StatementBalanceSchema = z.object({
  bookedKurus: KurusStringSchema,
  /** Sum of open holds (pending withdrawal reservations, fee included). */
  heldKurus: KurusStringSchema,
  availableKurus: KurusStringSchema,
});
export type StatementBalance = z.infer<typeof StatementBalanceSchema>;

export const StatementEntrySchema = z.object({
  /** Ledger time of the entry (ISO UTC, ms): when its event was recorded, never earlier than the one before. */
  at: z.string(),
  /** Version of the merchant's ledger stream that carries the entry (its stable position). */
  ledgerVersion: z.number().int().positive(),
  transactionId: z.uuid(),
  /** The contract's integer id of the transaction (null only if its stream could not be read). */
  transactionNumber: z.number().int().positive().nullable(),
  externalId: z.string().nullable(),
  transactionType: z.enum(['deposit', 'withdrawal']).nullable(),
  transferId: z.string(),
  type: z.enum(STATEMENT_ENTRY_TYPES),
  phase: z.enum(STATEMENT_PHASES),
  debitKurus: KurusStringSchema,
  creditKurus: KurusStringSchema,
  /** Deposits: the commission withheld from this credit (posted bank → fees, never through the merchant). */
  commissionKurus: KurusStringSchema,
  bookedBalanceKurus: KurusStringSchema,
  availableBalanceKurus: KurusStringSchema,
});
export type StatementEntry = z.infer<typeof StatementEntrySchema>;

export const MerchantStatementSchema = z.object({
  merchantId: z.uuid(),
  merchantName: z.string(),
  from: z.string(),
  to: z.string(),
  /** Stream versions bounding the range: entries are versions (openingVersion, closingVersion]. */
  openingLedgerVersion: z.number().int().nonnegative(),
  closingLedgerVersion: z.number().int().nonnegative(),
  opening: StatementBalanceSchema,
  closing: StatementBalanceSchema,
  totals: z.object({
    postedDebitsKurus: KurusStringSchema,
    postedCreditsKurus: KurusStringSchema,
    heldKurus: KurusStringSchema,
    releasedKurus: KurusStringSchema,
    commissionKurus: KurusStringSchema,
  }),
  entries: z.array(StatementEntrySchema),
});
export type MerchantStatement = z.infer<typeof MerchantStatementSchema>;

export interface StatementRange {
  /** Inclusive, ISO UTC with milliseconds. */
  from: string;
  /** Exclusive, ISO UTC with milliseconds. */
  to: string;
}

/** A date (`2026-11-01`, midnight UTC) or an ISO date-time with `Z` or an offset. */
const Instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const StatementRequestSchema = z.object({
  from: Instant,
  to: Instant,
  format: z.enum(['json', 'csv']).default('json'),
});
export type StatementRequest = z.infer<typeof StatementRequestSchema>;

/**
 * Normalises and checks a range: both instants to ISO UTC, from < to, at most MAX_STATEMENT_RANGE_DAYS.
 * A bad range is the caller's mistake (400 validation_failed).
 */
export function statementRange(from: string, to: string): StatementRange {
  const fromMs = Date.parse(from);
  const toMs = Date.parse(to);
  if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) {
    throw new DomainError('validation_failed', 'invalid request: from and to must be ISO dates or date-times');
  }
  if (fromMs >= toMs) throw new DomainError('validation_failed', 'invalid request: from must be before to');
  if (toMs - fromMs > MAX_STATEMENT_RANGE_DAYS * DAY_MS) {
    throw new DomainError(
      'validation_failed',
      `invalid request: a statement covers at most ${MAX_STATEMENT_RANGE_DAYS} days; ask for the range in parts`,
    );
  }
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
}

/**
 * The statement of one merchant (by id) for a range checked by `statementRange`, from the event
 * stream. An unknown merchant is `not_found`; more than MAX_STATEMENT_ENTRIES entries `validation_failed`.
 */
export class GetMerchantStatementQuery extends Query<MerchantStatement> {
  constructor(
    readonly merchantId: string,
    readonly range: StatementRange,
  ) {
    super();
  }
}
