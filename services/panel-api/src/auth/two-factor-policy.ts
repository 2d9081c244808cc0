import { TWO_FACTOR_REQUIRED_ROLES } from '@transfergate/contracts';

/** Merchant admins must have 2FA: without it they cannot open a session, nor turn it off. */
export function requiresTwoFactor(account: { role: string; merchantId?: string | undefined }): boolean {
  return account.merchantId !== undefined && (TWO_FACTOR_REQUIRED_ROLES as readonly string[]).includes(account.role);
}
