import type { SqlExecutor } from '@transfergate/event-store';

/**
 * Ledger invariants over the read models (the replay tool runs them over its rebuilt copy too):
 *  1. total debits = total credits, posted and pending, across all accounts;
 *  2. every account balance equals the sum of its transfers (balances are not drifting);
 *  3. no merchant's available balance is below minus its overdraft limit;
 *  4. every final transaction's transfer set is settled and matches it: an approved deposit has
 *     posted transfers summing to its amount, an approved withdrawal has posted transfers summing to
 *     amount + fee, a rejected or expired one has nothing posted, and no final one has anything pending.
 */
export interface InvariantViolation {
  invariant: string;
  subject: string;
  detail: string;
}

export async function checkLedgerInvariants(db: SqlExecutor): Promise<InvariantViolation[]> {
  const violations: InvariantViolation[] = [];

  const totals = await db.query<{ dp: string; dpo: string; cp: string; cpo: string }>(
    `select coalesce(sum(debits_pending_kurus), 0)::text dp, coalesce(sum(debits_posted_kurus), 0)::text dpo,
            coalesce(sum(credits_pending_kurus), 0)::text cp, coalesce(sum(credits_posted_kurus), 0)::text cpo
     from rm_balances`,
  );
  const t = totals.rows[0]!;
  if (t.dpo !== t.cpo) {
    violations.push({
      invariant: 'debits_equal_credits',
      subject: 'posted',
      detail: `debits ${t.dpo} ≠ credits ${t.cpo}`,
    });
  }
  if (t.dp !== t.cp) {
    violations.push({
      invariant: 'debits_equal_credits',
      subject: 'pending',
      detail: `debits ${t.dp} ≠ credits ${t.cp}`,
    });
  }

  const drift = await db.query<{ account_id: string; detail: string }>(
    `with sums as (
       select account, sum(dp) dp, sum(dpo) dpo, sum(cp) cp, sum(cpo) cpo from (
         select debit_account account, case when state = 'pending' then amount_kurus else 0 end dp,
                case when state = 'posted' then amount_kurus else 0 end dpo, 0 cp, 0 cpo from rm_transfers
         union all
         select credit_account, 0, 0, case when state = 'pending' then amount_kurus else 0 end,
                case when state = 'posted' then amount_kurus else 0 end from rm_transfers) x
       group by account)
     select coalesce(b.account_id, s.account) account_id,
            format('balance (%s,%s,%s,%s) vs transfers (%s,%s,%s,%s)', b.debits_pending_kurus, b.debits_posted_kurus,
              b.credits_pending_kurus, b.credits_posted_kurus, s.dp, s.dpo, s.cp, s.cpo) detail
     from rm_balances b full join sums s on s.account = b.account_id
     where coalesce(b.debits_pending_kurus, 0) <> coalesce(s.dp, 0) or coalesce(b.debits_posted_kurus, 0) <> coalesce(s.dpo, 0)
        or coalesce(b.credits_pending_kurus, 0) <> coalesce(s.cp, 0) or coalesce(b.credits_posted_kurus, 0) <> coalesce(s.cpo, 0)`,
  );
  for (const row of drift.rows)
    violations.push({ invariant: 'balance_matches_transfers', subject: row.account_id, detail: row.detail });

  const below = await db.query<{ merchant_id: string; available: string; limit_kurus: string }>(
    `select m.merchant_id, (coalesce(b.credits_posted_kurus, 0) - coalesce(b.debits_posted_kurus, 0)
              - coalesce(b.debits_pending_kurus, 0))::text available, (m.record->>'overdraftLimitKurus') limit_kurus
     from rm_merchants m left join rm_balances b on b.account_id = 'merchant:' || m.merchant_id
     where coalesce(b.credits_posted_kurus, 0) - coalesce(b.debits_posted_kurus, 0) - coalesce(b.debits_pending_kurus, 0)
           < -((m.record->>'overdraftLimitKurus')::bigint)`,
  );
  for (const row of below.rows) {
    violations.push({
      invariant: 'balance_within_limit',
      subject: `merchant:${row.merchant_id}`,
      detail: `available ${row.available} below overdraft limit −${row.limit_kurus}`,
    });
  }

  const sets = await db.query<{ transaction_id: string; detail: string }>(
    `select t.transaction_id::text, format('%s %s amount %s fee %s: posted %s, pending %s', t.type, t.state,
              t.amount_kurus, t.fee_kurus, coalesce(x.posted, 0), coalesce(x.pending, 0)) detail
     from rm_transactions t
     left join (select transaction_id, sum(amount_kurus) filter (where state = 'posted') posted,
                       sum(amount_kurus) filter (where state = 'pending') pending
                from rm_transfers group by transaction_id) x on x.transaction_id = t.transaction_id
     where (t.state in ('approved', 'rejected', 'expired') and coalesce(x.pending, 0) <> 0)
        or (t.state = 'approved' and t.type = 'deposit' and coalesce(x.posted, 0) <> t.amount_kurus)
        or (t.state = 'approved' and t.type = 'withdrawal' and coalesce(x.posted, 0) <> t.amount_kurus + t.fee_kurus)
        or (t.state in ('rejected', 'expired') and coalesce(x.posted, 0) <> 0)
        or (t.type = 'withdrawal' and t.state in ('pending', 'processing')
            and coalesce(x.pending, 0) <> t.amount_kurus + t.fee_kurus)`,
  );
  for (const row of sets.rows) {
    violations.push({
      invariant: 'transfer_set_matches_transaction',
      subject: `txn:${row.transaction_id}`,
      detail: row.detail,
    });
  }
  return violations;
}
