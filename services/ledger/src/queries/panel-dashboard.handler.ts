import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { PANEL_DASHBOARD_MAX_DAYS, PanelDashboardQuery, type PanelDashboardData } from '@transfergate/contracts';
import { SQL_DATABASE, type SqlDatabase } from '@transfergate/event-store';

/**
 * The operator dashboard's figures from rm_transactions. A final transaction's updated_at is the
 * moment it became final, so approvals are counted on the Turkish business day (UTC+3) of their
 * updated_at, and the approval time is updated_at − created_at.
 */
@QueryHandler(PanelDashboardQuery)
export class PanelDashboardHandler implements IQueryHandler<PanelDashboardQuery, PanelDashboardData> {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async execute({ days }: PanelDashboardQuery): Promise<PanelDashboardData> {
    if (!Number.isInteger(days) || days < 1 || days > PANEL_DASHBOARD_MAX_DAYS) {
      throw new RangeError(`days must be 1..${PANEL_DASHBOARD_MAX_DAYS}, got ${days}`);
    }
    const span = await this.db.query<{ day: string }>(
      `select (((now() at time zone 'UTC') + interval '3 hours')::date - g)::text as day
       from generate_series(0, $1::int - 1) g order by 1`,
      [days],
    );
    const first = span.rows[0]!.day;
    const approvals = await this.db.query<{
      day: string;
      type: 'deposit' | 'withdrawal';
      n: number;
      v: string;
      median_s: number | null;
    }>(
      `select ((updated_at at time zone 'UTC') + interval '3 hours')::date::text as day, type, count(*)::int as n,
              sum(amount_kurus)::text as v,
              percentile_cont(0.5) within group (order by extract(epoch from (updated_at - created_at)))::float8
                as median_s
       from rm_transactions
       where state = 'approved' and updated_at >= (($1::date)::timestamp - interval '3 hours') at time zone 'UTC'
       group by 1, 2
       order by 1, 2`,
      [first],
    );
    const pending = await this.db.query<{ type: 'deposit' | 'withdrawal'; n: number }>(
      `select type, count(*)::int as n from rm_transactions
       where (type = 'deposit' and state in ('awaiting_payment', 'payment_reported'))
          or (type = 'withdrawal' and state in ('pending', 'processing'))
       group by type`,
    );
    const pendingOf = (type: string) => pending.rows.find((r) => r.type === type)?.n ?? 0;
    return {
      days: span.rows.map((r) => r.day),
      approvals: approvals.rows.map((r) => ({
        day: r.day,
        type: r.type,
        approvedCount: r.n,
        approvedVolumeKurus: r.v,
        medianApprovalSeconds: r.median_s === null ? null : Number(r.median_s),
      })),
      pending: { deposit: pendingOf('deposit'), withdrawal: pendingOf('withdrawal') },
    };
  }
}
