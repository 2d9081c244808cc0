import type { SqlDatabase } from '@transfergate/event-store';
import { MAX_CONSUMER_LABELS, type ScrapeSources } from './transfergate-metrics.js';

/** Lag counts stop here: "more than this many events behind" is all ops and readiness need. */
export const MAX_COUNTED_LAG_EVENTS = 100_000;

export interface ConsumerLag {
  consumer: string;
  /** Events after the checkpoint (capped at MAX_COUNTED_LAG_EVENTS). */
  lagEvents: number;
  /** Age of the oldest event after the checkpoint (0 when caught up). */
  lagSeconds: number;
}

/**
 * Values read from the database at scrape time: right after a restart and the same on every
 * instance (aggregate them with max(), not sum()). Tables another service owns may not exist in this
 * process's database (one process per service): their series are then empty, not an error.
 */
export class DatabaseScrapeSources implements ScrapeSources {
  /** The reading in flight: callers arriving meanwhile (a scrape and a probe together) share it. */
  private lagReading: Promise<ConsumerLag[]> | undefined;

  constructor(private readonly db: SqlDatabase) {}

  async transactionCounts() {
    if (!(await this.tableExists('rm_transactions'))) return [];
    const { rows } = await this.db.query<{ form: string; type: string; state: string; n: string }>(
      `select form, type, state, count(*)::text as n from rm_transactions group by form, type, state`,
    );
    return rows.map((row) => ({ form: row.form, type: row.type, state: row.state, count: Number(row.n) }));
  }

  async callbackAttemptCounts() {
    if (!(await this.tableExists('cb_attempts'))) return [];
    const { rows } = await this.db.query<{ outcome: string; trigger: string; n: string }>(
      `select outcome, trigger, count(*)::text as n from cb_attempts group by outcome, trigger`,
    );
    return rows.map((row) => ({ outcome: row.outcome, trigger: row.trigger, count: Number(row.n) }));
  }

  async statementLineCounts() {
    if (!(await this.tableExists('rm_statement_line_status'))) return [];
    const { rows } = await this.db.query<{ state: string; mode: string; n: string }>(
      `select s.state, coalesce(s.record->>'mode', 'none') as mode, count(*)::text as n
       from rm_statement_line_status s join rm_statement_lines l on l.line_id = s.line_id
       where l.direction = 'credit' group by 1, 2`,
    );
    return rows.map((row) => ({ state: row.state, mode: row.mode, count: Number(row.n) }));
  }

  async failingCallbacks() {
    if (!(await this.tableExists('cb_deliveries'))) return [];
    // A pending delivery with an attempt behind it failed that attempt (a success makes it delivered).
    // Grouped by provider first (few rows), then each provider named by its merchant's current name
    // from the event store; a provider whose merchant cannot be named counts as `unknown`.
    const { rows } = await this.db.query<{ merchant: string; state: 'retrying' | 'failed'; n: string }>(
      `with failing as (
         select provider_id, case when state = 'failed' then 'failed' else 'retrying' end as state, count(*) as n
         from cb_deliveries
         where state = 'failed' or (state = 'pending' and attempt_count > 0)
         group by 1, 2
       )
       select coalesce(
           (select m.data->>'name' from es_events m
             where m.stream_id = 'merchant-' || (
               select p.data->>'merchantId' from es_events p
               where p.stream_id = 'provider-' || f.provider_id and p.type in ('ProviderConfigured', 'ProviderDeleted')
               order by p.stream_version desc limit 1)
             order by m.stream_version desc limit 1),
           'unknown') as merchant,
         f.state, sum(f.n)::text as n
       from failing f group by 1, 2`,
    );
    return rows.map((row) => ({ merchant: row.merchant, state: row.state, count: Number(row.n) }));
  }

  async oldestOpenDepositAgeSeconds() {
    if (!(await this.tableExists('rm_transactions'))) return undefined;
    const { rows } = await this.db.query<{ age: string | null }>(
      `select extract(epoch from (now() - min(created_at)))::text as age from rm_transactions
       where type = 'deposit' and state in ('awaiting_payment', 'payment_reported')`,
    );
    const age = rows[0]?.age;
    return age === null || age === undefined ? 0 : Math.max(0, Number(age));
  }

  consumerLag(): Promise<ConsumerLag[]> {
    this.lagReading ??= this.readConsumerLag().finally(() => (this.lagReading = undefined));
    return this.lagReading;
  }

  private async readConsumerLag(): Promise<ConsumerLag[]> {
    const { rows } = await this.db.query<{ consumer: string; lag_events: string; lag_seconds: string | null }>(
      `select c.consumer,
         (select count(*) from (select 1 from es_events e where (e.xid, e.seq) > (c.commit_xid, c.seq) limit $1) x)::text
           as lag_events,
         (select extract(epoch from (now() - e.created_at)) from es_events e
           where (e.xid, e.seq) > (c.commit_xid, c.seq) order by e.xid, e.seq limit 1)::text as lag_seconds
       from es_checkpoints c order by c.consumer limit $2`,
      [MAX_COUNTED_LAG_EVENTS, MAX_CONSUMER_LABELS],
    );
    return rows.map((row) => ({
      consumer: row.consumer,
      lagEvents: Number(row.lag_events),
      lagSeconds: row.lag_seconds === null ? 0 : Math.max(0, Number(row.lag_seconds)),
    }));
  }

  private async tableExists(name: string): Promise<boolean> {
    const { rows } = await this.db.query<{ found: boolean }>(`select to_regclass($1) is not null as found`, [name]);
    return rows[0]?.found === true;
  }
}
