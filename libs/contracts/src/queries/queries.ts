import { Query } from '@nestjs/cqrs';
import type { TransactionView } from '../commands/transaction-commands.js';
import type { StatusLookup } from '../http/status.js';

/** What the gateway needs to authenticate a caller; the secret is unsealed only for this. */
export interface ProviderCredentials {
  providerId: string;
  number: number;
  name: string;
  apiKey: string;
  apiSecret: string;
  /** The secret a rotation replaced, accepted until `previousApiSecretUntil` (ISO 8601 UTC) passes. */
  previousApiSecret?: string;
  previousApiSecretUntil?: string;
  apiAllowedIps: string[];
  active: boolean;
  merchantId: string;
  merchantActive: boolean;
  infrastructureId: string;
  apiForm: 'merchant' | 'h2h' | 'infrastructure';
  callbackDeposit: string;
  callbackWithdrawal: string;
  /** A sandbox provider: may decide its own transactions through POST /sandbox/transactions/…. */
  sandbox?: boolean;
}

export class FindProviderByApiKeyQuery extends Query<ProviderCredentials | null> {
  constructor(readonly apiKey: string) {
    super();
  }
}

/**
 * A committed batch of the ledger projection changed a provider, merchant or infrastructure record,
 * so answers of FindProviderByApiKeyQuery cached in a process may be stale. Published on the
 * projection's own EventBus before the batch's waiters are released (the embedded app: the answer to
 * a change is never followed, in that process, by a request authenticated against the old record),
 * and in distributed mode broadcast to every process (BROADCAST_NOTICES) before they are released too.
 */
export class ProviderDirectoryChanged {}

/** Finds a provider's transaction by what `by` says the identifier is (its external id by default). */
export class FindTransactionQuery extends Query<TransactionView | null> {
  constructor(
    readonly providerId: string,
    readonly identifier: string,
    readonly by: StatusLookup = 'transactionId',
  ) {
    super();
  }
}

/** The deposit behind a payment-page token (the token is the customer's only credential). */
/** What the payment page shows: the transaction and the name of the merchant it pays. */
export type PaymentPageTransaction = TransactionView & { merchantName?: string };

export class FindTransactionByPaymentTokenQuery extends Query<PaymentPageTransaction | null> {
  constructor(readonly paymentToken: string) {
    super();
  }
}

/** A bank that currently has at least one active receiving account (GET /banks, the payment page). */
export interface BankSummary {
  /** Stable opaque id: the bank's 5-digit EFT code. */
  id: string;
  name: string;
  code: string;
  fast: boolean;
}

export class ListBanksQuery extends Query<BankSummary[]> {}
