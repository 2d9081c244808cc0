import type { SqlExecutor } from '@transfergate/event-store';
import type { InvariantViolation } from './check-invariants.js';

/** Bound on how many missing callback records are listed (the count is always exact). */
const MAX_LISTED = 1_000;

/**
 * Every approved or rejected transaction owes its merchant one callback, so the callback
 * dispatcher's log (`cb_deliveries`) must hold one record for it. Read through SQL, not the
 * dispatcher's code: services do not import each other. The dispatcher works behind the event
 * stream, so on a live system a decision of the last moments may not have its record yet; run the
 * check once the dispatcher has caught up (the replay tool reads a quiet store).
 */
export async function checkCallbackRecords(db: SqlExecutor): Promise<InvariantViolation[]> {
  const { rows: exists } = await db.query<{ present: boolean }>(
    `select to_regclass('cb_deliveries') is not null as present`,
  );
  const { rows } = exists[0]?.present
    ? await db.query<{ transaction_id: string; detail: string; total: string }>(
        `select t.transaction_id::text, format('%s %s (number %s) has no callback record', t.type, t.state, t.number)
                  as detail, count(*) over ()::text as total
         from rm_transactions t
         where t.state in ('approved', 'rejected')
           and not exists (select 1 from cb_deliveries d where d.transaction_id = t.transaction_id)
         order by t.number limit ${MAX_LISTED}`,
      )
    : await db.query<{ transaction_id: string; detail: string; total: string }>(
        `select t.transaction_id::text, 'no callback log (cb_deliveries) in this database' as detail,
                count(*) over ()::text as total
         from rm_transactions t where t.state in ('approved', 'rejected') order by t.number limit ${MAX_LISTED}`,
      );
  return rows.map((row) => ({
    invariant: 'approval_has_callback_record',
    subject: `txn:${row.transaction_id}`,
    detail: row.detail,
  }));
}
