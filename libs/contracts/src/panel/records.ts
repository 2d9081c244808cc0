import { z } from 'zod';
import { MAX_SECRET_OVERLAP_SECONDS } from '../commands/config-commands.js';
import { API_FORM_NAMES, CALLBACK_FORMATS } from '../events/config-events.js';
import { rawText, requestText } from '../http/text.js';
import { AmountSchema, percentToBasisPoints } from '../money/kurus.js';

/**
 * Bodies of the back-office record routes (/panel/merchants|dealers, providers, infrastructure,
 * bank-accounts, operators, roles). Records are keyed by their natural key (merchant and provider
 * name, infrastructure slug, IBAN, username, role name) like the provisioning file: `save` creates
 * the record when the key is new and otherwise changes only the fields it is given. Money is TRY
 * (number or numeric string), commissions are percent with at most two decimals.
 */

/** Commission percent (1.5 = 1.5 %) → basis points. */
export const PercentSchema = z
  .number()
  .min(0)
  .max(100)
  .transform((value, ctx) => {
    try {
      return percentToBasisPoints(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  });

/** A TRY amount that may be zero (overdraft limit). */
export const NonNegativeAmountSchema = z
  .union([z.literal(0), z.literal('0'), AmountSchema])
  .transform((v) => (v === 0 || v === '0' ? 0n : v));

/** One allow-list entry: an IPv4/IPv6 address or CIDR range. */
export const IpAllowListSchema = z.array(z.union([z.cidrv4(), z.cidrv6(), z.ipv4(), z.ipv6()])).max(100);

/** Ids of configuration records are name-based UUIDs. */
export const RecordIdSchema = z.uuid();

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const ROLE_NAME_PATTERN = /^[a-z][a-z0-9_-]{1,31}$/;
const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);

export const RecordIdRequestSchema = z.object({ id: RecordIdSchema });

/**
 * POST /panel/providers/rotate-secret: `overlapSeconds` keeps the replaced secret accepted that long
 * (0: a hard cut; absent: the configured default, SECRET_ROTATION_OVERLAP_HOURS).
 */
export const ProviderRotateSecretRequestSchema = z.object({
  id: RecordIdSchema,
  overlapSeconds: z.number().int().min(0).max(MAX_SECRET_OVERLAP_SECONDS).optional(),
});

export const MerchantSaveRequestSchema = z.object({
  /** Optional check: when given it must be the record the name keys. */
  id: RecordIdSchema.optional(),
  name: requestText(128),
  active: z.boolean().optional(),
  minAmount: AmountSchema.optional(),
  maxAmount: AmountSchema.optional(),
  depositCommissionPercent: PercentSchema.optional(),
  withdrawalCommissionPercent: PercentSchema.optional(),
  overdraftLimit: NonNegativeAmountSchema.optional(),
});
export type MerchantSaveRequest = z.infer<typeof MerchantSaveRequestSchema>;

/** `active` omitted flips the flag. */
export const MerchantToggleRequestSchema = z.object({ id: RecordIdSchema, active: z.boolean().optional() });

export const MerchantProvidersRequestSchema = z.object({
  id: RecordIdSchema,
  providerIds: z.array(RecordIdSchema).max(500),
});

/** Keys and secrets are never sent: the panel generates them on create (and on rotate-secret). */
export const ProviderSaveRequestSchema = z.object({
  id: RecordIdSchema.optional(),
  name: requestText(128),
  merchantId: RecordIdSchema.optional(),
  infrastructureId: RecordIdSchema.optional(),
  apiAllowedIps: IpAllowListSchema.optional(),
  active: z.boolean().optional(),
  /** A sandbox (test) provider: the integrator decides its transactions through the API. */
  sandbox: z.boolean().optional(),
});
export type ProviderSaveRequest = z.infer<typeof ProviderSaveRequestSchema>;

/** The contract's field names `callback_deposit` / `callback_withdrawal`. */
export const InfrastructureSaveRequestSchema = z.object({
  id: RecordIdSchema.optional(),
  slug: z.string().regex(SLUG, 'slug: 1..63 of a-z, 0-9 and -'),
  name: requestText(128).optional(),
  apiForm: z.enum(API_FORM_NAMES).optional(),
  callbackFormat: z.enum(CALLBACK_FORMATS).optional(),
  callback_deposit: httpUrl.optional(),
  callback_withdrawal: httpUrl.optional(),
  webhookAllowedIps: IpAllowListSchema.optional(),
});
export type InfrastructureSaveRequest = z.infer<typeof InfrastructureSaveRequestSchema>;

export const BankAccountSaveRequestSchema = z.object({
  id: RecordIdSchema.optional(),
  iban: requestText(64),
  bank: requestText(128).optional(),
  holderName: requestText(128).optional(),
  fast: z.boolean().optional(),
  minAmount: AmountSchema.optional(),
  maxAmount: AmountSchema.optional(),
  dailyLimit: AmountSchema.optional(),
  active: z.boolean().optional(),
});
export type BankAccountSaveRequest = z.infer<typeof BankAccountSaveRequestSchema>;

export const OperatorSaveRequestSchema = z.object({
  id: RecordIdSchema.optional(),
  username: requestText(64).min(3),
  /** Required on create; on change, a new password (the policy applies; the ledger hashes it). */
  password: rawText(256).optional(),
  role: requestText(32).optional(),
  active: z.boolean().optional(),
});
export type OperatorSaveRequest = z.infer<typeof OperatorSaveRequestSchema>;

export const RoleSaveRequestSchema = z.object({
  name: z.string().regex(ROLE_NAME_PATTERN, 'role name: 2..32 of a-z, 0-9, _ and -, starting with a letter'),
  permissions: z.array(z.string().max(64)).max(200),
});

export const RoleDeleteRequestSchema = z.object({ name: z.string().max(64) });

const flag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Query string of the list routes: deleted merchants and providers are listed only on request. */
export const RecordListQuerySchema = z.object({ includeDeleted: flag, merchantId: RecordIdSchema.optional() });
