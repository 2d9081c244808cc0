import { z } from 'zod';
import { KurusStringSchema } from '../money/kurus.js';
import { declarePersonalData } from './personal-data.js';

/**
 * Events of one transaction's stream (`txn-<uuid>`). Every event type carries a schema version;
 * a change to a payload means a new version with an upcaster, never an edit of an old one.
 */

export const API_FORMS = ['merchant', 'h2h', 'infrastructure', 'panel'] as const;
export const ApiFormSchema = z.enum(API_FORMS);
export type ApiForm = z.infer<typeof ApiFormSchema>;

/** `held`: a risk rule holds the transaction until an operator releases or rejects it. */
export const DEPOSIT_STATES = [
  'awaiting_payment',
  'payment_reported',
  'held',
  'approved',
  'rejected',
  'expired',
] as const;
export const WITHDRAWAL_STATES = ['pending', 'processing', 'held', 'approved', 'rejected'] as const;
export const TRANSACTION_STATES = [...new Set([...DEPOSIT_STATES, ...WITHDRAWAL_STATES])] as const;
export type TransactionState = (typeof DEPOSIT_STATES)[number] | (typeof WITHDRAWAL_STATES)[number];
export const FINAL_STATES: readonly TransactionState[] = ['approved', 'rejected'];

const CustomerSchema = z.object({
  fullName: z.string(),
  username: z.string().optional(),
  userId: z.string().optional(),
  senderName: z.string().optional(),
  /** Optional contact and identity fields some forms send (screened against blocklists). */
  nationalId: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
});

const OriginSchema = z.object({
  merchantId: z.string(),
  providerId: z.string(),
  infrastructureId: z.string(),
  form: ApiFormSchema,
  externalId: z.string(),
  /** sha256 of the canonical request payload: a repeat with another payload is a duplicate (409). */
  requestFingerprint: z.string(),
  callbackUrl: z.string().optional(),
  /** Where the payment page links back to (a deposit's return URL, on a registered origin). Optional, added later. */
  returnUrl: z.string().optional(),
  /** form-specific echo fields kept for callbacks (OperationGuid, SecurityKey ...). */
  echo: z.record(z.string(), z.string()).default({}),
});

export const DepositRequestedV1 = OriginSchema.extend({
  transactionId: z.uuid(),
  number: z.number().int().positive(),
  amountKurus: KurusStringSchema,
  customer: CustomerSchema,
  /** What the customer was told to pay into: kept as issued, whatever the account's later config. */
  receivingAccount: z.object({
    bankAccountId: z.string(),
    bank: z.string(),
    bankCode: z.string(),
    holderName: z.string(),
    iban: z.string(),
    fast: z.boolean(),
  }),
  paymentToken: z.string(),
  expiresAt: z.iso.datetime(),
});

const CUSTOMER_FIELDS = [
  'customer.fullName',
  'customer.username',
  'customer.userId',
  'customer.senderName',
  'customer.nationalId',
  'customer.email',
  'customer.phone',
];
const RECEIVING_ACCOUNT = "the gateway's receiving account as configured by operators, not the customer's";

/** The customer's name, username, user id, sender name, national id, e-mail and phone; the receiving account is the gateway's own. */
export const DepositRequestedPersonalData = declarePersonalData({
  personal: CUSTOMER_FIELDS,
  notPersonal: { 'receivingAccount.holderName': RECEIVING_ACCOUNT, 'receivingAccount.iban': RECEIVING_ACCOUNT },
  subject: { merchantId: 'merchantId', userId: 'customer.userId', name: 'customer.fullName', ibans: [] },
});

export const WithdrawalRequestedV1 = OriginSchema.extend({
  transactionId: z.uuid(),
  number: z.number().int().positive(),
  amountKurus: KurusStringSchema,
  feeKurus: KurusStringSchema,
  customer: CustomerSchema,
  iban: z.string(),
});

/** The customer's fields and the IBAN paid out to. */
export const WithdrawalRequestedPersonalData = declarePersonalData({
  personal: [...CUSTOMER_FIELDS, 'iban'],
  notPersonal: {},
  subject: { merchantId: 'merchantId', userId: 'customer.userId', name: 'customer.fullName', ibans: ['iban'] },
});

const ActorSchema = z.object({ operatorId: z.string().optional(), source: z.string() });

/** Bounds of what a customer reports with "I have paid" (both optional: events without them parse too). */
export const PAYMENT_REPORT_BANK_MAX_CHARS = 64;

/**
 * The customer said "I have paid" on the payment page, optionally naming the bank they sent from and
 * when they sent it (the payment page asks; older events carry neither).
 */
export const PaymentReportedV1 = z.object({
  transactionId: z.uuid(),
  /** The bank the customer says they sent from, as they typed or chose it. */
  senderBank: z.string().min(1).max(PAYMENT_REPORT_BANK_MAX_CHARS).optional(),
  /** When the customer says they sent the transfer (an ISO date-time). */
  transferredAt: z.iso.datetime({ offset: true }).optional(),
});
export const PaymentReportedPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { senderBank: 'the name of a bank (a company), not of the customer' },
});
export const TransactionAssignedV1 = z.object({ transactionId: z.uuid(), assignee: z.string(), by: ActorSchema });
export const TransactionAssignedPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { assignee: 'an operator (staff), kept for the audit trail of who handled the transaction' },
});
export const TransactionAmountChangedV1 = z.object({
  transactionId: z.uuid(),
  fromKurus: KurusStringSchema,
  toKurus: KurusStringSchema,
  feeKurus: KurusStringSchema,
  by: ActorSchema,
});
/**
 * An operator asked for an amount change that needs a second operator (its size above the configured
 * sum or share of the requested amount): nothing moves until another operator approves it. `lineId`
 * names the statement line when the change came from a match at the received amount.
 */
export const AmountChangeRequestedV1 = z.object({
  transactionId: z.uuid(),
  requestId: z.uuid(),
  fromKurus: KurusStringSchema,
  toKurus: KurusStringSchema,
  /** The amount the transaction was first requested with (what the change is measured against). */
  originalKurus: KurusStringSchema,
  lineId: z.uuid().optional(),
  by: ActorSchema,
});
/** A second operator approved a requested amount change (the TransactionAmountChanged follows in the same append). */
export const AmountChangeApprovedV1 = z.object({
  transactionId: z.uuid(),
  requestId: z.uuid(),
  fromKurus: KurusStringSchema,
  toKurus: KurusStringSchema,
  /** The operator who asked for it (never the one who approves). */
  requestedBy: z.string(),
  by: ActorSchema,
});
/** A second operator refused a requested amount change: the amount stays. */
export const AmountChangeRejectedV1 = z.object({
  transactionId: z.uuid(),
  requestId: z.uuid(),
  fromKurus: KurusStringSchema,
  toKurus: KurusStringSchema,
  requestedBy: z.string(),
  reason: z.string(),
  by: ActorSchema,
});
export const TransactionApprovedV1 = z.object({
  transactionId: z.uuid(),
  amountKurus: KurusStringSchema,
  fromState: z.string(),
  by: ActorSchema,
});
export const TransactionRejectedV1 = z.object({
  transactionId: z.uuid(),
  reason: z.string(),
  fromState: z.string(),
  by: ActorSchema,
});
export const TransactionExpiredV1 = z.object({ transactionId: z.uuid() });
/**
 * An upstream webhook said the transaction was paid with another amount than it has: it was not
 * approved, and this stays in its history for the operator who decides (changes nothing else).
 */
export const WebhookAmountMismatchedV1 = z.object({
  transactionId: z.uuid(),
  amountKurus: KurusStringSchema,
  paidAmountKurus: KurusStringSchema,
  by: ActorSchema,
});
