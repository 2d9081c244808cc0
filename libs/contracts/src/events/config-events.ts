import { z } from 'zod';
import { KurusStringSchema } from '../money/kurus.js';
import { declarePersonalData } from './personal-data.js';

/**
 * Configuration changes are events too: each carries the whole record after the change, so the
 * previous event of the stream is the "before" and the audit trail needs no second table.
 */
export const API_FORM_NAMES = ['merchant', 'h2h', 'infrastructure'] as const;
export const CALLBACK_FORMATS = ['merchant', 'h2h', 'infrastructure', 'md5'] as const;

export const InfrastructureConfiguredV1 = z.object({
  infrastructureId: z.string(),
  name: z.string(),
  slug: z.string(),
  apiForm: z.enum(API_FORM_NAMES),
  callbackFormat: z.enum(CALLBACK_FORMATS),
  callbackDeposit: z.string(),
  callbackWithdrawal: z.string(),
  webhookAllowedIps: z.array(z.string()),
});
export const InfrastructureConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: {
    name: "a payment infrastructure's (a company's) name",
    'webhookAllowedIps[]': "the infrastructure's servers, not a person's device",
  },
});

export const MerchantConfiguredV1 = z.object({
  merchantId: z.string(),
  name: z.string(),
  active: z.boolean(),
  minAmountKurus: KurusStringSchema,
  maxAmountKurus: KurusStringSchema,
  depositCommissionBp: z.number().int().min(0).max(10_000),
  withdrawalCommissionBp: z.number().int().min(0).max(10_000),
  overdraftLimitKurus: KurusStringSchema,
});
/** Also MerchantDeleted's: the same record. */
export const MerchantConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { name: "a merchant's (a company's) name" },
});

export const ProviderConfiguredV1 = z.object({
  providerId: z.string(),
  /** The contract's integer `providerId` of /test-auth. */
  number: z.number().int().positive(),
  merchantId: z.string(),
  infrastructureId: z.string(),
  name: z.string(),
  apiKey: z.string(),
  /** AES-256-GCM ciphertext (see SecretBox); the plain secret never enters the event stream. */
  apiSecretSealed: z.string(),
  /**
   * The secret a rotation replaced, sealed like `apiSecretSealed`, still accepted until
   * `previousApiSecretUntil` (ISO 8601 UTC): the rotation's overlap window. Both are present or
   * neither; a rotation with no overlap, or the overlap ended early, leaves them out.
   */
  previousApiSecretSealed: z.string().optional(),
  previousApiSecretUntil: z.iso.datetime().optional(),
  apiAllowedIps: z.array(z.string()),
  active: z.boolean(),
  /**
   * The merchant's own callback URLs for this provider's transactions (set in the portal; the egress
   * policy applies). Absent: the infrastructure's.
   */
  callbackDeposit: z.string().optional(),
  callbackWithdrawal: z.string().optional(),
  /**
   * A sandbox (test) provider: its own transactions may be approved or rejected through the API
   * (POST /sandbox/transactions/…), without an operator. Present only when true (added later).
   */
  sandbox: z.literal(true).optional(),
});
/** Also ProviderDeleted's: the same record. */
export const ProviderConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: {
    name: "a provider's (an integration's) name",
    'apiAllowedIps[]': "the merchant's servers, not a person's device",
  },
});

export const BankAccountConfiguredV1 = z.object({
  bankAccountId: z.string(),
  bank: z.string(),
  bankCode: z.string(),
  iban: z.string(),
  holderName: z.string(),
  fast: z.boolean(),
  minAmountKurus: KurusStringSchema,
  maxAmountKurus: KurusStringSchema,
  dailyLimitKurus: KurusStringSchema,
  active: z.boolean(),
});
const RECEIVING_ACCOUNT = "a receiving account of the gateway's, under contract: kept with the configuration";
export const BankAccountConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { iban: RECEIVING_ACCOUNT, holderName: RECEIVING_ACCOUNT },
});

export const OperatorConfiguredV1 = z.object({
  operatorId: z.string(),
  username: z.string(),
  passwordHash: z.string(),
  role: z.string(),
  active: z.boolean(),
  /** TOTP secret sealed with the SecretBox key; present once 2FA is confirmed. */
  totpSecretSealed: z.string().optional(),
  /**
   * A merchant user: the account sees and acts on this merchant only (the portal, /portal/…) and
   * holds a merchant role (merchant_admin, merchant_developer, merchant_viewer). Absent: an operator.
   */
  merchantId: z.string().optional(),
});
export const OperatorConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { username: 'an operator (staff) account, kept for the audit trail of who did what' },
});

/** A role and its permission set; `deleted` retires it (its stream stays as the audit trail). */
export const RoleConfiguredV1 = z.object({
  roleId: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  deleted: z.boolean(),
});
export const RoleConfiguredPersonalData = declarePersonalData({
  personal: [],
  notPersonal: { name: "a role's name" },
});

/**
 * A merchant's soft deletion: the whole record (deactivated) plus `deleted`, on the merchant's own
 * stream, so the gateway refuses its providers like a disabled merchant's and the stream keeps the
 * history. Saving the merchant again (or toggling it with restore) appends a MerchantConfigured.
 */
export const MerchantDeletedV1 = MerchantConfiguredV1.extend({ deleted: z.literal(true) });

/** A provider's soft deletion: the whole record (deactivated, secret still sealed) plus `deleted`. */
export const ProviderDeletedV1 = ProviderConfiguredV1.extend({ deleted: z.literal(true) });

/** An operator revealed a provider's API secret (the event records who and from where; never the secret). */
export const ProviderSecretRevealedV1 = z.object({ providerId: z.string(), apiKey: z.string() });

/** The most failed callbacks one recovery resends (a merchant narrows the time range for more). */
export const MAX_CALLBACKS_PER_RECOVERY = 200;

/**
 * A merchant user asked to resend every failed callback of its merchant created in [from, to): the
 * one audit entry of a recovery (who and from where in the metadata), naming the callbacks resent.
 */
export const CallbacksRecoveryRequestedV1 = z.object({
  merchantId: z.string(),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  deliveryIds: z.array(z.string()).max(MAX_CALLBACKS_PER_RECOVERY),
});

/** The operator-editable API settings, by their names in ApiSettingsConfigured. */
export const API_SETTING_KEYS = [
  'testAuthEnabled',
  'paymentPageUrl',
  'depositTtlMinutes',
  'callbackRetryScheduleSeconds',
  'rateLimitPerMinute',
] as const;
export type ApiSettingKey = (typeof API_SETTING_KEYS)[number];

/**
 * The operator-editable API settings (/panel/settings/api), the whole set after each change.
 * `explicitKeys` names the settings an operator has set; every other one is the running
 * configuration (environment) of each process, whatever value is stored beside it. Events written
 * before `explicitKeys` existed count every key as set (what they meant then).
 */
export const ApiSettingsConfiguredV1 = z.object({
  testAuthEnabled: z.boolean(),
  paymentPageUrl: z.string(),
  depositTtlMinutes: z.number().int().min(1).max(1440),
  callbackRetryScheduleSeconds: z.array(z.number().int().min(0).max(86_400)).min(1).max(20),
  rateLimitPerMinute: z.number().int().min(0).max(1_000_000),
  explicitKeys: z.array(z.enum(API_SETTING_KEYS)).optional(),
});

/** The settings an operator has set, and only those (the rest follow each process's configuration). */
export function explicitApiSettings(
  stored: z.infer<typeof ApiSettingsConfiguredV1> | null | undefined,
): Partial<Omit<z.infer<typeof ApiSettingsConfiguredV1>, 'explicitKeys'>> {
  if (!stored) return {};
  const keys = stored.explicitKeys ?? API_SETTING_KEYS;
  return Object.fromEntries(keys.map((key) => [key, stored[key]]));
}

/**
 * Claimed an Infrastructure API OperationGuid for one request of a provider, in a stream of its own
 * (`operation-guid-<provider>-<sha256 of the GUID>`) appended with no_stream beside the transaction.
 * Written by older builds; the request's own append writes a key row instead (services/ledger
 * persistence/operation-guid-guard.ts), which is filled from these events once when such a store is
 * upgraded. Kept so that such stores still read.
 */
export const OperationGuidClaimedV1 = z.object({
  providerId: z.string(),
  operationGuid: z.string(),
  transactionId: z.uuid(),
});

/** Claims an API key for one provider: appended with no_stream, so a key can never have two owners. */
export const ApiKeyClaimedV1 = z.object({ providerId: z.string(), apiKeyHash: z.string() });
