import { Command } from '@nestjs/cqrs';
import type { ApiForm, TransactionState } from '../events/transaction-events.js';
import type { Kurus } from '../money/kurus.js';

/**
 * Commands sent to the ledger. They are plain serialisable data (bigint kuruş is sent as a string
 * by the distributed transport), so the same classes travel over the in-process bus and NATS.
 */

export interface ActorRef {
  operatorId?: string;
  /** 'gateway', 'panel', 'webhook', 'system' ... */
  source: string;
  ip?: string;
  /**
   * The HTTP request that caused the command (`x-request-id`, or the id the gateway generated):
   * stamped on the events it appends, whose consumers log it and send it with the callback.
   * Carried on the command rather than in an AsyncLocalStorage, whose promise hook would run for
   * every promise of the process on Node 20 (request-context.ts in @transfergate/observability).
   */
  requestId?: string;
}

export interface CustomerRef {
  fullName: string;
  username?: string;
  userId?: string;
  /** Who sends the transfer, when the caller says it differs from fullName (H2H `sender_name`). */
  senderName?: string;
  /** Sent by some forms only: compared with blocklists, never required. */
  nationalId?: string;
  email?: string;
  phone?: string;
}

/** What the ledger answers for a created (or idempotently repeated) transaction. */
export interface TransactionView {
  transactionId: string;
  number: number;
  type: 'deposit' | 'withdrawal';
  state: TransactionState;
  merchantId: string;
  providerId: string;
  infrastructureId: string;
  form: ApiForm;
  externalId: string;
  amountKurus: string;
  originalAmountKurus: string;
  feeKurus: string;
  customer: CustomerRef;
  bankAccount?: { bankAccountId: string; bank: string; holderName: string; iban: string; fast: boolean };
  iban?: string;
  paymentToken?: string;
  expiresAt?: string;
  callbackUrl?: string;
  /** A deposit's return URL: the payment page links back to it. */
  returnUrl?: string;
  echo: Record<string, string>;
  assignee?: string;
  reason?: string;
  /** An amount change waiting for a second operator (at most one at a time; gone once decided or final). */
  pendingAmountChange?: PendingAmountChange;
  /** What the customer reported with "I have paid" (a deposit; either field may be absent). */
  paymentReport?: { senderBank?: string; transferredAt?: string };
  createdAt: string;
  updatedAt: string;
  /** true when this answer replays an earlier identical request. */
  replayed?: boolean;
}

/** An amount change asked for by one operator, waiting for another (four eyes). */
export interface PendingAmountChange {
  requestId: string;
  fromKurus: string;
  toKurus: string;
  /** The operator who asked (or the source, for a change without one). */
  requestedBy: string;
  requestedAt: string;
  /** The statement line a match at the received amount asked for it from. */
  lineId?: string;
}

interface OriginFields {
  merchantId: string;
  providerId: string;
  infrastructureId: string;
  form: ApiForm;
  externalId: string;
  amountKurus: Kurus;
  customer: CustomerRef;
  requestFingerprint: string;
  callbackUrl?: string;
  returnUrl?: string;
  echo?: Record<string, string>;
  actor: ActorRef;
}

export class RequestDepositCommand extends Command<TransactionView> {
  constructor(readonly input: OriginFields & { preferredBankCode?: string }) {
    super();
  }
}

export class RequestWithdrawalCommand extends Command<TransactionView> {
  constructor(readonly input: OriginFields & { iban: string }) {
    super();
  }
}

export class ReportPaymentCommand extends Command<TransactionView> {
  constructor(readonly input: { transactionId: string; actor: ActorRef; senderBank?: string; transferredAt?: string }) {
    super();
  }
}

export class AssignTransactionCommand extends Command<TransactionView> {
  constructor(readonly input: { transactionId: string; assignee: string; actor: ActorRef }) {
    super();
  }
}

/**
 * An operator sets an open transaction's amount. A change beyond the four-eyes limits is not made:
 * it is recorded as a request (`pendingAmountChange` of the answer) that another operator decides.
 */
export class ChangeAmountCommand extends Command<TransactionView> {
  constructor(
    readonly input: {
      transactionId: string;
      amountKurus: Kurus;
      actor: ActorRef;
      /** The statement line a match at the received amount makes the change for. */
      lineId?: string;
    },
  ) {
    super();
  }
}

/** A second operator approves or rejects a pending amount change (never the operator who asked). */
export class DecideAmountChangeCommand extends Command<TransactionView> {
  constructor(
    readonly input: {
      transactionId: string;
      requestId: string;
      decision: 'approve' | 'reject';
      /** Required for a rejection. */
      reason?: string;
      actor: ActorRef;
    },
  ) {
    super();
  }
}

export class ApproveTransactionCommand extends Command<TransactionView> {
  constructor(
    readonly input: {
      transactionId: string;
      actor: ActorRef;
      allowExpired?: boolean;
      /**
       * The amount the approver says was paid (an upstream webhook's): the approval happens only when
       * it equals the transaction's amount, else `amount_mismatch` and nothing changes.
       */
      paidAmountKurus?: string;
    },
  ) {
    super();
  }
}

/** Keeps a webhook's differing paid amount in the transaction's history (no state change). */
export class RecordWebhookAmountMismatchCommand extends Command<TransactionView> {
  constructor(readonly input: { transactionId: string; paidAmountKurus: string; actor: ActorRef }) {
    super();
  }
}

export class RejectTransactionCommand extends Command<TransactionView> {
  constructor(readonly input: { transactionId: string; reason: string; actor: ActorRef }) {
    super();
  }
}

export class ExpireTransactionCommand extends Command<TransactionView> {
  constructor(readonly input: { transactionId: string; now: Date }) {
    super();
  }
}
