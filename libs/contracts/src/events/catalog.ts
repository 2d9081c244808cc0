import type { z } from 'zod';
import * as tx from './transaction-events.js';
import * as ledger from './ledger-events.js';
import * as config from './config-events.js';
import * as recon from '../reconciliation/events.js';
import * as auth from './auth-events.js';

/** Every event type with its current schema version and payload schema: the one catalogue. */
export const EVENT_CATALOG = {
  DepositRequested: { version: 1, schema: tx.DepositRequestedV1 },
  WithdrawalRequested: { version: 1, schema: tx.WithdrawalRequestedV1 },
  PaymentReported: { version: 1, schema: tx.PaymentReportedV1 },
  TransactionAssigned: { version: 1, schema: tx.TransactionAssignedV1 },
  TransactionAmountChanged: { version: 1, schema: tx.TransactionAmountChangedV1 },
  AmountChangeRequested: { version: 1, schema: tx.AmountChangeRequestedV1 },
  AmountChangeApproved: { version: 1, schema: tx.AmountChangeApprovedV1 },
  AmountChangeRejected: { version: 1, schema: tx.AmountChangeRejectedV1 },
  TransactionApproved: { version: 1, schema: tx.TransactionApprovedV1 },
  TransactionRejected: { version: 1, schema: tx.TransactionRejectedV1 },
  TransactionExpired: { version: 1, schema: tx.TransactionExpiredV1 },
  WebhookAmountMismatched: { version: 1, schema: tx.WebhookAmountMismatchedV1 },
  TransfersPosted: { version: 1, schema: ledger.TransfersPostedV1 },
  TransfersReserved: { version: 1, schema: ledger.TransfersReservedV1 },
  ReservationPosted: { version: 1, schema: ledger.ReservationPostedV1 },
  ReservationVoided: { version: 1, schema: ledger.ReservationVoidedV1 },
  ReservationChanged: { version: 1, schema: ledger.ReservationChangedV1 },
  InfrastructureConfigured: { version: 1, schema: config.InfrastructureConfiguredV1 },
  MerchantConfigured: { version: 1, schema: config.MerchantConfiguredV1 },
  ProviderConfigured: { version: 1, schema: config.ProviderConfiguredV1 },
  BankAccountConfigured: { version: 1, schema: config.BankAccountConfiguredV1 },
  OperatorConfigured: { version: 1, schema: config.OperatorConfiguredV1 },
  RoleConfigured: { version: 1, schema: config.RoleConfiguredV1 },
  ApiKeyClaimed: { version: 1, schema: config.ApiKeyClaimedV1 },
  OperationGuidClaimed: { version: 1, schema: config.OperationGuidClaimedV1 },
  MerchantDeleted: { version: 1, schema: config.MerchantDeletedV1 },
  ProviderDeleted: { version: 1, schema: config.ProviderDeletedV1 },
  ProviderSecretRevealed: { version: 1, schema: config.ProviderSecretRevealedV1 },
  ApiSettingsConfigured: { version: 1, schema: config.ApiSettingsConfiguredV1 },
  StatementImported: { version: 1, schema: recon.StatementImportedV1 },
  StatementLineImported: { version: 1, schema: recon.StatementLineImportedV1 },
  StatementLineAssessed: { version: 1, schema: recon.StatementLineAssessedV1 },
  StatementLineMatched: { version: 1, schema: recon.StatementLineMatchedV1 },
  StatementMatchClaimed: { version: 1, schema: recon.StatementMatchClaimedV1 },
  StatementLineClaimed: { version: 1, schema: recon.StatementLineClaimedV1 },
  StatementLineDismissed: { version: 1, schema: recon.StatementLineDismissedV1 },
  ReconciliationSettingsConfigured: { version: 1, schema: recon.ReconciliationSettingsConfiguredV1 },
  OperatorSignedIn: { version: 1, schema: auth.OperatorSignedInV1 },
  OperatorSignInFailed: { version: 1, schema: auth.OperatorSignInFailedV1 },
  OperatorSecondFactorVerified: { version: 1, schema: auth.OperatorSecondFactorVerifiedV1 },
  OperatorSecondFactorFailed: { version: 1, schema: auth.OperatorSecondFactorFailedV1 },
} as const;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOG)[T]['schema']>;

/** A typed domain event as the ledger produces it, before the store gives it a position. */
export interface DomainEvent<T extends EventType = EventType> {
  type: T;
  data: EventData<T>;
}

export function domainEvent<T extends EventType>(type: T, data: EventData<T>): DomainEvent<T> {
  return { type, data: EVENT_CATALOG[type].schema.parse(data) as EventData<T> };
}

export const STREAMS = {
  transaction: (transactionId: string) => `txn-${transactionId}`,
  merchantLedger: (merchantId: string) => `merchant-ledger-${merchantId}`,
  merchant: (merchantId: string) => `merchant-${merchantId}`,
  provider: (providerId: string) => `provider-${providerId}`,
  infrastructure: (infrastructureId: string) => `infrastructure-${infrastructureId}`,
  bankAccount: (bankAccountId: string) => `bank-account-${bankAccountId}`,
  operator: (operatorId: string) => `operator-${operatorId}`,
  role: (roleId: string) => `role-${roleId}`,
  /** Keyed by sha256 of the API key: the key itself never names a stream. */
  apiKey: (apiKeyHash: string) => `api-key-${apiKeyHash}`,
  apiSettings: () => 'settings-api',
  providerSecretAccess: (providerId: string) => `provider-secret-access-${providerId}`,
  /** A receiving account's statement lines and every decision on them. */
  bankStatement: (bankAccountId: string) => `bank-statement-${bankAccountId}`,
  /** Claims a deposit for one statement line (no_stream): never matched twice. */
  statementMatch: (transactionId: string) => `statement-match-${transactionId}`,
  /** Claims a statement line for its one decision (no_stream): never matched twice, never matched once dismissed. */
  statementLineClaim: (lineId: string) => `statement-line-claim-${lineId}`,
  reconciliationSettings: (infrastructureId: string) => `reconciliation-settings-${infrastructureId}`,
  /** Sign-ins of one operator; failed ones for names that are no operator share `signin-unknown`. */
  signIn: (operatorId: string | undefined) => `signin-${operatorId ?? 'unknown'}`,
} as const;
