import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { STREAMS, type EventType } from '@transfergate/contracts';
import {
  EVENT_STORE,
  SQL_DATABASE,
  type PostgresEventStore,
  type RecordedEvent,
  type SqlDatabase,
} from '@transfergate/event-store';
import { NO_HITS, screenRequest, type ScreenedRequest, type Screening } from '../decisions/screen-request.decide.js';
import { emptyRiskRules, evolveRiskRules, type RiskRulesState } from '../domain/risk-rules.js';
import { VELOCITY_WINDOW_MS, VelocityTracker, customerKey } from './velocity-tracker.js';

/** How often each ledger process reads the `risk-rules` stream past what it holds. */
export const RISK_RULES_REFRESH_MS = 1_000;
/** How far back the velocity memory is filled at start (for the first-deposit cap). */
export const RISK_HISTORY_DAYS = 30;
/** Rows read at start to fill the velocity memory. */
export const MAX_WARM_ROWS = 200_000;

/**
 * The risk rules and the customers' recent requests, in this process's memory: requests are
 * screened with no query. The rules are the fold of the `risk-rules` stream (evolveRiskRules), read
 * whole on first use and then past its version every RISK_RULES_REFRESH_MS, and at once after a
 * change this process appended; the velocity memory notes each request this process accepts and is
 * filled at start from the read model's recent transactions.
 */
@Injectable()
export class RiskIndex implements OnApplicationShutdown {
  private readonly logger = new Logger('RiskIndex');
  private state: RiskRulesState = emptyRiskRules();
  private readonly tracker = new VelocityTracker();
  private loading?: Promise<void>;
  private loaded = false;
  private refreshing?: Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SQL_DATABASE) private readonly db: SqlDatabase,
  ) {}

  /** The rules as last read (for decisions on rules: load, decide, append). */
  async rules(): Promise<RiskRulesState> {
    await this.ready();
    await this.refresh();
    return this.state;
  }

  /**
   * Screens a request from memory: synchronously once loaded (the deposit's hot path pays no await),
   * else undefined, and the caller awaits `screenAfterLoad`.
   */
  screenNow(request: ScreenedRequest, nowMs: number): Screening | undefined {
    if (!this.loaded) return undefined;
    if (this.state.rules.size === 0) return NO_HITS;
    return screenRequest(
      request,
      this.state,
      this.tracker.activity(customerKey(request.merchantId, request.customer)),
      nowMs,
    );
  }

  /** The first screening of a process: loads the index first. */
  async screen(request: ScreenedRequest, nowMs: number): Promise<Screening> {
    if (!this.loaded) await this.ready();
    if (this.state.rules.size === 0) return NO_HITS;
    return screenRequest(
      request,
      this.state,
      this.tracker.activity(customerKey(request.merchantId, request.customer)),
      nowMs,
    );
  }

  /** A request this process accepted counts in its customer's velocity from now on. */
  noteAccepted(
    request: Pick<ScreenedRequest, 'kind' | 'merchantId' | 'customer' | 'amountKurus'>,
    nowMs: number,
  ): void {
    this.tracker.note(customerKey(request.merchantId, request.customer), request.kind, nowMs, request.amountKurus);
  }

  /** Reads the rules stream past the version held (one at a time). */
  refresh(): Promise<void> {
    this.refreshing ??= this.readPast().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private ready(): Promise<void> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    await this.readPast();
    await this.warmVelocity();
    this.loaded = true;
    this.timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.logger.warn(`risk rules refresh failed: ${String(error)}`));
    }, RISK_RULES_REFRESH_MS);
    this.timer.unref();
  }

  private async readPast(): Promise<void> {
    const events: RecordedEvent[] = await this.store.readStream(STREAMS.riskRules(), this.state.streamVersion + 1);
    for (const event of events) {
      this.state = evolveRiskRules(
        this.state,
        { type: event.type as EventType, data: event.data as never },
        event.streamVersion,
      );
    }
  }

  private async warmVelocity(): Promise<void> {
    const { rows } = await this.db.query<{
      merchant_id: string;
      type: 'deposit' | 'withdrawal';
      amount_kurus: string;
      customer: { fullName: string; userId?: string };
      at_ms: string;
    }>(
      `select merchant_id, type, amount_kurus::text, customer,
              (extract(epoch from created_at) * 1000)::bigint::text as at_ms
       from rm_transactions
       where created_at > now() - make_interval(days => $1::int)
       order by created_at desc limit $2::int`,
      [RISK_HISTORY_DAYS, MAX_WARM_ROWS],
    );
    const since = Date.now() - VELOCITY_WINDOW_MS;
    for (const row of rows.reverse()) {
      const key = customerKey(row.merchant_id, row.customer);
      const atMs = Number(row.at_ms);
      if (atMs > since) this.tracker.note(key, row.type, atMs, BigInt(row.amount_kurus));
      else if (row.type === 'deposit') this.tracker.markDeposited(key);
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
