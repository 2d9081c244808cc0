import { EVENT_CATALOG, STREAMS, type EventData, type EventType, type Transfer } from '@transfergate/contracts';
import type { RecordedEvent, SqlExecutor } from '@transfergate/event-store';
import { evolve, type TransactionAggregate } from '../domain/transaction.js';

/**
 * Applies events to the read models. Runs inside the consumer's transaction together with the
 * checkpoint, so each event is applied exactly once. Pure SQL on an executor: the replay tool
 * runs the same code into a scratch schema.
 */
export async function projectEvents(tx: SqlExecutor, events: RecordedEvent[]): Promise<void> {
  for (const event of events) await projectEvent(tx, event);
}

async function projectEvent(tx: SqlExecutor, event: RecordedEvent): Promise<void> {
  if (event.streamId.startsWith('txn-')) return projectTransaction(tx, event);
  const record = RECORD_PROJECTIONS[event.type];
  if (record) {
    const [key, columns] = record.row(event.data);
    return upsert(tx, record.table, record.keyColumn, key, columns, record.parse(event.data), event);
  }
  switch (event.type) {
    case 'TransfersPosted':
      return applyTransfers(tx, event, 'posted', EVENT_CATALOG.TransfersPosted.schema.parse(event.data));
    case 'TransfersReserved':
      return applyTransfers(tx, event, 'pending', EVENT_CATALOG.TransfersReserved.schema.parse(event.data));
    case 'ReservationChanged': {
      const d = EVENT_CATALOG.ReservationChanged.schema.parse(event.data);
      await settlePending(tx, event, d.transactionId, 'voided');
      return applyTransfers(tx, event, 'pending', d);
    }
    case 'ReservationPosted': {
      const d = EVENT_CATALOG.ReservationPosted.schema.parse(event.data);
      return settlePending(tx, event, d.transactionId, 'posted');
    }
    case 'ReservationVoided':
      return settlePending(tx, event, EVENT_CATALOG.ReservationVoided.schema.parse(event.data).transactionId, 'voided');
    case 'ApiSettingsConfigured': {
      const d = EVENT_CATALOG.ApiSettingsConfigured.schema.parse(event.data);
      const by = typeof event.metadata.actor === 'string' ? event.metadata.actor : null;
      await upsert(tx, 'rm_settings', 'name', 'api', { updated_by: by }, d, event);
      return;
    }
    default:
      // Events of other services' streams are not this projection's concern.
      return;
  }
}

interface RecordProjection {
  table: string;
  keyColumn: string;
  parse: (data: unknown) => unknown;
  /** The row key and the indexed columns kept beside the whole record. */
  row: (data: unknown) => [string, Record<string, unknown>];
}

/** Configuration records: one row per record, the whole record as jsonb (soft deletes included). */
function recordProjection<T extends EventType>(
  type: T,
  table: string,
  keyColumn: string,
  row: (data: EventData<T>) => [string, Record<string, unknown>],
): RecordProjection {
  const parse = (data: unknown) => EVENT_CATALOG[type].schema.parse(data) as EventData<T>;
  return { table, keyColumn, parse, row: (data) => row(parse(data)) };
}

const RECORD_PROJECTIONS: Partial<Record<string, RecordProjection>> = {
  InfrastructureConfigured: recordProjection(
    'InfrastructureConfigured',
    'rm_infrastructures',
    'infrastructure_id',
    (d) => [d.infrastructureId, { slug: d.slug }],
  ),
  MerchantConfigured: recordProjection('MerchantConfigured', 'rm_merchants', 'merchant_id', (d) => [
    d.merchantId,
    { name: d.name },
  ]),
  MerchantDeleted: recordProjection('MerchantDeleted', 'rm_merchants', 'merchant_id', (d) => [
    d.merchantId,
    { name: d.name },
  ]),
  ProviderConfigured: recordProjection('ProviderConfigured', 'rm_providers', 'provider_id', (d) => [
    d.providerId,
    { api_key: d.apiKey, merchant_id: d.merchantId },
  ]),
  ProviderDeleted: recordProjection('ProviderDeleted', 'rm_providers', 'provider_id', (d) => [
    d.providerId,
    { api_key: d.apiKey, merchant_id: d.merchantId },
  ]),
  BankAccountConfigured: recordProjection('BankAccountConfigured', 'rm_bank_accounts', 'bank_account_id', (d) => [
    d.bankAccountId,
    { iban: d.iban, active: d.active },
  ]),
  OperatorConfigured: recordProjection('OperatorConfigured', 'rm_operators', 'operator_id', (d) => [
    d.operatorId,
    { username: d.username },
  ]),
  RoleConfigured: recordProjection('RoleConfigured', 'rm_roles', 'role_id', (d) => [d.roleId, { name: d.name }]),
};

async function upsert(
  tx: SqlExecutor,
  table: string,
  keyColumn: string,
  key: string,
  columns: Record<string, unknown>,
  record: unknown,
  event: RecordedEvent,
): Promise<void> {
  const names = Object.keys(columns);
  const values = Object.values(columns);
  const cols = [keyColumn, ...names, 'record', 'updated_at'];
  const placeholders = cols.map((_, i) => `$${i + 1}`);
  const updates = cols.slice(1).map((c) => `${c} = excluded.${c}`);
  await tx.query(
    `insert into ${table} (${cols.join(', ')}) values (${placeholders.join(', ')})
     on conflict (${keyColumn}) do update set ${updates.join(', ')}`,
    [key, ...values, JSON.stringify(record), event.createdAt],
  );
}

async function projectTransaction(tx: SqlExecutor, event: RecordedEvent): Promise<void> {
  const transactionId = event.streamId.slice('txn-'.length);
  let current: TransactionAggregate | undefined;
  if (event.streamVersion > 1) {
    const { rows } = await tx.query<{ snapshot: TransactionAggregate }>(
      `select jsonb_build_object('version', version, 'requestFingerprint', '', 'view', jsonb_build_object(
         'transactionId', transaction_id::text, 'number', number, 'type', type, 'state', state,
         'merchantId', merchant_id, 'providerId', provider_id, 'infrastructureId', infrastructure_id, 'form', form,
         'externalId', external_id, 'amountKurus', amount_kurus::text, 'originalAmountKurus', original_amount_kurus::text,
         'feeKurus', fee_kurus::text, 'customer', customer, 'assignee', assignee, 'reason', reason, 'echo', '{}'::jsonb,
         'createdAt', created_at, 'updatedAt', updated_at)) as snapshot
       from rm_transactions where transaction_id = $1`,
      [transactionId],
    );
    current = rows[0]?.snapshot;
    if (!current) throw new Error(`projection: ${event.type} for unknown transaction ${transactionId}`);
  }
  const next = evolve(current, event).view;
  if (event.streamVersion === 1) {
    await tx.query(
      `insert into rm_transactions (transaction_id, number, type, state, merchant_id, provider_id, infrastructure_id,
         form, external_id, amount_kurus, original_amount_kurus, fee_kurus, customer, bank_account_id, iban,
         payment_token, expires_at, version, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::bigint, $10::bigint, $11::bigint, $12::jsonb, $13, $14, $15,
         $16::timestamptz, $17, $18::timestamptz, $18::timestamptz)`,
      [
        next.transactionId,
        next.number,
        next.type,
        next.state,
        next.merchantId,
        next.providerId,
        next.infrastructureId,
        next.form,
        next.externalId,
        next.amountKurus,
        next.feeKurus,
        JSON.stringify(next.customer),
        next.bankAccount?.bankAccountId ?? null,
        next.iban ?? null,
        next.paymentToken ?? null,
        next.expiresAt ?? null,
        event.streamVersion,
        event.createdAt,
      ],
    );
    if (next.type === 'deposit' && next.bankAccount) {
      await addDailyIssued(tx, next.bankAccount.bankAccountId, event.createdAt, next.amountKurus);
    }
    return;
  }
  if (current!.view.type === 'deposit') {
    // Daily volume per receiving account: what is still expected; rejected/expired deposits give it back.
    const before = ['rejected', 'expired'].includes(current!.view.state) ? 0n : BigInt(current!.view.amountKurus);
    const after = ['rejected', 'expired'].includes(next.state) ? 0n : BigInt(next.amountKurus);
    if (before !== after) {
      const { rows } = await tx.query<{ bank_account_id: string; created_at: string }>(
        `select bank_account_id, created_at::text from rm_transactions where transaction_id = $1`,
        [transactionId],
      );
      const row = rows[0]!;
      await addDailyIssued(tx, row.bank_account_id, row.created_at, (after - before).toString());
    }
  }
  await tx.query(
    `update rm_transactions set state = $2, amount_kurus = $3::bigint, fee_kurus = $4::bigint, assignee = $5,
       reason = $6, version = $7, updated_at = $8::timestamptz
     where transaction_id = $1`,
    [
      transactionId,
      next.state,
      next.amountKurus,
      next.feeKurus,
      next.assignee ?? null,
      next.reason ?? null,
      event.streamVersion,
      event.createdAt,
    ],
  );
}

async function applyTransfers(
  tx: SqlExecutor,
  event: RecordedEvent,
  state: 'pending' | 'posted',
  data: { transactionId: string; merchantId: string; transfers: Transfer[] },
): Promise<void> {
  for (const t of data.transfers) {
    const transferId = t.transferId;
    await tx.query(
      `insert into rm_transfers (transfer_id, transaction_id, merchant_id, debit_account, credit_account, amount_kurus,
         state, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6::bigint, $7, $8::timestamptz, $8::timestamptz)`,
      [
        transferId,
        data.transactionId,
        data.merchantId,
        t.debitAccount,
        t.creditAccount,
        t.amountKurus,
        state,
        event.createdAt,
      ],
    );
    await addToBalance(
      tx,
      t.debitAccount,
      state === 'posted' ? 'debits_posted_kurus' : 'debits_pending_kurus',
      t.amountKurus,
    );
    await addToBalance(
      tx,
      t.creditAccount,
      state === 'posted' ? 'credits_posted_kurus' : 'credits_pending_kurus',
      t.amountKurus,
    );
  }
}

/** Ends the transaction's open pending transfers: posted moves them to the posted columns, voided drops them. */
async function settlePending(
  tx: SqlExecutor,
  event: RecordedEvent,
  transactionId: string,
  state: 'posted' | 'voided',
): Promise<void> {
  const { rows } = await tx.query<{ debit_account: string; credit_account: string; amount_kurus: string }>(
    `update rm_transfers set state = $2, updated_at = $3::timestamptz
     where transaction_id = $1 and state = 'pending'
     returning debit_account, credit_account, amount_kurus::text`,
    [transactionId, state, event.createdAt],
  );
  for (const row of rows) {
    await addToBalance(tx, row.debit_account, 'debits_pending_kurus', `-${row.amount_kurus}`);
    await addToBalance(tx, row.credit_account, 'credits_pending_kurus', `-${row.amount_kurus}`);
    if (state === 'posted') {
      await addToBalance(tx, row.debit_account, 'debits_posted_kurus', row.amount_kurus);
      await addToBalance(tx, row.credit_account, 'credits_posted_kurus', row.amount_kurus);
    }
  }
}

async function addDailyIssued(tx: SqlExecutor, bankAccountId: string, at: string, deltaKurus: string): Promise<void> {
  await tx.query(
    `insert into rm_bank_account_daily (bank_account_id, day, issued_kurus)
     values ($1, (($2::timestamptz at time zone 'UTC') + interval '3 hours')::date, $3::bigint)
     on conflict (bank_account_id, day) do update set issued_kurus = rm_bank_account_daily.issued_kurus + $3::bigint`,
    [bankAccountId, at, deltaKurus],
  );
}

const BALANCE_COLUMNS = new Set([
  'debits_pending_kurus',
  'debits_posted_kurus',
  'credits_pending_kurus',
  'credits_posted_kurus',
]);

async function addToBalance(tx: SqlExecutor, account: string, column: string, amountKurus: string): Promise<void> {
  if (!BALANCE_COLUMNS.has(column)) throw new Error(`unknown balance column ${column}`);
  await tx.query(
    `insert into rm_balances (account_id, ${column}) values ($1, $2::bigint)
     on conflict (account_id) do update set ${column} = rm_balances.${column} + $2::bigint`,
    [account, amountKurus],
  );
}

export const LEDGER_PROJECTION = 'ledger-read-models';
export { STREAMS };
