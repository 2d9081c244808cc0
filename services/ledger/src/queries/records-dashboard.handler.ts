import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { DashboardQuery, type DashboardData, type DashboardTypeState } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';

/**
 * Today's deposits and withdrawals by state, and the open queues. "Today" is the Turkish business
 * day (UTC+3, no DST), the same day rm_bank_account_daily counts: from 21:00 UTC the day before.
 */
@QueryHandler(DashboardQuery)
export class DashboardHandler implements IQueryHandler<DashboardQuery, DashboardData> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute(): Promise<DashboardData> {
    const today = await this.db.query<{ day: string; type: string | null; state: string | null; n: number; v: string }>(
      `with d as (select ((now() at time zone 'UTC') + interval '3 hours')::date as day)
       select d.day::text as day, t.type, t.state, count(t.transaction_id)::int as n,
              coalesce(sum(t.amount_kurus), 0)::text as v
       from d left join rm_transactions t
         on t.created_at >= ((d.day::timestamp - interval '3 hours') at time zone 'UTC')
        and t.created_at < ((d.day::timestamp + interval '21 hours') at time zone 'UTC')
       group by d.day, t.type, t.state
       order by t.type, t.state`,
    );
    const queues = await this.db.query<{ type: string; state: string; n: number }>(
      `select type, state, count(*)::int as n from rm_transactions
       where (type = 'deposit' and state in ('awaiting_payment', 'payment_reported'))
          or (type = 'withdrawal' and state in ('pending', 'processing'))
       group by type, state`,
    );
    const queue = (type: string, state: string) =>
      queues.rows.find((r) => r.type === type && r.state === state)?.n ?? 0;
    return {
      day: today.rows[0]!.day,
      today: today.rows
        .filter((r) => r.type !== null && r.state !== null)
        .map((r) => ({
          type: r.type as DashboardTypeState['type'],
          state: r.state!,
          count: r.n,
          volumeKurus: r.v,
        })),
      queues: {
        depositsAwaitingPayment: queue('deposit', 'awaiting_payment'),
        depositsPaymentReported: queue('deposit', 'payment_reported'),
        withdrawalsPending: queue('withdrawal', 'pending'),
        withdrawalsProcessing: queue('withdrawal', 'processing'),
      },
    };
  }
}
