import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  GetRecordQuery,
  InfrastructureConfiguredV1,
  ListRecordsQuery,
  MerchantConfiguredV1,
  OperatorConfiguredV1,
  ProviderConfiguredV1,
  RoleConfiguredV1,
  BankAccountConfiguredV1,
  STREAMS,
  checkTurkishIban,
  type RecordKind,
  type RecordListOptions,
  type RecordRows,
} from '@transfergate/contracts';
import { EVENT_STORE, SQL_DATABASE, type PostgresEventStore, type SqlDatabase } from '@transfergate/event-store';
import { configIdFor } from '../persistence/ids.js';

/**
 * Back-office record reads. Lists come from the read models; one record by id or natural key
 * comes from its stream's last event (read-your-writes right after a save), with derived figures
 * (balance, names, today's volume) from the read models. Secrets never leave: provider records are
 * parsed without `apiSecretSealed` and `previousApiSecretSealed`, operators without `passwordHash` and `totpSecretSealed`.
 */

const PUBLIC_PROVIDER = ProviderConfiguredV1.omit({ apiSecretSealed: true, previousApiSecretSealed: true });
const PUBLIC_OPERATOR = OperatorConfiguredV1.omit({ passwordHash: true, totpSecretSealed: true });
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
/** Today's Turkish business day (UTC+3), as rm_bank_account_daily keys it. */
const TURKISH_TODAY = `((now() at time zone 'UTC') + interval '3 hours')::date`;

interface Row {
  id: string;
  record: Record<string, unknown>;
  updated_at: string;
  [extra: string]: unknown;
}

const isDeleted = (record: Record<string, unknown>) => record.deleted === true;

type Builder<K extends RecordKind> = (row: Row) => RecordRows[K];

const BUILD: { [K in RecordKind]: Builder<K> } = {
  merchant: (row) => ({
    record: MerchantConfiguredV1.parse(row.record),
    deleted: isDeleted(row.record),
    updatedAt: row.updated_at,
    balanceKurus: String(row.balance ?? '0'),
    availableKurus: String(row.available ?? '0'),
    providerCount: Number(row.provider_count ?? 0),
  }),
  provider: (row) => ({
    record: PUBLIC_PROVIDER.parse(row.record),
    deleted: isDeleted(row.record),
    updatedAt: row.updated_at,
    merchantName: (row.merchant_name as string | null) ?? null,
    infrastructureSlug: (row.infrastructure_slug as string | null) ?? null,
  }),
  infrastructure: (row) => ({
    record: InfrastructureConfiguredV1.parse(row.record),
    deleted: false,
    updatedAt: row.updated_at,
  }),
  bankAccount: (row) => ({
    record: BankAccountConfiguredV1.parse(row.record),
    deleted: false,
    updatedAt: row.updated_at,
    issuedTodayKurus: String(row.issued_today ?? '0'),
  }),
  operator: (row) => ({
    record: PUBLIC_OPERATOR.parse(row.record),
    deleted: false,
    updatedAt: row.updated_at,
    twoFactorEnabled: row.two_factor === true,
  }),
  role: (row) => ({
    record: RoleConfiguredV1.parse(row.record),
    deleted: isDeleted(row.record),
    updatedAt: row.updated_at,
  }),
};

/**
 * One SELECT per kind (a merchant's balance account is ACCOUNTS.merchant(id) = 'merchant:<id>'): `record` minus its secrets (in SQL, so they are not even read), extras
 * joined from the other read models. `$1` filters by id when given.
 */
const SELECT: Record<RecordKind, { sql: string; id: string; order: string }> = {
  merchant: {
    sql: `select m.merchant_id id, m.record, to_char(m.updated_at at time zone 'UTC', ${ISO}) updated_at,
            coalesce(b.credits_posted_kurus - b.debits_posted_kurus, 0)::text balance,
            coalesce(b.credits_posted_kurus - b.debits_posted_kurus - b.debits_pending_kurus, 0)::text available,
            (select count(*) from rm_providers p
              where p.merchant_id = m.merchant_id and coalesce((p.record->>'deleted')::boolean, false) = false
            )::int provider_count
          from rm_merchants m left join rm_balances b on b.account_id = 'merchant:' || m.merchant_id`,
    id: 'm.merchant_id',
    order: 'm.name',
  },
  provider: {
    sql: `select p.provider_id id, p.record - 'apiSecretSealed' - 'previousApiSecretSealed' record,
            to_char(p.updated_at at time zone 'UTC', ${ISO}) updated_at,
            m.name merchant_name, i.slug infrastructure_slug
          from rm_providers p
          left join rm_merchants m on m.merchant_id = p.merchant_id
          left join rm_infrastructures i on i.infrastructure_id = p.record->>'infrastructureId'`,
    id: 'p.provider_id',
    order: "p.record->>'name'",
  },
  infrastructure: {
    sql: `select i.infrastructure_id id, i.record, to_char(i.updated_at at time zone 'UTC', ${ISO}) updated_at
          from rm_infrastructures i`,
    id: 'i.infrastructure_id',
    order: 'i.slug',
  },
  bankAccount: {
    sql: `select a.bank_account_id id, a.record, to_char(a.updated_at at time zone 'UTC', ${ISO}) updated_at,
            coalesce(d.issued_kurus, 0)::text issued_today
          from rm_bank_accounts a
          left join rm_bank_account_daily d on d.bank_account_id = a.bank_account_id and d.day = ${TURKISH_TODAY}`,
    id: 'a.bank_account_id',
    order: 'a.iban',
  },
  operator: {
    sql: `select o.operator_id id, o.record - 'passwordHash' - 'totpSecretSealed' record,
            to_char(o.updated_at at time zone 'UTC', ${ISO}) updated_at, (o.record ? 'totpSecretSealed') two_factor
          from rm_operators o`,
    id: 'o.operator_id',
    order: 'o.username',
  },
  role: {
    sql: `select r.role_id id, r.record, to_char(r.updated_at at time zone 'UTC', ${ISO}) updated_at from rm_roles r`,
    id: 'r.role_id',
    order: 'r.name',
  },
};

/** A kind's stream and the id its natural key gives (the same derivation the Configure* handlers use). */
const STREAM_OF: Record<RecordKind, (id: string) => string> = {
  merchant: STREAMS.merchant,
  provider: STREAMS.provider,
  infrastructure: STREAMS.infrastructure,
  bankAccount: STREAMS.bankAccount,
  operator: STREAMS.operator,
  role: STREAMS.role,
};

function idFromKey(kind: RecordKind, key: string): string | undefined {
  switch (kind) {
    case 'merchant':
      return configIdFor.merchant(key);
    case 'provider':
      return configIdFor.provider(key);
    case 'infrastructure':
      return configIdFor.infrastructure(key);
    case 'bankAccount': {
      const iban = checkTurkishIban(key);
      return iban.ok ? configIdFor.bankAccount(iban.iban) : undefined;
    }
    case 'operator':
      return configIdFor.operator(key);
    case 'role':
      return configIdFor.role(key);
  }
}

@QueryHandler(ListRecordsQuery)
export class ListRecordsHandler implements IQueryHandler<ListRecordsQuery<RecordKind>, RecordRows[RecordKind][]> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ kind, options }: ListRecordsQuery<RecordKind>): Promise<RecordRows[RecordKind][]> {
    const select = SELECT[kind];
    const params: unknown[] = [];
    const where: string[] = [];
    if (kind === 'provider' && options.merchantId) {
      params.push(options.merchantId);
      where.push(`p.merchant_id = $${params.length}`);
    }
    const { rows } = await this.db.query<Row>(
      `${select.sql} ${where.length ? `where ${where.join(' and ')}` : ''} order by ${select.order}`,
      params,
    );
    return rows.map((row) => BUILD[kind](row)).filter((row) => keep(row, options));
  }
}

function keep(row: { deleted: boolean }, options: RecordListOptions): boolean {
  return options.includeDeleted === true || !row.deleted;
}

@QueryHandler(GetRecordQuery)
export class GetRecordHandler implements IQueryHandler<GetRecordQuery<RecordKind>, RecordRows[RecordKind] | null> {
  constructor(
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
  ) {}

  async execute({ kind, by }: GetRecordQuery<RecordKind>): Promise<RecordRows[RecordKind] | null> {
    const id = 'id' in by ? by.id : idFromKey(kind, by.key);
    if (!id || id.length > 64) return null;
    const events = await this.store.readStream(STREAM_OF[kind](id));
    const last = events[events.length - 1];
    if (!last) return null;
    // Secrets are dropped here, before anything else sees the record.
    const {
      apiSecretSealed: _s,
      previousApiSecretSealed: _ps,
      passwordHash: _p,
      totpSecretSealed,
      ...record
    } = last.data as Record<string, unknown>;
    const deleted = last.type === 'MerchantDeleted' || last.type === 'ProviderDeleted' || record.deleted === true;
    const select = SELECT[kind];
    const { rows } = await this.db.query<Row>(`${select.sql} where ${select.id} = $1`, [id]);
    // A provider's names follow the merchant and infrastructure its latest event names.
    const names =
      kind === 'provider'
        ? (
            await this.db.query<{ merchant_name: string | null; infrastructure_slug: string | null }>(
              `select (select name from rm_merchants where merchant_id = $1) merchant_name,
                      (select slug from rm_infrastructures where infrastructure_id = $2) infrastructure_slug`,
              [record.merchantId, record.infrastructureId],
            )
          ).rows[0]
        : {};
    return BUILD[kind]({
      // Derived figures from the read model (absent right after a create: zeros), the record from the stream.
      ...(rows[0] ?? {}),
      ...names,
      id,
      record: { ...record, ...(deleted ? { deleted: true } : {}) },
      updated_at: last.createdAt,
      ...(kind === 'operator' ? { two_factor: typeof totpSecretSealed === 'string' } : {}),
    });
  }
}

export const RECORDS_QUERY_HANDLERS = [ListRecordsHandler, GetRecordHandler];
