import type { Logger } from '@nestjs/common';
import { setMaxListeners } from 'node:events';
import { Agent } from 'undici';
import { EVENT_CATALOG, STREAMS, explicitApiSettings, secretsInForce } from '@transfergate/contracts';
import type { PostgresEventStore, SqlDatabase } from '@transfergate/event-store';
import { egressPolicy, type SecretBox } from '@transfergate/security';
import { DEFAULT_CALLBACK_RETRY_SCHEDULE_MS, type CallbackSettings } from '../callback.settings.js';
import { egressConnector } from './egress-connector.js';
import { postCallback, type HttpAttemptResult } from './http-delivery.js';
import { DEFAULT_RETRY_JITTER_RATIO, nextAttemptDelay, type RetryJitter } from './retry-policy.js';
import { standardWebhookSignature } from './webhook-signing.js';

/** A delivery this worker holds the lease of. */
interface ClaimedDelivery {
  delivery_id: string;
  provider_id: string;
  target_url: string;
  body: string;
  round_attempts: number;
  next_trigger: 'automatic' | 'manual';
  next_requested_by: string | null;
  transaction_id: string;
  /** The merchant's own id of the transaction (its transactionId / transaction_id / RequestId). */
  external_id: string;
  infrastructure_id: string;
  /** The request id recorded on the transaction's first event: it follows the transaction into the callback. */
  request_id: string | null;
  /**
   * The provider's API secrets as its stream says now (sealed), read by the claim itself: the current
   * one, and the one a rotation replaced with the end of its overlap window.
   */
  secrets: { current: string | null; previous: string | null; previousUntil: string | null } | null;
}

/** Attempts recorded by one statement at most. */
const MAX_RECORDS_PER_STATEMENT = 256;

/** One attempt waiting to be recorded, with what follows it decided. */
interface AttemptRecord {
  delivery: ClaimedDelivery;
  state: 'pending' | 'delivered' | 'failed';
  aborted: boolean;
  delayMs: number;
  success: boolean;
  startedAt: Date;
  result: HttpAttemptResult;
  /** The attempt's number once recorded; undefined when our lease was lost first. */
  done: { resolve: (attemptNo: number | undefined) => void; reject: (error: unknown) => void };
}

/** Unsealed secrets kept (sealed text → secret: a pure function of its input, so nothing to invalidate). */
const MAX_UNSEALED_SECRETS = 1_000;

/** Whose callback failed (names for the log line), kept per provider and infrastructure this long… */
const OWNER_NAMES_TTL_MS = 60_000;
/** …and for at most this many pairs (then the cache starts over). */
const MAX_OWNER_NAMES = 1_000;

/** The merchant and infrastructure a failed callback belongs to, by name. */
interface OwnerNames {
  merchant: string;
  infrastructure: string;
}

/** Echoed to the receiver only when it is a plain token (it came from a caller's header). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** In-flight deliveries get this long to finish when the worker stops; then they are aborted. */
const STOP_GRACE_MS = 1_000;
/** Shortest sleep between two claims (a due row another claimer holds locked is not spun on). */
const MIN_SLEEP_MS = 5;
/**
 * While due deliveries wait (the last claim took all it asked for), freed slots are gathered into
 * one claim of at least half the worker's concurrency, for at most this long after the first one
 * freed. A claim costs about as much for one row as for thirty (on PGlite every statement runs on
 * the event loop), and slots free one at a time as answers come in: claiming for each took two
 * statements per delivery and bounded PGlite to ~400 callbacks/s. Without a backlog a free slot is
 * used at once.
 */
const CLAIM_GATHER_MS = 20;
/**
 * Likewise for records under a backlog: answers arrive one by one, and an attempt is recorded at
 * once only when half of those in flight have answered or this long after the first waiting one.
 * Without a backlog an answer is recorded at once.
 */
const RECORD_GATHER_MS = 10;

/**
 * Claims due deliveries with a lease and POSTs them. Exclusive across processes: a claim is one
 * `update … where id in (select … for update skip locked)` that only takes pending, due rows whose
 * lease is free or expired, so two workers on one database never hold the same delivery; the lease
 * outlives the request timeout, so a live worker always records its attempt before anyone else may
 * take the delivery, and a killed worker's delivery is taken over when its lease expires. Every
 * completion is fenced on the lease owner. A worker never claims a delivery it still has in flight
 * (its ids are excluded from the claim), even if that delivery's lease has run out meanwhile: its
 * attempt is recorded first.
 */
export class DeliveryWorker {
  private readonly agent: Agent;
  /** Deliveries being attempted (until their attempt is recorded), by delivery id. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly unsealed = new Map<string, string>();
  /** Names for failed-attempt lines, read only when an attempt fails (providerId:infrastructureId → names). */
  private readonly ownerNames = new Map<string, { names: OwnerNames; readAt: number }>();
  /** Attempts answered but not recorded yet: written together (recordPending). */
  private pendingRecords: AttemptRecord[] = [];
  private recording = false;
  private recordTimer: NodeJS.Timeout | undefined;
  private readonly stopController = new AbortController();
  private stopping = false;
  private wakePending = false;
  private wakeSleeper: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly jitter: RetryJitter;
  /** The last claim took as many deliveries as it asked for: more are probably due. */
  private backlog = false;
  /** When the first slot freed since the last claim (performance.now()), while gathering. */
  private firstFreeAt: number | undefined;

  constructor(
    private readonly db: SqlDatabase,
    private readonly store: PostgresEventStore,
    private readonly box: SecretBox,
    private readonly settings: CallbackSettings,
    readonly owner: string,
    private readonly logger: Logger,
  ) {
    // A plain Agent: no retry interceptor (RetryAgent / interceptors.retry), so undici never re-sends a
    // POST below the attempt we record; one request per connection at a time (the default, stated).
    // Its connector applies the egress policy to every address it connects to (after DNS resolution).
    this.jitter = {
      ratio: settings.retryJitterRatio ?? DEFAULT_RETRY_JITTER_RATIO,
      random: settings.random ?? Math.random,
    };
    // Each attempt in flight listens on the stop signal (http-delivery.ts): up to `concurrency` at once.
    setMaxListeners(settings.concurrency + 1, this.stopController.signal);
    this.agent = new Agent({
      connect: egressConnector(egressPolicy(settings.allowedTargets), { timeoutMs: settings.requestTimeoutMs }),
      pipelining: 1,
    });
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Something became due in this process (an enqueue, a resend, a finished delivery): claim now. */
  wake(): void {
    this.wakePending = true;
    this.wakeSleeper?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    if (this.inFlight.size > 0) {
      const grace = new Promise((resolve) => setTimeout(resolve, STOP_GRACE_MS).unref());
      await Promise.race([Promise.allSettled([...this.inFlight.values()]), grace]);
    }
    this.stopController.abort();
    await Promise.allSettled([...this.inFlight.values()]);
    await this.agent.close().catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.wakePending = false;
      let sleepMs = this.settings.pollIntervalMs;
      try {
        const free = this.settings.concurrency - this.inFlight.size;
        const gatherMs = this.gatherMs(free);
        if (gatherMs > 0) {
          sleepMs = gatherMs;
        } else if (free > 0) {
          this.firstFreeAt = undefined;
          const claimed = await this.claim(free);
          for (const delivery of claimed) this.launch(delivery);
          this.backlog = claimed.length === free;
          if (this.backlog) continue;
          const nextDueMs = await this.msUntilNextDue();
          if (nextDueMs !== undefined) sleepMs = Math.min(sleepMs, Math.max(nextDueMs, MIN_SLEEP_MS));
        }
      } catch (error) {
        this.logger.error(`callback worker: claiming failed, will retry: ${String(error)}`);
        sleepMs = Math.max(sleepMs, 1_000);
      }
      if (this.stopping) break;
      if (!this.wakePending) await this.sleep(sleepMs);
    }
  }

  /**
   * How much longer to gather freed slots before claiming (CLAIM_GATHER_MS); 0: claim now. Gathers
   * only under a backlog with deliveries still in flight (their answers free the next slots).
   */
  private gatherMs(free: number): number {
    if (free <= 0 || !this.backlog || this.inFlight.size === 0) return 0;
    if (free * 2 >= this.settings.concurrency) return 0;
    const now = performance.now();
    this.firstFreeAt ??= now;
    return Math.max(0, this.firstFreeAt + CLAIM_GATHER_MS - now);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }

  /** Ids this worker must not claim: its own deliveries still in flight. */
  private inFlightIds(): string[] {
    return [...this.inFlight.keys()];
  }

  /**
   * Takes at most `limit` due deliveries. The candidates are picked once, in a MATERIALIZED CTE: as
   * `update … where id in (select … limit n for update skip locked)` the planner may run the
   * subquery as the inner side of a nested-loop semi join (it does on a fresh table, estimating one
   * row), re-running it for every outer row; each re-run skips the rows this statement has already
   * leased and locks the next n, so one claim took every due row (500 for a limit of 16, on PGlite
   * and on PostgreSQL alike) and the worker launched them all at once, far past its concurrency.
   */
  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    const { rows } = await this.db.query<ClaimedDelivery>(
      `with picked as materialized (
         select delivery_id from cb_deliveries
         where state = 'pending' and due_at <= now() and (lease_until is null or lease_until < now())
           and delivery_id <> all($4::uuid[])
         order by due_at
         limit $3
         for update skip locked
       )
       update cb_deliveries d
         set lease_owner = $1, lease_until = now() + ($2::int * interval '1 millisecond'), updated_at = now()
       from picked
       where d.delivery_id = picked.delivery_id and d.state = 'pending'
       returning d.delivery_id::text, d.provider_id, d.target_url, d.body, d.round_attempts, d.next_trigger,
         d.next_requested_by, d.transaction_id::text, d.external_id, d.infrastructure_id,
         (select e.metadata->>'requestId' from es_events e
           where e.stream_id = 'txn-' || d.transaction_id::text and e.stream_version = 1) as request_id,
         (select jsonb_build_object('current', e.data->>'apiSecretSealed',
             'previous', e.data->>'previousApiSecretSealed', 'previousUntil', e.data->>'previousApiSecretUntil')
           from es_events e
           where e.stream_id = 'provider-' || d.provider_id and e.type in ('ProviderConfigured', 'ProviderDeleted')
           order by e.stream_version desc limit 1) as secrets`,
      [this.owner, this.settings.leaseMs, limit, this.inFlightIds()],
    );
    return rows;
  }

  /** Until the earliest pending delivery may be claimed (due and its lease free), if there is one. */
  private async msUntilNextDue(): Promise<number | undefined> {
    const { rows } = await this.db.query<{ ms: string | null }>(
      `select ceil(extract(epoch from (min(greatest(due_at, coalesce(lease_until, due_at))) - now())) * 1000)::text as ms
       from cb_deliveries where state = 'pending' and delivery_id <> all($1::uuid[])`,
      [this.inFlightIds()],
    );
    const ms = rows[0]?.ms;
    return ms === null || ms === undefined ? undefined : Math.max(0, Number(ms));
  }

  private launch(delivery: ClaimedDelivery): void {
    const running: Promise<void> = this.deliver(delivery)
      .catch((error) =>
        this.logger.error(
          `callback ${delivery.delivery_id}: recording the attempt failed (it is retried when the lease expires): ${String(error)}`,
        ),
      )
      .finally(() => {
        this.inFlight.delete(delivery.delivery_id);
        this.wake();
      });
    this.inFlight.set(delivery.delivery_id, running);
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = new Date();
    let result: HttpAttemptResult;
    const secrets = await this.providerSecrets(delivery.secrets).catch((error: unknown) => {
      this.logger.error(`callback ${delivery.delivery_id}: provider secret unavailable: ${String(error)}`);
      return undefined;
    });
    if (secrets === undefined) {
      result = {
        outcome: 'not_sent',
        statusCode: null,
        latencyMs: 0,
        error: `the secret of provider ${delivery.provider_id} could not be read: nothing was sent`,
        responseExcerpt: null,
        retryAfterMs: undefined,
      };
    } else {
      const timestamp = Math.floor(Date.now() / 1_000);
      result = await postCallback({
        dispatcher: this.agent,
        url: delivery.target_url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'transfergate-callbacks/1',
          'webhook-id': delivery.delivery_id,
          'webhook-timestamp': String(timestamp),
          // During a rotation's overlap window one signature per secret in force, space-separated.
          'webhook-signature': secrets
            .map((secret) => standardWebhookSignature(secret, delivery.delivery_id, timestamp, delivery.body))
            .join(' '),
          ...(delivery.request_id && SANE_REQUEST_ID.test(delivery.request_id)
            ? { 'x-request-id': delivery.request_id }
            : {}),
        },
        body: delivery.body,
        timeoutMs: this.settings.requestTimeoutMs,
        stop: this.stopController.signal,
      });
    }
    await this.complete(delivery, startedAt, result);
  }

  /** Records the attempt and decides what follows, in one statement fenced on our lease. */
  private async complete(delivery: ClaimedDelivery, startedAt: Date, result: HttpAttemptResult): Promise<void> {
    const success = result.outcome === 'success';
    const aborted = result.outcome === 'aborted';
    let state: 'pending' | 'delivered' | 'failed';
    let delayMs = 0;
    if (success) {
      state = 'delivered';
    } else if (result.refused) {
      // The egress policy refused the target: retrying cannot change that, so it fails at once.
      state = 'failed';
    } else if (aborted) {
      state = 'pending';
    } else {
      const delay = nextAttemptDelay(
        await this.retrySchedule(),
        delivery.round_attempts + 1,
        result.retryAfterMs,
        this.jitter,
      );
      state = delay === undefined ? 'failed' : 'pending';
      delayMs = delay ?? 0;
    }
    const attemptNo = await new Promise<number | undefined>((resolve, reject) => {
      this.pendingRecords.push({
        delivery,
        state,
        aborted,
        delayMs,
        success,
        startedAt,
        result,
        done: { resolve, reject },
      });
      this.scheduleRecords();
    });
    const attempt = [
      delivery.next_trigger,
      delivery.next_requested_by,
      this.owner,
      startedAt.toISOString(),
      result.latencyMs,
      result.statusCode,
      result.outcome,
      result.error,
      result.responseExcerpt,
      result.retryAfterMs ?? null,
    ];
    if (success || attemptNo === undefined) {
      this.logger.log({
        msg: 'callback attempt',
        ...(delivery.request_id ? { requestId: delivery.request_id } : {}),
        deliveryId: delivery.delivery_id,
        transactionId: delivery.transaction_id,
        trigger: delivery.next_trigger,
        outcome: result.outcome,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        next: attemptNo !== undefined ? state : 'lease_lost',
      });
    } else {
      // One line per failed attempt, at warn: what an on-call engineer greps for. Whose callback
      // failed (merchant, infrastructure, the merchant's own transaction id), where it went (the
      // host only: a receiver's URL path or query may carry its own token), why (our own description
      // of the attempt: status, timeout, refused connection) and what happens next. Headers and body
      // are not logged.
      const names = await this.namesOf(delivery);
      this.logger.warn({
        msg: 'callback attempt failed',
        ...(delivery.request_id ? { requestId: delivery.request_id } : {}),
        merchant: names.merchant,
        infrastructure: names.infrastructure,
        merchantTransactionId: delivery.external_id,
        targetHost: targetHostOf(delivery.target_url),
        deliveryId: delivery.delivery_id,
        transactionId: delivery.transaction_id,
        attempt: attemptNo,
        trigger: delivery.next_trigger,
        outcome: result.outcome,
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
        next: state,
        ...(state === 'pending' ? { retryInMs: delayMs } : {}),
      });
    }
    if (attemptNo !== undefined) return;
    // Our lease was taken over (this worker stalled longer than the lease): the attempt still happened.
    this.logger.warn(`callback ${delivery.delivery_id}: lease lost before the attempt was recorded`);
    await this.db.query(
      `with bumped as (
         update cb_deliveries set attempt_count = attempt_count + 1, updated_at = now()
         where delivery_id = $1::uuid returning attempt_count
       )
       insert into cb_attempts (delivery_id, attempt_no, trigger, requested_by, worker, started_at, latency_ms,
         status_code, outcome, error, response_excerpt, retry_after_ms)
       select $1::uuid, attempt_count, $2::text, $3::text, $4::text, $5::timestamptz, $6::int, $7::int, $8::text,
         $9::text, $10::text, $11::int
       from bumped`,
      [delivery.delivery_id, ...attempt.slice(0, 7), `(lease lost) ${result.error ?? ''}`.trim(), ...attempt.slice(8)],
    );
  }

  /**
   * The merchant's and the infrastructure's names as their streams say (read on a failed attempt
   * only, cached for OWNER_NAMES_TTL_MS). A name that cannot be read is logged as its id: the line
   * is written either way.
   */
  private async namesOf(delivery: ClaimedDelivery): Promise<OwnerNames> {
    const key = `${delivery.provider_id}:${delivery.infrastructure_id}`;
    const cached = this.ownerNames.get(key);
    if (cached && Date.now() - cached.readAt < OWNER_NAMES_TTL_MS) return cached.names;
    const fallback = { merchant: `provider ${delivery.provider_id}`, infrastructure: delivery.infrastructure_id };
    try {
      const { rows } = await this.db.query<{ merchant: string | null; infrastructure: string | null }>(
        `select
           (select m.data->>'name' from es_events m
             where m.stream_id = 'merchant-' || (
               select p.data->>'merchantId' from es_events p
               where p.stream_id = 'provider-' || $1 and p.type in ('ProviderConfigured', 'ProviderDeleted')
               order by p.stream_version desc limit 1)
             order by m.stream_version desc limit 1) as merchant,
           (select i.data->>'name' from es_events i where i.stream_id = 'infrastructure-' || $2
             order by i.stream_version desc limit 1) as infrastructure`,
        [delivery.provider_id, delivery.infrastructure_id],
      );
      const names = {
        merchant: rows[0]?.merchant ?? fallback.merchant,
        infrastructure: rows[0]?.infrastructure ?? fallback.infrastructure,
      };
      if (this.ownerNames.size >= MAX_OWNER_NAMES) this.ownerNames.clear();
      this.ownerNames.set(key, { names, readAt: Date.now() });
      return names;
    } catch {
      return fallback;
    }
  }

  /** Records the waiting attempts now, or after gathering more (RECORD_GATHER_MS). */
  private scheduleRecords(): void {
    if (this.recording) return; // the running write takes them next
    const gather = this.backlog && !this.stopping && this.pendingRecords.length * 2 < this.inFlight.size;
    if (!gather) {
      clearTimeout(this.recordTimer);
      this.recordTimer = undefined;
      void this.recordPending();
      return;
    }
    this.recordTimer ??= setTimeout(() => {
      this.recordTimer = undefined;
      void this.recordPending();
    }, RECORD_GATHER_MS);
  }

  /**
   * Records the answered attempts: every one waiting, in one statement (up to
   * MAX_RECORDS_PER_STATEMENT), while the previous statement ran more answers arrived. Each row is
   * the single-attempt update + insert it always was, fenced on our lease; a delivery whose lease
   * was lost comes back unrecorded (absent) and complete() records it the lease-lost way.
   */
  private async recordPending(): Promise<void> {
    if (this.recording) return;
    this.recording = true;
    try {
      while (this.pendingRecords.length > 0) {
        const batch = this.pendingRecords.splice(0, MAX_RECORDS_PER_STATEMENT);
        try {
          const recorded = await this.writeRecords(batch);
          for (const record of batch) record.done.resolve(recorded.get(record.delivery.delivery_id));
        } catch (error) {
          for (const record of batch) record.done.reject(error);
        }
      }
    } finally {
      this.recording = false;
    }
  }

  /**
   * The attempt number of each delivery recorded (a delivery whose lease was lost is absent). The
   * ids go in twice, as rows and as an array: the planner cannot see how few rows
   * jsonb_to_recordset gives (it assumes 100), and joined on them alone it read the whole table
   * (cb_deliveries only grows) by a sequential scan until that table had thousands of rows.
   */
  private async writeRecords(batch: AttemptRecord[]): Promise<Map<string, number>> {
    const rows = batch.map((r) => ({
      delivery_id: r.delivery.delivery_id,
      state: r.state,
      aborted: r.aborted,
      delay_ms: r.delayMs,
      success: r.success,
      trigger: r.delivery.next_trigger,
      requested_by: r.delivery.next_requested_by,
      started_at: r.startedAt.toISOString(),
      latency_ms: r.result.latencyMs,
      status_code: r.result.statusCode,
      outcome: r.result.outcome,
      error: r.result.error,
      response_excerpt: r.result.responseExcerpt,
      retry_after_ms: r.result.retryAfterMs ?? null,
    }));
    const { rows: written } = await this.db.query<{ delivery_id: string; attempt_no: number | string }>(
      `with x as (
         select * from jsonb_to_recordset($1::jsonb) as x(delivery_id uuid, state text, aborted boolean, delay_ms int,
           success boolean, trigger text, requested_by text, started_at timestamptz, latency_ms int, status_code int,
           outcome text, error text, response_excerpt text, retry_after_ms int)
       ),
       done as (
         update cb_deliveries d set
           attempt_count = d.attempt_count + 1,
           round_attempts = case when d.resend_requested then 0 when x.aborted then d.round_attempts
                                 else d.round_attempts + 1 end,
           state = case when d.resend_requested then 'pending' else x.state end,
           due_at = case when d.resend_requested then now()
                         when x.state = 'pending' then now() + (x.delay_ms * interval '1 millisecond') end,
           delivered_at = case when x.success then now() else d.delivered_at end,
           next_trigger = case when d.resend_requested then 'manual' when x.aborted then d.next_trigger
                               else 'automatic' end,
           next_requested_by = case when d.resend_requested then d.resend_requested_by
                                    when x.aborted then d.next_requested_by end,
           resend_requested = false,
           resend_requested_by = null,
           lease_owner = null,
           lease_until = null,
           last_attempt_at = x.started_at,
           last_status_code = x.status_code,
           last_error = x.error,
           updated_at = now()
         from x
         where d.delivery_id = x.delivery_id and d.delivery_id = any($3::uuid[]) and d.lease_owner = $2::text
         returning d.delivery_id, d.attempt_count, d.state, d.due_at
       )
       insert into cb_attempts (delivery_id, attempt_no, trigger, requested_by, worker, started_at, latency_ms,
         status_code, outcome, error, response_excerpt, retry_after_ms, next_due_at)
       select done.delivery_id, done.attempt_count, x.trigger, x.requested_by, $2::text, x.started_at, x.latency_ms,
         x.status_code, x.outcome, x.error, x.response_excerpt, x.retry_after_ms,
         case when done.state = 'pending' then done.due_at end
       from done join x on x.delivery_id = done.delivery_id
       returning delivery_id::text, attempt_no`,
      [JSON.stringify(rows), this.owner, rows.map((row) => row.delivery_id)],
    );
    return new Map(written.map((row) => [row.delivery_id, Number(row.attempt_no)]));
  }

  /**
   * The API settings' schedule once an operator saved one, else the runtime's, else the default of
   * docs/architecture.md.
   */
  private async retrySchedule(): Promise<readonly number[]> {
    const last = (await this.store.readStream(STREAMS.apiSettings())).at(-1);
    if (last) {
      const parsed = EVENT_CATALOG.ApiSettingsConfigured.schema.safeParse(last.data);
      // Only a schedule an operator set: saving another setting leaves the environment's in force.
      const schedule = parsed.success ? explicitApiSettings(parsed.data).callbackRetryScheduleSeconds : undefined;
      if (schedule) return schedule.map((seconds) => seconds * 1_000);
    }
    return this.settings.retryScheduleMs ?? DEFAULT_CALLBACK_RETRY_SCHEDULE_MS;
  }

  /**
   * The provider's API secret from what the claim read of its stream at claim time (rotations apply
   * to the next attempt): no read of its own per delivery.
   */
  /** The secrets in force now, unsealed (cached by ciphertext, bounded); undefined when the provider has none. */
  private async providerSecrets(sealed: ClaimedDelivery['secrets']): Promise<string[] | undefined> {
    if (!sealed || sealed.current === null) return undefined;
    const inForce = secretsInForce(
      {
        current: sealed.current,
        previous: sealed.previous ?? undefined,
        previousUntil: sealed.previousUntil ?? undefined,
      },
      Date.now(),
    );
    return inForce.map((ciphertext) => {
      let secret = this.unsealed.get(ciphertext);
      if (secret === undefined) {
        secret = this.box.open(ciphertext);
        if (this.unsealed.size >= MAX_UNSEALED_SECRETS) this.unsealed.clear();
        this.unsealed.set(ciphertext, secret);
      }
      return secret;
    });
  }
}

/** The host (and port, when not the default) a callback went to; never its path or query. */
export function targetHostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '(not a URL)';
  }
}
