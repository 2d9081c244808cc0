import { z } from 'zod';
import { ApiFormSchema, TRANSACTION_STATES } from '../events/transaction-events.js';
import { rawText, requestText } from '../http/text.js';
import { AmountSchema } from '../money/kurus.js';
import { parseTurkishAmountKurus } from '../money/turkish-amount.js';

/**
 * Panel transaction bodies and answers (the contract names the routes only; the shapes are ours).
 * Amounts travel as JSON numbers of TRY on the wire and as bigint kuruş inside.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A transaction reference as operators type it: the internal UUID, or for convenience the integer
 * number (as a JSON number or a digit string). Normalised to a lower-case UUID or a digit string.
 */
export const TransactionRefSchema = z.union([z.string().trim(), z.number()]).transform((value, ctx) => {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value;
  if (UUID.test(text)) return text.toLowerCase();
  if (/^[1-9]\d{0,14}$/.test(text)) return text;
  ctx.addIssue({ code: 'custom', message: 'must be a transaction UUID or its positive integer number' });
  return z.NEVER;
});

export const PanelTransactionActionRequestSchema = z.object({ id: TransactionRefSchema });
export const PanelRejectRequestSchema = z.object({ id: TransactionRefSchema, reason: requestText(500) });
export const PanelAssignRequestSchema = z.object({ id: TransactionRefSchema, assignee: requestText(64).optional() });
export const PanelUpdateAmountRequestSchema = z.object({ id: TransactionRefSchema, amount: AmountSchema });
/** POST /panel/amount-changes/approve: the transaction and the request the approver saw. */
export const PanelAmountChangeApproveRequestSchema = z.object({ id: TransactionRefSchema, requestId: z.uuid() });
/** POST /panel/amount-changes/reject: the same, with the reason. */
export const PanelAmountChangeRejectRequestSchema = PanelAmountChangeApproveRequestSchema.extend({
  reason: requestText(500),
});

/**
 * update-quick: the queue's one-click edit, amount and/or assignee. Strict: an unknown key is a 400,
 * never silently ignored.
 */
export const PanelUpdateQuickRequestSchema = z
  .strictObject({ id: TransactionRefSchema, amount: AmountSchema.optional(), assignee: requestText(64).optional() })
  .refine((body) => body.amount !== undefined || body.assignee !== undefined, {
    message: 'give amount and/or assignee',
  });

/**
 * update-full: the whole edit form sent back. Fields equal to the current values are no-ops; the
 * ledger has commands only for the amount and the assignee, so a changed `customerName` or `iban` is
 * refused (400) before anything is written.
 */
export const PanelUpdateFullRequestSchema = z.strictObject({
  id: TransactionRefSchema,
  amount: AmountSchema.optional(),
  assignee: requestText(64).optional(),
  customerName: requestText(128).optional(),
  iban: rawText(64).optional(),
});

const CreateFieldsSchema = z.object({
  merchantId: requestText(64),
  /** The provider's id, or its integer number. */
  providerId: z.union([requestText(64), z.number().int().positive().transform(String)]),
  amount: AmountSchema,
  customerName: requestText(128),
  customerUsername: requestText(64).optional(),
  externalId: requestText(128).optional(),
});
export const PanelDepositCreateRequestSchema = CreateFieldsSchema;
export const PanelWithdrawalCreateRequestSchema = CreateFieldsSchema.extend({ iban: rawText(64) });

export const TRANSACTION_LIST_MAX_LIMIT = 200;
export const TRANSACTION_LIST_DEFAULT_LIMIT = 50;

export const TRANSACTION_LIST_SORTS = ['createdAt', 'amount', 'number', 'urgency'] as const;

const TurkishAmountFilterSchema = z.string().transform((text, ctx) => {
  const kurus = parseTurkishAmountKurus(text);
  if (kurus === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a positive TRY amount such as 45000, 45.000 or 45.000,50' });
    return z.NEVER;
  }
  return kurus;
});

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DateBoundSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * GET /panel/transactions query string. A date without time is a Turkish business day (UTC+3):
 * `from` starts at its 00:00, `to` includes the whole day; a date-time bound is inclusive as given.
 */
export const PanelTransactionListRequestSchema = z
  .object({
    type: z.enum(['deposit', 'withdrawal']).optional(),
    /** One state or a comma-separated list (`pending,processing`). */
    state: z
      .string()
      .transform((text) => [...new Set(text.split(',').map((s) => s.trim()))])
      .pipe(z.array(z.enum(TRANSACTION_STATES)).min(1).max(TRANSACTION_STATES.length))
      .optional(),
    merchantId: requestText(64).optional(),
    providerId: requestText(64).optional(),
    from: DateBoundSchema.optional(),
    to: DateBoundSchema.optional(),
    q: requestText(128).optional(),
    /** Receiving account of a deposit. */
    bankAccountId: requestText(64).optional(),
    /** Amount range in TRY, inclusive, in any Turkish spelling (`45.000`, `45000,00`). */
    amountMin: TurkishAmountFilterSchema.optional(),
    amountMax: TurkishAmountFilterSchema.optional(),
    /**
     * Order: `createdAt` (default), `amount`, `number`, or `urgency` (reported payments and assigned
     * withdrawals first, then waiting ones, then expired, then final ones; newest first within each).
     */
    sort: z.enum(TRANSACTION_LIST_SORTS).default('createdAt'),
    order: z
      .enum(['asc', 'desc', 'ASC', 'DESC'])
      .transform((o) => o.toLowerCase() as 'asc' | 'desc')
      .optional(),
    limit: z.coerce.number().int().min(1).max(TRANSACTION_LIST_MAX_LIMIT).default(TRANSACTION_LIST_DEFAULT_LIMIT),
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,512}$/, 'not a cursor from this list')
      .optional(),
  })
  .refine((f) => f.amountMin === undefined || f.amountMax === undefined || f.amountMin <= f.amountMax, {
    message: 'amountMin must not exceed amountMax',
    path: ['amountMin'],
  })
  .transform(({ from, to, amountMin, amountMax, sort, order, ...rest }) => ({
    ...rest,
    sort,
    // Newest first by default; urgency reads most urgent first.
    order: order ?? (sort === 'urgency' ? 'asc' : 'desc'),
    ...(amountMin !== undefined ? { amountMinKurus: amountMin } : {}),
    ...(amountMax !== undefined ? { amountMaxKurus: amountMax } : {}),
    ...(from ? { createdFrom: DATE_ONLY.test(from) ? `${from}T00:00:00+03:00` : from } : {}),
    ...(to ? (DATE_ONLY.test(to) ? { createdBefore: nextDayStart(to) } : { createdUntil: to }) : {}),
  }));

function nextDayStart(day: string): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return `${next.toISOString().slice(0, 10)}T00:00:00+03:00`;
}

export type PanelTransactionListRequest = z.infer<typeof PanelTransactionListRequestSchema>;

/** One transaction as the panel shows it. `id` is the internal UUID, `number` the integer id. */
export const PanelTransactionSchema = z.object({
  id: z.uuid(),
  number: z.number().int(),
  type: z.enum(['deposit', 'withdrawal']),
  state: z.enum(TRANSACTION_STATES),
  merchantId: z.string(),
  providerId: z.string(),
  infrastructureId: z.string(),
  form: ApiFormSchema,
  externalId: z.string(),
  /** TRY, current amount. */
  amount: z.number(),
  /** TRY, the amount as first requested (kept when the amount is changed). */
  originalAmount: z.number(),
  /** TRY, withdrawal fee reserved with the amount (0 for deposits). */
  fee: z.number(),
  currency: z.literal('TRY'),
  customer: z.object({ fullName: z.string(), username: z.string().optional(), userId: z.string().optional() }),
  /** Withdrawal: destination IBAN. */
  iban: z.string().optional(),
  /** Deposit: the receiving account the customer was told to pay into. */
  bankAccountId: z.string().optional(),
  /** Deposit: the receiving account as issued (action answers and the detail; not in the list). */
  bankAccount: z
    .object({
      bankAccountId: z.string(),
      bank: z.string(),
      holderName: z.string(),
      iban: z.string(),
      fast: z.boolean(),
    })
    .optional(),
  expiresAt: z.string().optional(),
  assignee: z.string().optional(),
  /** Rejection reason. */
  reason: z.string().optional(),
  /** An amount change waiting for a second operator (four eyes); TRY amounts. */
  pendingAmountChange: z
    .object({
      requestId: z.uuid(),
      fromAmount: z.number(),
      toAmount: z.number(),
      /** The operator who asked: id, and username when known. */
      requestedBy: z.string(),
      requestedByName: z.string().optional(),
      requestedAt: z.string(),
      lineId: z.string().optional(),
    })
    .optional(),
  /** Deposit: what the customer reported with "I have paid" (the bank sent from, the time of the transfer). */
  paymentReport: z.object({ senderBank: z.string().optional(), transferredAt: z.string().optional() }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PanelTransaction = z.infer<typeof PanelTransactionSchema>;

/** GET /panel/amount-changes: the transactions whose amount change waits for a second operator, oldest request first. */
export const PanelAmountChangeListSchema = z.object({ items: z.array(PanelTransactionSchema) });
export type PanelAmountChangeList = z.infer<typeof PanelAmountChangeListSchema>;

export const PanelTransactionListSchema = z.object({
  items: z.array(PanelTransactionSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type PanelTransactionList = z.infer<typeof PanelTransactionListSchema>;

/** One event of the transaction's stream (`txn-<uuid>`), as recorded. */
export const PanelTransactionEventSchema = z.object({
  type: z.string(),
  version: z.number().int(),
  schemaVersion: z.number().int(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.object({
    actor: z.string().optional(),
    /** The acting operator's username, so every reader sees who decided (not only operators.view). */
    actorName: z.string().optional(),
    source: z.string().optional(),
    ip: z.string().optional(),
  }),
  createdAt: z.string(),
});
export type PanelTransactionEvent = z.infer<typeof PanelTransactionEventSchema>;

export const PanelTransactionDetailSchema = PanelTransactionSchema.extend({
  history: z.array(PanelTransactionEventSchema),
  /** The bank statement line matched to it (reconciliation), when there is one. */
  paidBy: z
    .object({
      lineId: z.string(),
      bankAccountId: z.string(),
      bankReference: z.string().nullable(),
      amount: z.number(),
      bookedOn: z.string(),
    })
    .optional(),
});
export type PanelTransactionDetail = z.infer<typeof PanelTransactionDetailSchema>;

export * from './transactions-queries.js';
