import type { SqlExecutor } from '@transfergate/event-store';

export interface MatchViolation {
  invariant: string;
  subject: string;
  detail: string;
}

/**
 * Statement matches, checked by the replay on its rebuilt copy like the ledger's invariants:
 *  1. a deposit is matched to at most one statement line;
 *  2. a matched credit line's transaction is an approved deposit of the line's own receiving account;
 *  3. a matched debit line's transaction is an approved withdrawal.
 */
export async function checkMatchInvariants(db: SqlExecutor): Promise<MatchViolation[]> {
  const violations: MatchViolation[] = [];
  const twice = await db.query<{ transaction_id: string; lines: string }>(
    `select transaction_id::text, string_agg(line_id::text, ', ' order by line_id) lines
     from rm_statement_line_status where state = 'matched' group by transaction_id having count(*) > 1`,
  );
  for (const row of twice.rows) {
    violations.push({
      invariant: 'deposit_matched_once',
      subject: `txn:${row.transaction_id}`,
      detail: `matched to lines ${row.lines}`,
    });
  }
  const wrong = await db.query<{ line_id: string; detail: string }>(
    `select s.line_id::text, format('line %s %s of account %s matched to %s %s of account %s', l.direction,
              l.amount_kurus, s.bank_account_id, coalesce(t.type, 'no transaction'), coalesce(t.state, '-'),
              coalesce(t.bank_account_id, '-')) detail
     from rm_statement_line_status s
     join rm_statement_lines l on l.line_id = s.line_id
     left join rm_transactions t on t.transaction_id = s.transaction_id
     where s.state = 'matched' and (t.transaction_id is null or t.state <> 'approved'
       or (l.direction = 'credit' and (t.type <> 'deposit' or t.bank_account_id is distinct from s.bank_account_id))
       or (l.direction = 'debit' and t.type <> 'withdrawal'))`,
  );
  for (const row of wrong.rows) {
    violations.push({ invariant: 'match_is_approved_transaction', subject: `line:${row.line_id}`, detail: row.detail });
  }
  return violations;
}
