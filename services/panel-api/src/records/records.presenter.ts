import {
  kurusToNumber,
  type BankAccountRow,
  type InfrastructureRow,
  type MerchantRow,
  type OperatorRow,
  type PanelBankAccount,
  type PanelInfrastructure,
  type PanelMerchant,
  type PanelOperator,
  type PanelProvider,
  type PanelRole,
  type ProviderRow,
  type RoleRow,
} from '@transfergate/contracts';

/** Read rows → panel JSON: TRY numbers for money, percent for commissions, never a secret. */
const try_ = (kurus: string) => kurusToNumber(BigInt(kurus));
const percent = (basisPoints: number) => basisPoints / 100;

export function merchantView(row: MerchantRow): PanelMerchant {
  const r = row.record;
  return {
    id: r.merchantId,
    name: r.name,
    active: r.active,
    deleted: row.deleted,
    minAmount: try_(r.minAmountKurus),
    maxAmount: try_(r.maxAmountKurus),
    depositCommissionPercent: percent(r.depositCommissionBp),
    withdrawalCommissionPercent: percent(r.withdrawalCommissionBp),
    overdraftLimit: try_(r.overdraftLimitKurus),
    balance: try_(row.balanceKurus),
    available: try_(row.availableKurus),
    providerCount: row.providerCount,
    updatedAt: row.updatedAt,
  };
}

export function providerView(row: ProviderRow): PanelProvider {
  const r = row.record;
  return {
    id: r.providerId,
    /** The contract's integer providerId of /test-auth. */
    number: r.number,
    name: r.name,
    merchantId: r.merchantId,
    merchantName: row.merchantName,
    infrastructureId: r.infrastructureId,
    infrastructureSlug: row.infrastructureSlug,
    apiKey: r.apiKey,
    apiAllowedIps: r.apiAllowedIps,
    active: r.active,
    sandbox: r.sandbox === true,
    previousSecretValidUntil:
      r.previousApiSecretUntil !== undefined && Date.parse(r.previousApiSecretUntil) > Date.now()
        ? r.previousApiSecretUntil
        : null,
    callbackDeposit: r.callbackDeposit ?? null,
    callbackWithdrawal: r.callbackWithdrawal ?? null,
    deleted: row.deleted,
    updatedAt: row.updatedAt,
  };
}

export function infrastructureView(row: InfrastructureRow): PanelInfrastructure {
  const r = row.record;
  return {
    id: r.infrastructureId,
    name: r.name,
    slug: r.slug,
    apiForm: r.apiForm,
    callbackFormat: r.callbackFormat,
    callback_deposit: r.callbackDeposit,
    callback_withdrawal: r.callbackWithdrawal,
    webhookAllowedIps: r.webhookAllowedIps,
    updatedAt: row.updatedAt,
  };
}

export function bankAccountView(row: BankAccountRow): PanelBankAccount {
  const r = row.record;
  return {
    id: r.bankAccountId,
    bank: r.bank,
    bankCode: r.bankCode,
    iban: r.iban,
    holderName: r.holderName,
    fast: r.fast,
    minAmount: try_(r.minAmountKurus),
    maxAmount: try_(r.maxAmountKurus),
    dailyLimit: try_(r.dailyLimitKurus),
    /** Issued today (Turkish business day), as the receiving-account selector counts it. */
    issuedToday: try_(row.issuedTodayKurus),
    active: r.active,
    updatedAt: row.updatedAt,
  };
}

export function operatorView(row: OperatorRow): PanelOperator {
  const r = row.record;
  return {
    id: r.operatorId,
    username: r.username,
    role: r.role,
    active: r.active,
    twoFactorEnabled: row.twoFactorEnabled,
    merchantId: r.merchantId ?? null,
    updatedAt: row.updatedAt,
  };
}

export function customRoleView(row: RoleRow): PanelRole {
  const r = row.record;
  return {
    id: r.roleId,
    name: r.name,
    permissions: r.permissions,
    builtIn: false,
    deleted: row.deleted,
    updatedAt: row.updatedAt as string | null,
  };
}
