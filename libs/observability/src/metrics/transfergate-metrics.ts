import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Label cardinality bounds (TIGER_STYLE): a label never takes more values than these. */
export const MAX_ROUTE_LABELS = 300;
export const MAX_CONSUMER_LABELS = 50;
/**
 * Merchants named on the failing-callback gauge: the ones with the most failing callbacks; the rest
 * are summed under `other`. A merchant without failing callbacks has no series, so the label's
 * values are bounded by this and by the merchants that fail at once, never by all merchants.
 */
export const MAX_MERCHANT_LABELS = 50;
/** A merchant's name as a label value is cut to this many characters. */
export const MAX_MERCHANT_LABEL_LENGTH = 100;
export const HTTP_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'SEARCH',
]);

/** Source of values read at scrape time (from the database), so they are right after a restart. */
export interface ScrapeSources {
  transactionCounts(): Promise<Array<{ form: string; type: string; state: string; count: number }>>;
  callbackAttemptCounts(): Promise<Array<{ outcome: string; trigger: string; count: number }>>;
  consumerLag(): Promise<Array<{ consumer: string; lagEvents: number; lagSeconds: number }>>;
  /** Imported credit lines of bank statements by state and, when matched, how (auto/operator). */
  statementLineCounts?(): Promise<Array<{ state: string; mode: string; count: number }>>;
  /**
   * Callbacks whose last attempt failed, per merchant (by name): `retrying` (a retry is due) and
   * `failed` (gave up, awaiting a resend). Only merchants with failing callbacks appear.
   */
  failingCallbacks(): Promise<FailingCallbacks[]>;
  /** Seconds since the oldest deposit still open (awaiting payment or reported paid) was requested; 0 when none. */
  oldestOpenDepositAgeSeconds(): Promise<number | undefined>;
}

export interface FailingCallbacks {
  state: 'retrying' | 'failed';
  merchant: string;
  count: number;
}

/**
 * The failing-callback series to set: at most MAX_MERCHANT_LABELS merchants by name (those with the
 * most failing callbacks, retrying and failed together; ties by name), every other merchant summed
 * under `other`.
 */
export function boundedFailingCallbacks(rows: readonly FailingCallbacks[], maxMerchants = MAX_MERCHANT_LABELS) {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.merchant, (totals.get(row.merchant) ?? 0) + row.count);
  const named = new Set(
    [...totals]
      .filter(([, total]) => total > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, maxMerchants)
      .map(([merchant]) => merchant),
  );
  const series = new Map<string, FailingCallbacks>();
  for (const row of rows) {
    if (row.count <= 0) continue;
    const merchant = named.has(row.merchant) ? row.merchant.slice(0, MAX_MERCHANT_LABEL_LENGTH) : 'other';
    const key = `${row.state}\u0000${merchant}`;
    const current = series.get(key);
    series.set(key, { state: row.state, merchant, count: (current?.count ?? 0) + row.count });
  }
  return [...series.values()];
}

/**
 * Every transfergate_* series of one process, in its own registry (two apps in one process, as in
 * the tests, never share counters).
 */
export class TransfergateMetrics {
  readonly registry = new Registry();
  private sources: ScrapeSources | undefined;
  private readonly routes = new Set<string>();

  readonly httpRequestDuration = new Histogram({
    name: 'transfergate_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern (not the raw URL), method and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly eventStoreAppendDuration = new Histogram({
    name: 'transfergate_event_store_append_duration_seconds',
    help: 'Event store append latency (one atomic append of one or more streams), by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /**
   * Risk rule hits by rule id and action, counted from the RiskRuleHit events this process appends
   * (rule ids are bounded by the ledger's MAX_RISK_RULES, actions by the contract's list).
   */
  readonly riskHits = new Counter({
    name: 'transfergate_risk_hits_total',
    help: 'Risk rule hits (refused or flagged requests) by rule id and action',
    labelNames: ['rule', 'action'] as const,
    registers: [this.registry],
  });

  readonly approvalLatency = new Histogram({
    name: 'transfergate_approval_latency_seconds',
    help: 'From the request event of a transaction to its approval event, by transaction type',
    labelNames: ['type'] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1_800, 3_600, 7_200, 21_600, 86_400],
    registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    // collect() runs with `this` bound to the metric; the sources are read through this closure.
    const sources = () => this.sources;
    new Gauge({
      name: 'transfergate_transactions',
      help: 'Transactions by API form, type and state (from the read model, at scrape time)',
      labelNames: ['form', 'type', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of (await sources()?.transactionCounts()) ?? []) {
          this.set({ form: row.form, type: row.type, state: row.state }, row.count);
        }
      },
    });
    new Counter({
      name: 'transfergate_callback_attempts_total',
      help: 'Callback delivery attempts by outcome and trigger (from the callback log, at scrape time)',
      labelNames: ['outcome', 'trigger'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of (await sources()?.callbackAttemptCounts()) ?? []) {
          this.inc({ outcome: row.outcome, trigger: row.trigger }, row.count);
        }
      },
    });
    // Reconciliation: the queue (state="queued") and the automatic match rate (mode="auto" over all).
    new Gauge({
      name: 'transfergate_statement_credit_lines',
      help: 'Credit lines of imported bank statements by state (queued, matched, dismissed) and match mode',
      labelNames: ['state', 'mode'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of (await sources()?.statementLineCounts?.()) ?? []) {
          this.set({ state: row.state, mode: row.mode }, row.count);
        }
      },
    });
    // Both lag series collect concurrently; the source shares one database reading between them.
    new Gauge({
      name: 'transfergate_subscription_lag_events',
      help: 'Events appended after the consumer checkpoint (head − checkpoint), per consumer (capped)',
      labelNames: ['consumer'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of (await sources()?.consumerLag()) ?? []) this.set({ consumer: row.consumer }, row.lagEvents);
      },
    });
    new Gauge({
      name: 'transfergate_subscription_lag_seconds',
      help: 'Age of the oldest event the consumer has not handled yet (0 when caught up), per consumer',
      labelNames: ['consumer'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of (await sources()?.consumerLag()) ?? []) this.set({ consumer: row.consumer }, row.lagSeconds);
      },
    });
    new Gauge({
      name: 'transfergate_callbacks_failing',
      help:
        'Callbacks whose last attempt failed, per merchant: retrying (a retry is scheduled) or failed (retries exhausted, awaiting a resend); ' +
        `at most ${MAX_MERCHANT_LABELS} merchants by name, the rest as merchant="other"`,
      labelNames: ['state', 'merchant'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of boundedFailingCallbacks((await sources()?.failingCallbacks()) ?? [])) {
          this.set({ state: row.state, merchant: row.merchant }, row.count);
        }
      },
    });
    new Gauge({
      name: 'transfergate_oldest_open_deposit_age_seconds',
      help: 'Age of the oldest deposit still awaiting payment or reported paid (0 when none is open)',
      registers: [this.registry],
      async collect() {
        this.reset();
        const age = await sources()?.oldestOpenDepositAgeSeconds();
        if (age !== undefined) this.set(age);
      },
    });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'transfergate_' });
  }

  /** Binds the database-backed series; until then they are empty. */
  useSources(sources: ScrapeSources): void {
    this.sources = sources;
  }

  /** Route pattern label, bounded: beyond MAX_ROUTE_LABELS distinct patterns, `other`. */
  routeLabel(pattern: string | undefined): string {
    if (!pattern) return 'unmatched';
    if (this.routes.has(pattern)) return pattern;
    if (this.routes.size >= MAX_ROUTE_LABELS) return 'other';
    this.routes.add(pattern);
    return pattern;
  }

  observeHttp(method: string, routePattern: string | undefined, statusCode: number, seconds: number): void {
    this.httpRequestDuration.observe(
      {
        method: HTTP_METHODS.has(method) ? method : 'OTHER',
        route: this.routeLabel(routePattern),
        status_class: `${Math.min(5, Math.max(1, Math.floor(statusCode / 100)))}xx`,
      },
      seconds,
    );
  }
}
