import { Query } from '@nestjs/cqrs';
import type { EventData } from '../events/catalog.js';

/**
 * Reads of the back-office records, answered by the ledger from its read models. The ledger strips
 * every secret before answering (sealed provider secrets, password hashes, TOTP secrets), so none
 * of them can leave it through a query. Amounts stay kuruş decimal strings; the panel presents them.
 */
export interface RecordRow<R> {
  record: R;
  /** Soft-deleted (merchants and providers); always false for the other kinds. */
  deleted: boolean;
  updatedAt: string;
}

export type MerchantRow = RecordRow<EventData<'MerchantConfigured'>> & {
  /** Posted credits − posted debits of the merchant's balance account. */
  balanceKurus: string;
  /** Balance less pending (reserved) debits. */
  availableKurus: string;
  providerCount: number;
};

export type ProviderRecord = Omit<EventData<'ProviderConfigured'>, 'apiSecretSealed' | 'previousApiSecretSealed'>;
export type ProviderRow = RecordRow<ProviderRecord> & {
  merchantName: string | null;
  infrastructureSlug: string | null;
};

export type InfrastructureRow = RecordRow<EventData<'InfrastructureConfigured'>>;

export type BankAccountRow = RecordRow<EventData<'BankAccountConfigured'>> & {
  /** Volume issued today (Turkish business day, UTC+3), as the receiving-account selector counts it. */
  issuedTodayKurus: string;
};

export type OperatorPublicRecord = Omit<EventData<'OperatorConfigured'>, 'passwordHash' | 'totpSecretSealed'>;
export type OperatorRow = RecordRow<OperatorPublicRecord> & { twoFactorEnabled: boolean };

export type RoleRow = RecordRow<EventData<'RoleConfigured'>>;

export interface RecordRows {
  merchant: MerchantRow;
  provider: ProviderRow;
  infrastructure: InfrastructureRow;
  bankAccount: BankAccountRow;
  operator: OperatorRow;
  role: RoleRow;
}
export type RecordKind = keyof RecordRows;
export const RECORD_KINDS: readonly RecordKind[] = [
  'merchant',
  'provider',
  'infrastructure',
  'bankAccount',
  'operator',
  'role',
];

export interface RecordListOptions {
  /** Soft-deleted merchants/providers and deleted roles are left out unless asked for. */
  includeDeleted?: boolean;
  /** Providers only: those of one merchant. */
  merchantId?: string;
}

/** Every record of a kind, ordered by its natural key. */
export class ListRecordsQuery<K extends RecordKind> extends Query<RecordRows[K][]> {
  constructor(
    readonly kind: K,
    readonly options: RecordListOptions = {},
  ) {
    super();
  }
}

/**
 * One record by id or by natural key (merchant/provider/role name, infrastructure slug, IBAN,
 * username). Deleted records are found too (their row says `deleted`).
 */
export class GetRecordQuery<K extends RecordKind> extends Query<RecordRows[K] | null> {
  constructor(
    readonly kind: K,
    readonly by: { id: string } | { key: string },
  ) {
    super();
  }
}
