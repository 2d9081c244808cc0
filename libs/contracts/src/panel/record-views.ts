import { z } from 'zod';
import { API_FORM_NAMES, CALLBACK_FORMATS } from '../events/config-events.js';

/**
 * The back-office records as the panel API answers them (/panel/merchants|dealers, providers,
 * infrastructures, bank-accounts, operators, roles, settings/api): the ledger's read rows
 * (records-queries.ts) presented by the panel API with money as TRY numbers, commissions as percent
 * and never a secret (services/panel-api/src/records/records.presenter.ts builds them).
 */

export const PanelMerchantSchema = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  deleted: z.boolean(),
  /** TRY. */
  minAmount: z.number(),
  maxAmount: z.number(),
  /** Percent (1.5 = 1.5 %). */
  depositCommissionPercent: z.number(),
  withdrawalCommissionPercent: z.number(),
  overdraftLimit: z.number(),
  /** Posted credits − posted debits, TRY. */
  balance: z.number(),
  /** Balance less pending (reserved) debits, TRY. */
  available: z.number(),
  providerCount: z.number().int(),
  updatedAt: z.string(),
});
export type PanelMerchant = z.infer<typeof PanelMerchantSchema>;

export const PanelProviderSchema = z.object({
  id: z.string(),
  /** The contract's integer providerId of /test-auth. */
  number: z.number().int(),
  name: z.string(),
  merchantId: z.string(),
  merchantName: z.string().nullable(),
  infrastructureId: z.string(),
  infrastructureSlug: z.string().nullable(),
  apiKey: z.string(),
  apiAllowedIps: z.array(z.string()),
  active: z.boolean(),
  sandbox: z.boolean(),
  /**
   * Until when (ISO 8601 UTC) the secret the last rotation replaced is still accepted beside the
   * current one; null when no overlap window is open.
   */
  previousSecretValidUntil: z.string().nullable(),
  /** The provider's own callback URLs (set by its merchant); null: the infrastructure's. */
  callbackDeposit: z.string().nullable(),
  callbackWithdrawal: z.string().nullable(),
  deleted: z.boolean(),
  updatedAt: z.string(),
});
export type PanelProvider = z.infer<typeof PanelProviderSchema>;

/** The contract's field names `callback_deposit` / `callback_withdrawal`. */
export const PanelInfrastructureSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  apiForm: z.enum(API_FORM_NAMES),
  callbackFormat: z.enum(CALLBACK_FORMATS),
  callback_deposit: z.string(),
  callback_withdrawal: z.string(),
  webhookAllowedIps: z.array(z.string()),
  updatedAt: z.string(),
});
export type PanelInfrastructure = z.infer<typeof PanelInfrastructureSchema>;

export const PanelBankAccountSchema = z.object({
  id: z.string(),
  bank: z.string(),
  bankCode: z.string(),
  iban: z.string(),
  holderName: z.string(),
  fast: z.boolean(),
  /** TRY. */
  minAmount: z.number(),
  maxAmount: z.number(),
  dailyLimit: z.number(),
  /** Issued today (Turkish business day, UTC+3), as the receiving-account selector counts it; TRY. */
  issuedToday: z.number(),
  active: z.boolean(),
  updatedAt: z.string(),
});
export type PanelBankAccount = z.infer<typeof PanelBankAccountSchema>;

export const PanelOperatorSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: z.string(),
  active: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** A merchant user's merchant; null for operators. */
  merchantId: z.string().nullable(),
  updatedAt: z.string(),
});
export type PanelOperator = z.infer<typeof PanelOperatorSchema>;

/** Roles are keyed by name; built-in roles have no record (id and updatedAt null). */
export const PanelRoleSchema = z.object({
  /** The custom role's record id; null for a built-in role. */
  id: z.string().nullable(),
  name: z.string(),
  permissions: z.array(z.string()),
  builtIn: z.boolean(),
  deleted: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type PanelRole = z.infer<typeof PanelRoleSchema>;

/** GET of a record kind: every record at once (the record routes do not page). */
export interface PanelRecordList<R> {
  items: R[];
}

/**
 * What the record writes answer (save, toggle, update-providers, delete): the record after the
 * write. `created` only on save. Role deletes answer `{ success, changed }` without a record.
 */
export interface PanelRecordWriteResponse<R> {
  success: true;
  created?: boolean;
  changed: boolean;
  record: R;
}

/** POST /panel/merchants/update-providers: also the providers whose merchant or active flag changed. */
export type PanelMerchantProvidersResponse = PanelRecordWriteResponse<PanelMerchant> & { changedProviders: string[] };

/**
 * POST /panel/providers/save. A new name creates the provider and the answer carries its generated
 * key and secret this one time; a known name (a deleted one too) changes it and carries no secret.
 */
export type PanelProviderSaveResponse = PanelRecordWriteResponse<PanelProvider> &
  (
    | { created: true; apiKey: string; apiSecret: string; message: string }
    | { created: false; apiKey?: undefined; apiSecret?: undefined }
  );

/** POST /panel/providers/reveal-secret (audited by the ledger before it answers). */
export interface PanelProviderRevealResponse {
  success: true;
  id: string;
  name: string;
  apiKey: string;
  apiSecret: string;
}

/**
 * POST /panel/providers/rotate-secret: the new secret, shown this one time, and until when the
 * replaced one is still accepted (null: a hard cut).
 */
export interface PanelProviderRotateResponse {
  success: true;
  id: string;
  apiKey: string;
  apiSecret: string;
  previousSecretValidUntil: string | null;
  record: PanelProvider;
  message: string;
}

/**
 * GET /panel/settings/api: the effective settings, the ones running: each one an operator has set,
 * else the runtime configuration (environment) of this process.
 */
export const PanelApiSettingsSchema = z.object({
  testAuthEnabled: z.boolean(),
  payment_page_url: z.string(),
  depositTtlMinutes: z.number().int(),
  /** Seconds; fractional when the environment's CALLBACK_RETRY_SCHEDULE_MS is not whole seconds. */
  callbackRetryScheduleSeconds: z.array(z.number()),
  rateLimitPerMinute: z.number().int(),
  /** false until an operator saved settings. */
  stored: z.boolean(),
  /** The settings an operator has set (wire names); the others come from the environment. */
  setByOperator: z.array(z.string()),
  updatedAt: z.string().nullable(),
  /** Operator id (or source) of the last change. */
  updatedBy: z.string().nullable(),
  /** Where a setting is not applied the way it reads (development mode, the running rate limiter). */
  notes: z.array(z.string()),
});
export type PanelApiSettings = z.infer<typeof PanelApiSettingsSchema>;

/** POST /panel/settings/api answers the settings after the change. */
export type PanelApiSettingsUpdateResponse = PanelApiSettings & { success: true; changed: boolean };
