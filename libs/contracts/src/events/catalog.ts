import type { z } from 'zod';
import * as tx from './transaction-events.js';
import * as ledger from './ledger-events.js';
import * as config from './config-events.js';
import * as recon from '../reconciliation/events.js';
import * as auth from './auth-events.js';
import * as risk from '../risk/risk-events.js';
import * as personal from './personal-data-events.js';
import {
  ERASED_TEXT,
  NO_PERSONAL_DATA,
  subjectIdentity,
  valuesAt,
  type PersonalDataDeclaration,
} from './personal-data.js';

/**
 * Every event type with its current schema version, payload schema and personal-data declaration
 * (personal-data.ts): the one catalogue.
 */
export const EVENT_CATALOG = {
  DepositRequested: { version: 1, schema: tx.DepositRequestedV1, personalData: tx.DepositRequestedPersonalData },
  WithdrawalRequested: {
    version: 1,
    schema: tx.WithdrawalRequestedV1,
    personalData: tx.WithdrawalRequestedPersonalData,
  },
  PaymentReported: { version: 1, schema: tx.PaymentReportedV1, personalData: tx.PaymentReportedPersonalData },
  TransactionAssigned: {
    version: 1,
    schema: tx.TransactionAssignedV1,
    personalData: tx.TransactionAssignedPersonalData,
  },
  TransactionAmountChanged: { version: 1, schema: tx.TransactionAmountChangedV1, personalData: NO_PERSONAL_DATA },
  AmountChangeRequested: { version: 1, schema: tx.AmountChangeRequestedV1, personalData: NO_PERSONAL_DATA },
  AmountChangeApproved: { version: 1, schema: tx.AmountChangeApprovedV1, personalData: NO_PERSONAL_DATA },
  AmountChangeRejected: { version: 1, schema: tx.AmountChangeRejectedV1, personalData: NO_PERSONAL_DATA },
  TransactionApproved: { version: 1, schema: tx.TransactionApprovedV1, personalData: NO_PERSONAL_DATA },
  TransactionRejected: { version: 1, schema: tx.TransactionRejectedV1, personalData: NO_PERSONAL_DATA },
  TransactionExpired: { version: 1, schema: tx.TransactionExpiredV1, personalData: NO_PERSONAL_DATA },
  WebhookAmountMismatched: { version: 1, schema: tx.WebhookAmountMismatchedV1, personalData: NO_PERSONAL_DATA },
  TransfersPosted: { version: 1, schema: ledger.TransfersPostedV1, personalData: NO_PERSONAL_DATA },
  TransfersReserved: { version: 1, schema: ledger.TransfersReservedV1, personalData: NO_PERSONAL_DATA },
  ReservationPosted: { version: 1, schema: ledger.ReservationPostedV1, personalData: NO_PERSONAL_DATA },
  ReservationVoided: { version: 1, schema: ledger.ReservationVoidedV1, personalData: NO_PERSONAL_DATA },
  ReservationChanged: { version: 1, schema: ledger.ReservationChangedV1, personalData: NO_PERSONAL_DATA },
  InfrastructureConfigured: {
    version: 1,
    schema: config.InfrastructureConfiguredV1,
    personalData: config.InfrastructureConfiguredPersonalData,
  },
  MerchantConfigured: {
    version: 1,
    schema: config.MerchantConfiguredV1,
    personalData: config.MerchantConfiguredPersonalData,
  },
  ProviderConfigured: {
    version: 1,
    schema: config.ProviderConfiguredV1,
    personalData: config.ProviderConfiguredPersonalData,
  },
  BankAccountConfigured: {
    version: 1,
    schema: config.BankAccountConfiguredV1,
    personalData: config.BankAccountConfiguredPersonalData,
  },
  OperatorConfigured: {
    version: 1,
    schema: config.OperatorConfiguredV1,
    personalData: config.OperatorConfiguredPersonalData,
  },
  RoleConfigured: { version: 1, schema: config.RoleConfiguredV1, personalData: config.RoleConfiguredPersonalData },
  ApiKeyClaimed: { version: 1, schema: config.ApiKeyClaimedV1, personalData: NO_PERSONAL_DATA },
  OperationGuidClaimed: { version: 1, schema: config.OperationGuidClaimedV1, personalData: NO_PERSONAL_DATA },
  MerchantDeleted: {
    version: 1,
    schema: config.MerchantDeletedV1,
    personalData: config.MerchantConfiguredPersonalData,
  },
  ProviderDeleted: {
    version: 1,
    schema: config.ProviderDeletedV1,
    personalData: config.ProviderConfiguredPersonalData,
  },
  ProviderSecretRevealed: { version: 1, schema: config.ProviderSecretRevealedV1, personalData: NO_PERSONAL_DATA },
  ApiSettingsConfigured: { version: 1, schema: config.ApiSettingsConfiguredV1, personalData: NO_PERSONAL_DATA },
  StatementImported: {
    version: 1,
    schema: recon.StatementImportedV1,
    personalData: recon.StatementImportedPersonalData,
  },
  StatementLineImported: {
    version: 1,
    schema: recon.StatementLineImportedV1,
    personalData: recon.StatementLineImportedPersonalData,
  },
  StatementLineAssessed: { version: 1, schema: recon.StatementLineAssessedV1, personalData: NO_PERSONAL_DATA },
  StatementLineMatched: { version: 1, schema: recon.StatementLineMatchedV1, personalData: NO_PERSONAL_DATA },
  StatementMatchClaimed: { version: 1, schema: recon.StatementMatchClaimedV1, personalData: NO_PERSONAL_DATA },
  StatementLineClaimed: { version: 1, schema: recon.StatementLineClaimedV1, personalData: NO_PERSONAL_DATA },
  StatementLineDismissed: { version: 1, schema: recon.StatementLineDismissedV1, personalData: NO_PERSONAL_DATA },
  ReconciliationSettingsConfigured: {
    version: 1,
    schema: recon.ReconciliationSettingsConfiguredV1,
    personalData: NO_PERSONAL_DATA,
  },
  OperatorSignedIn: { version: 1, schema: auth.OperatorSignedInV1, personalData: auth.SignInPersonalData },
  OperatorSignInFailed: { version: 1, schema: auth.OperatorSignInFailedV1, personalData: auth.SignInPersonalData },
  OperatorSecondFactorVerified: {
    version: 1,
    schema: auth.OperatorSecondFactorVerifiedV1,
    personalData: auth.SignInPersonalData,
  },
  OperatorSecondFactorFailed: {
    version: 1,
    schema: auth.OperatorSecondFactorFailedV1,
    personalData: auth.SignInPersonalData,
  },
  PersonalDataEncrypted: { version: 1, schema: personal.PersonalDataEncryptedV1, personalData: NO_PERSONAL_DATA },
  CustomerErased: { version: 1, schema: personal.CustomerErasedV1, personalData: NO_PERSONAL_DATA },
  RetentionApplied: { version: 1, schema: personal.RetentionAppliedV1, personalData: NO_PERSONAL_DATA },
  CallbacksRecoveryRequested: {
    version: 1,
    schema: config.CallbacksRecoveryRequestedV1,
    personalData: NO_PERSONAL_DATA,
  },
  RiskRuleConfigured: {
    version: 1,
    schema: risk.RiskRuleConfiguredV1,
    personalData: risk.RiskRuleConfiguredPersonalData,
  },
  BlocklistEntriesAdded: {
    version: 1,
    schema: risk.BlocklistEntriesAddedV1,
    personalData: risk.BlocklistEntriesAddedPersonalData,
  },
  BlocklistEntriesRemoved: {
    version: 1,
    schema: risk.BlocklistEntriesRemovedV1,
    personalData: risk.BlocklistEntriesRemovedPersonalData,
  },
  RiskRuleHit: { version: 1, schema: risk.RiskRuleHitV1, personalData: NO_PERSONAL_DATA },
  RiskHoldReleased: { version: 1, schema: risk.RiskHoldReleasedV1, personalData: NO_PERSONAL_DATA },
} as const satisfies Record<string, { version: number; schema: z.ZodType; personalData: PersonalDataDeclaration }>;

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
  /** A merchant's callback recoveries from the portal (one event each). */
  callbackRecovery: (merchantId: string) => `callback-recovery-${merchantId}`,
  /** A receiving account's statement lines and every decision on them. */
  bankStatement: (bankAccountId: string) => `bank-statement-${bankAccountId}`,
  /** Claims a deposit for one statement line (no_stream): never matched twice. */
  statementMatch: (transactionId: string) => `statement-match-${transactionId}`,
  /** Claims a statement line for its one decision (no_stream): never matched twice, never matched once dismissed. */
  statementLineClaim: (lineId: string) => `statement-line-claim-${lineId}`,
  reconciliationSettings: (infrastructureId: string) => `reconciliation-settings-${infrastructureId}`,
  /** Sign-ins of one operator; failed ones for names that are no operator share `signin-unknown`. */
  signIn: (operatorId: string | undefined) => `signin-${operatorId ?? 'unknown'}`,
  /** Every risk rule change (RiskRuleConfigured, BlocklistEntriesAdded/Removed), in one stream. */
  riskRules: () => 'risk-rules',
  /** Hits of requests a risk rule refused (they have no transaction stream), per merchant. */
  riskRefusals: (merchantId: string) => `risk-refusals-${merchantId}`,
  /** The record of a store's one-time upgrade (PersonalDataEncrypted), one stream per upgrade. */
  storeUpgrade: (epoch: string) => `store-upgrade-${epoch}`,
  /** Every customer erasure (CustomerErased), in one stream: rare, and read back as one log. */
  erasures: () => 'personal-data-erasures',
} as const;

/**
 * The catalogue's personal-data declarations as the event store's encode/decode layer takes them
 * (PersonalDataPolicy in libs/event-store): the personal paths of a type and how its customer is named.
 */
export function personalDataPolicy(): {
  fieldsOf(type: string):
    | {
        personal: readonly string[];
        identity(data: unknown): string | null;
        merchantOf(data: unknown): string | undefined;
      }
    | undefined;
  erasedText: string;
} {
  const byType = new Map(
    Object.entries(EVENT_CATALOG)
      .filter(([, entry]) => entry.personalData.personal.length > 0)
      .map(([type, entry]) => {
        const declaration: PersonalDataDeclaration = entry.personalData;
        return [
          type,
          {
            personal: declaration.personal,
            identity: (data: unknown) => subjectIdentity(declaration, data),
            merchantOf: (data: unknown) => {
              const path = declaration.subject?.merchantId;
              const value = path ? valuesAt(data, path)[0] : undefined;
              return typeof value === 'string' && value !== '' ? value : undefined;
            },
          },
        ] as const;
      }),
  );
  return { fieldsOf: (type) => byType.get(type), erasedText: ERASED_TEXT };
}
