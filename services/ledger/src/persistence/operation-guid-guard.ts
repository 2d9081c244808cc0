import { hash } from 'node:crypto';
import type { RequestDepositCommand, RequestWithdrawalCommand } from '@transfergate/contracts';
import { sqlState, sqlTable, UNIQUE_VIOLATION, type RowsAlongside } from '@transfergate/event-store';

/**
 * An Infrastructure OperationGuid is single-use per provider (README, Security): its SecurityKey
 * covers only ApiKey, ApiSecret and the GUID, so a used GUID would replay the credential.
 *
 * The guard is a key row written with the request's own events (rows alongside: one statement, one
 * transaction), whose primary key refuses a second request with the GUID, deposit or withdrawal.
 * Until issue 15's nineteenth round each request appended a claim stream and an `OperationGuidClaimed`
 * event instead: a second stream head and event row per request, which made the Infrastructure
 * form the slowest (1.33x its rate without it, A/B). The GUID stays in the request's own event (its
 * `echo`), so the event stream still tells who used which GUID.
 */
export const OPERATION_GUID_TABLE = 'ledger_operation_guids';

/**
 * The table, and once, when it is created, every GUID claimed the earlier way (the claim events of
 * a store written by an earlier build), so that an upgrade keeps refusing them. The transaction
 * lock makes two processes starting at once create and fill it once: the second finds it there.
 */
export const OPERATION_GUID_GUARD_SCHEMA = `
do $guard$
begin
  perform pg_advisory_xact_lock(hashtextextended('${OPERATION_GUID_TABLE}', 0));
  if to_regclass('${OPERATION_GUID_TABLE}') is null then
    create table ${OPERATION_GUID_TABLE} (
      provider_id text not null,
      guid_sha256 text not null,
      transaction_id uuid not null,
      primary key (provider_id, guid_sha256)
    );
    insert into ${OPERATION_GUID_TABLE} (provider_id, guid_sha256, transaction_id)
    select data->>'providerId', encode(sha256(convert_to(data->>'operationGuid', 'UTF8')), 'hex'),
           (data->>'transactionId')::uuid
    from es_events where type = 'OperationGuidClaimed'
    on conflict do nothing;
  end if;
end
$guard$;`;

/** Frozen: the store checks a frozen declaration's names once (rows alongside). */
const GUARD_COLUMNS = Object.freeze({ provider_id: 'text', guid_sha256: 'text', transaction_id: 'uuid' } as const);

/** The request's OperationGuid as it is compared (trimmed, lower case), none for the other forms. */
function operationGuidOf(
  input: RequestDepositCommand['input'] | RequestWithdrawalCommand['input'],
): string | undefined {
  const guid = input.form === 'infrastructure' ? input.echo?.OperationGuid?.trim().toLowerCase() : undefined;
  return guid || undefined;
}

/** The key row a request writes with its events, or none (no GUID: another form). */
export function operationGuidKey(
  input: RequestDepositCommand['input'] | RequestWithdrawalCommand['input'],
  transactionId: string,
): RowsAlongside | undefined {
  const guid = operationGuidOf(input);
  if (!guid) return undefined;
  return {
    table: OPERATION_GUID_TABLE,
    columns: GUARD_COLUMNS,
    // Hashed as the claim streams named it: a bounded key whatever the GUID's length.
    rows: [{ provider_id: input.providerId, guid_sha256: hash('sha256', guid, 'hex'), transaction_id: transactionId }],
  };
}

/** The append failed because another request holds the GUID (nothing of it was written). */
export function isOperationGuidTaken(error: unknown): boolean {
  return sqlState(error) === UNIQUE_VIOLATION && sqlTable(error) === OPERATION_GUID_TABLE;
}
