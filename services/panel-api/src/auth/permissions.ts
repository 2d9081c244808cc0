import { isMerchantRole, type MerchantRoleName } from '@transfergate/contracts';

/**
 * The permission catalogue (GET /api/config/permissions) and the built-in roles. Custom roles
 * (/panel/roles/save) hold any subset; a built-in role's name cannot be redefined.
 */
export const PERMISSIONS = {
  'transactions.view': 'See deposits and withdrawals, their history and callbacks',
  'transactions.approve': 'Approve deposits and withdrawals',
  'transactions.approve_expired': 'Approve a deposit after it expired',
  'transactions.reject': 'Reject deposits and withdrawals',
  'transactions.assign': 'Assign withdrawals to an operator',
  'transactions.update': 'Change amounts and details of open transactions',
  'transactions.create': 'Create transactions from the panel',
  'merchants.view': 'See merchants (dealers)',
  'merchants.manage': 'Create, change, toggle and delete merchants',
  'statements.view': 'See merchant account statements (ledger entries and balances, JSON and CSV)',
  'providers.view': 'See providers (API clients)',
  'providers.manage': 'Create, change and delete providers; rotate keys',
  'providers.reveal_secret': 'Reveal a provider API secret',
  'infrastructures.view': 'See infrastructures',
  'infrastructures.manage': 'Create and change infrastructures',
  'bank_accounts.view': 'See receiving bank accounts',
  'bank_accounts.manage': 'Create and change receiving bank accounts',
  'operators.view': 'See operators',
  'operators.manage': 'Create and change operators',
  'roles.view': 'See roles',
  'roles.manage': 'Create, change and delete roles',
  'settings.view': 'See API settings',
  'settings.manage': 'Change API settings',
  'audit.view': 'Query the audit log of operator actions',
  'callbacks.view': 'See the callback and webhook logs',
  'callbacks.resend': 'Resend a callback',
  'reconciliation.view': 'See imported bank statements, the reconciliation queue and its setting',
  'reconciliation.import': 'Import bank statements of receiving accounts',
  'reconciliation.decide': 'Match statement lines to deposits (also needs transactions.approve) or dismiss them',
  'reconciliation.manage': 'Turn automatic approval of strong statement matches on or off per infrastructure',
  'risk.view': 'See risk rules (blocklists, velocity limits) and blocklist entries',
  'risk.manage': 'Create and change risk rules; import and remove blocklist entries',
  'risk.review': 'Release transactions a risk rule holds (rejecting them needs transactions.reject)',
  'secrets.view': 'See request signatures and hashes (SecurityKey, hash, signature) in histories and callback logs',
} as const;

export type Permission = keyof typeof PERMISSIONS;
export const ALL_PERMISSIONS = Object.keys(PERMISSIONS) as Permission[];

// secrets.view is not a read of records: a SecurityKey seen is a credential (admin only by default).
const VIEW = ALL_PERMISSIONS.filter((p) => p.endsWith('.view') && p !== 'secrets.view');

export const BUILT_IN_ROLES: Record<string, readonly Permission[]> = {
  admin: ALL_PERMISSIONS,
  operator: [
    'transactions.view',
    'transactions.approve',
    'transactions.reject',
    'transactions.assign',
    'transactions.update',
    'transactions.create',
    'merchants.view',
    'providers.view',
    'bank_accounts.view',
    'callbacks.view',
    'callbacks.resend',
    'reconciliation.view',
    'reconciliation.import',
    'reconciliation.decide',
    'risk.review',
  ],
  finance: [
    ...VIEW.filter((p) => p !== 'operators.view' && p !== 'roles.view'),
    'transactions.approve_expired',
    'bank_accounts.manage',
    'reconciliation.import',
    'reconciliation.decide',
    'reconciliation.manage',
  ],
  auditor: VIEW,
};

/**
 * The merchant portal's permissions: held only through a merchant role by a merchant user (an
 * account with a merchantId), never by an operator's role (custom roles hold operator permissions
 * only), and always exercised on the account's own merchant.
 */
export const PORTAL_PERMISSIONS = {
  'portal.view': "See the merchant's transactions with their callbacks, its balance and providers",
  'portal.callbacks': "Resend the merchant's callbacks",
  'portal.credentials': "Rotate the merchant's API secrets and end an overlap window",
  'portal.users': 'Invite users to the merchant',
} as const;
export type PortalPermission = keyof typeof PORTAL_PERMISSIONS;

export function isPortalPermission(value: string): value is PortalPermission {
  return Object.hasOwn(PORTAL_PERMISSIONS, value);
}

export const MERCHANT_ROLES: Record<MerchantRoleName, readonly PortalPermission[]> = {
  merchant_admin: ['portal.view', 'portal.callbacks', 'portal.credentials', 'portal.users'],
  merchant_developer: ['portal.view', 'portal.callbacks', 'portal.credentials'],
  merchant_viewer: ['portal.view'],
};

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(PERMISSIONS, value);
}

/**
 * What an account may do: a merchant user (merchantId set) the permissions of its merchant role, an
 * operator those of its role (`operatorRole` reads built-in and custom roles). Anything across the
 * line (a merchant user with an operator role, an operator with a merchant role) holds nothing.
 */
export async function accountPermissions(
  account: { role: string; merchantId?: string | undefined },
  operatorRole: (role: string) => Promise<Permission[]>,
): Promise<Array<Permission | PortalPermission>> {
  const merchantRole = isMerchantRole(account.role);
  if (account.merchantId !== undefined)
    return merchantRole ? [...MERCHANT_ROLES[account.role as MerchantRoleName]] : [];
  return merchantRole ? [] : operatorRole(account.role);
}
