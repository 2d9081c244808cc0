import { Command } from '@nestjs/cqrs';
import { z } from 'zod';
import type { ActorRef } from '../commands/transaction-commands.js';
import { MAX_SECRET_OVERLAP_SECONDS, type ConfigResult } from '../commands/config-commands.js';
import { requestText } from '../http/text.js';
import { RecordIdSchema } from './records.js';
import { CallbackRefSchema } from './callbacks.js';

/**
 * The merchant portal (/portal/…): users scoped to one merchant, each with one of these roles. A
 * merchant user signs in like an operator (/api/auth/login, 2FA); its merchant comes from its
 * account, never from a request.
 */
export const MERCHANT_ROLE_NAMES = ['merchant_admin', 'merchant_developer', 'merchant_viewer'] as const;
export type MerchantRoleName = (typeof MERCHANT_ROLE_NAMES)[number];

export function isMerchantRole(role: string): role is MerchantRoleName {
  return (MERCHANT_ROLE_NAMES as readonly string[]).includes(role);
}

/** Roles whose accounts must have 2FA before they can sign in. */
export const TWO_FACTOR_REQUIRED_ROLES: readonly MerchantRoleName[] = ['merchant_admin'];

const Username = requestText(64)
  .min(3)
  .regex(/^[A-Za-z0-9._@-]+$/, 'letters, digits and . _ @ - only');

/** POST /panel/merchant-users/invite (an operator) — the merchant is named. */
export const OperatorInviteMerchantUserRequestSchema = z.object({
  merchantId: RecordIdSchema,
  username: Username,
  role: z.enum(MERCHANT_ROLE_NAMES),
});

/** POST /portal/users/invite (a merchant admin) — always into the admin's own merchant. */
export const PortalInviteRequestSchema = z.object({
  username: Username,
  role: z.enum(MERCHANT_ROLE_NAMES),
});

/** GET /portal/transactions: these filters only (a merchantId or providerId in the query is ignored). */
export const PORTAL_TRANSACTION_FILTERS = ['type', 'state', 'q', 'limit', 'cursor'] as const;

/** POST /portal/providers/rotate-secret. */
export const PortalRotateSecretRequestSchema = z.object({
  id: RecordIdSchema,
  overlapSeconds: z.number().int().min(0).max(MAX_SECRET_OVERLAP_SECONDS).optional(),
});

/** POST /portal/providers/end-secret-overlap. */
export const PortalProviderRefSchema = z.object({ id: RecordIdSchema });

/** POST /portal/callbacks/resend. */
export const PortalCallbackResendRequestSchema = z.object({ id: CallbackRefSchema });

/**
 * Creates a merchant user (an account of the operators' kind scoped to `merchantId`) with a
 * generated temporary password (hashed by the ledger). The username must be free.
 */
export class InviteMerchantUserCommand extends Command<ConfigResult> {
  constructor(
    readonly input: { merchantId: string; username: string; role: MerchantRoleName; password: string },
    readonly actor: ActorRef,
  ) {
    super();
  }
}

/** The longest time range one recovery covers: 7 days. */
export const MAX_RECOVERY_RANGE_MS = 7 * 86_400_000;

/** POST /portal/callbacks/recover: resend every failed callback created in [from, to). */
export const PortalRecoverRequestSchema = z
  .object({ from: z.iso.datetime({ offset: true }), to: z.iso.datetime({ offset: true }) })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), { message: 'from must be before to', path: ['from'] })
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= MAX_RECOVERY_RANGE_MS, {
    message: 'the range may cover 7 days at most',
    path: ['to'],
  });

/** Records a recovery (CallbacksRecoveryRequested) before its callbacks are resent. */
export class RecordCallbackRecoveryCommand extends Command<void> {
  constructor(
    readonly input: { merchantId: string; from: string; to: string; deliveryIds: string[] },
    readonly actor: ActorRef,
  ) {
    super();
  }
}

const CallbackUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .nullable();

/** POST /portal/providers/callback-urls: the merchant's own callback URLs (null: the infrastructure's). */
export const PortalCallbackUrlsRequestSchema = z.object({
  id: RecordIdSchema,
  callbackDeposit: CallbackUrl,
  callbackWithdrawal: CallbackUrl,
});

/** Sets or clears (null) a provider's own callback URLs; the ledger applies the egress policy. */
export class SetProviderCallbackUrlsCommand extends Command<ConfigResult> {
  constructor(
    readonly providerId: string,
    readonly urls: { callbackDeposit: string | null; callbackWithdrawal: string | null },
    readonly actor: ActorRef,
  ) {
    super();
  }
}
