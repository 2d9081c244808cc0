import { sqlState, type SqlExecutor } from '../sql/sql-database.js';
import type { BatchExecutor, Statement } from './batch-statement.js';
import { runTransactionalBatch } from './transactional-batch.js';
import { openLeaseLiveness } from './lease-liveness.js';
import { comparePositions, type GlobalPosition, type RecordedEvent } from '../store/event-store.js';
import { readAllContinuation, type PostgresEventStore, type TypedRead } from '../store/postgres-event-store.js';

export interface ConsumerOptions {
  /** Unique consumer name: its checkpoint and lease row. */
  name: string;
  /** Instance id holding the lease (host:pid:random by default). */
  owner: string;
  batchSize?: number;
  /** Longest sleep when idle; an append in this process wakes the consumer at once. */
  idlePollMs?: number;
  /** A lease not renewed for this long is taken over by another instance. */
  leaseMs?: number;
  /**
   * After being woken by an append, wait this long before reading, so that a burst of appends is
   * handled as one batch (one transaction) instead of one transaction per event. Adds at most this
   * much to the consumer's lag.
   */
  coalesceMs?: number;
  /**
   * Under a steady stream of appends a consumer reads again as soon as a batch is done, so its
   * batches stay as small as the appends between two reads. A consumer that may lag (the callback
   * dispatcher) sets this: it then starts a read at most once per this many ms, handling whatever
   * arrived meanwhile in one batch, which costs one read and one checkpoint instead of many. Waiters
   * (waitUntil) wait up to this much longer. A backlog (full batches) is read without pauses.
   * Default 0.
   */
  minReadIntervalMs?: number;
  /**
   * Like minReadIntervalMs, but only while nobody in this process waits for the consumer
   * (waitUntil): a waiter ends the pause at once. For a consumer that callers usually wait for but
   * whose work under load is mostly unwatched (the ledger projection, once new deposits are answered
   * ahead of it): its batches then gather what arrived meanwhile, one statement and one commit for
   * many events, without delaying anyone who waits. A waiter in another process (polling the
   * checkpoint) is not seen here and waits up to this much longer. A backlog is read without pauses.
   * Default 0.
   */
  unwaitedReadIntervalMs?: number;
  /**
   * transactional: the handler runs in the same database transaction as the checkpoint update, so
   * a projection into the same database applies each batch exactly once.
   * after: the handler runs first, the checkpoint after (side effects elsewhere: at-least-once,
   * handlers must be idempotent by event id).
   */
  mode: 'transactional' | 'after';
  /**
   * The event types `handle` acts on, when it ignores every other: the others are then passed over
   * in SQL (their data never read) and a batch of only other events moves the checkpoint with one
   * statement, without calling `handle`. Absent: every event is handed to `handle`.
   */
  types?: readonly string[];
  /**
   * Writes the batch. `tx.defer` keeps a write that nothing in the batch reads back: deferred writes
   * go to the server with the checkpoint in one statement (transactional mode), or after the handler
   * one by one (after mode).
   */
  handle: (events: RecordedEvent[], tx: BatchExecutor) => Promise<void>;
  /**
   * Called once a batch is committed with its checkpoint, before the position advances and its
   * waiters are released: an in-memory mirror of what the handler wrote is updated here, so that
   * whoever waited for the batch finds the mirror current too. `from` is the checkpoint the batch
   * continued (a mirror that is not there missed batches). The mirror's update must be synchronous;
   * a returned promise (a notice to other processes being sent) is awaited before the waiters are
   * released, so it must be bounded in time, and a rejection is only reported (onError): the batch
   * is committed whatever happens to it.
   */
  afterCommit?: (batch: { from: GlobalPosition; last: GlobalPosition }) => void | Promise<void>;
  onError?: (error: unknown) => void;
}

export interface RunningConsumer {
  readonly name: string;
  /** Position of the last handled event. */
  position(): GlobalPosition;
  /** Whether this instance certainly holds the lease now (so nobody else handles batches). */
  holdsLease(): boolean;
  /** Resolves once the consumer has handled everything up to `position` (or rejects after timeoutMs). */
  waitUntil(position: GlobalPosition, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

const DEFAULT_BATCH = 500;
/** Bound on minReadIntervalMs: stop() waits for at most one such pause. */
const MAX_READ_INTERVAL_MS = 1_000;
/** SQLSTATE of checkpointClosing's lost lease. */
const DIVISION_BY_ZERO = '22012';
/** How often an instance without the lease re-reads the checkpoint while something waits on it. */
const WAITER_POLL_MS = 20;
/** How often the lease holder re-reads while a waiter's position is committed but not yet readable. */
const HOLDER_WAITER_POLL_MS = 5;

/**
 * Catch-up subscription on the store with a persisted checkpoint and a lease, so exactly one
 * instance of a consumer runs at a time across processes and a crashed one is taken over.
 */
export async function startConsumer(store: PostgresEventStore, options: ConsumerOptions): Promise<RunningConsumer> {
  const db = store.database;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const idlePollMs = options.idlePollMs ?? 250;
  const leaseMs = options.leaseMs ?? 15_000;
  const coalesceMs = options.coalesceMs ?? 10;
  const minReadIntervalMs = options.minReadIntervalMs ?? 0;
  const unwaitedReadIntervalMs = options.unwaitedReadIntervalMs ?? 0;
  for (const [name, value] of [
    ['minReadIntervalMs', minReadIntervalMs],
    ['unwaitedReadIntervalMs', unwaitedReadIntervalMs],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > MAX_READ_INTERVAL_MS) {
      throw new RangeError(`${name} must be an integer 0..${MAX_READ_INTERVAL_MS}`);
    }
  }
  await db.query(`insert into es_checkpoints (consumer) values ($1) on conflict (consumer) do nothing`, [options.name]);
  const liveness = await openLeaseLiveness(db, options.onError);
  // A holder that recorded a liveness session and no longer has it is dead: its lease is free now.
  const holderGone =
    liveness.name === undefined
      ? ''
      : ` or (lease_liveness is not null
             and not exists (select 1 from pg_stat_activity where application_name = lease_liveness))`;

  let stopped = false;
  let current: GlobalPosition = { commitXid: '0', seq: '0' };
  // The stored checkpoint as last read while another instance holds the lease: waiters in this
  // process are released by that instance's progress too (read-your-writes across processes).
  let observed: GlobalPosition = current;
  const waiters = new Set<{ target: GlobalPosition; resolve: () => void }>();

  /** Takes or renews the lease; answers the stored checkpoint, or undefined when another owner holds it. */
  const acquire = async (executor: SqlExecutor): Promise<GlobalPosition | undefined> => {
    const { rows } = await executor.query<{ commit_xid: string; seq: string }>(
      `update es_checkpoints set lease_owner = $2, lease_until = now() + ($3::int * interval '1 millisecond'),
         lease_liveness = $4
       where consumer = $1 and (lease_owner is null or lease_owner = $2 or lease_until < now()${holderGone})
       returning commit_xid::text, seq::text`,
      [options.name, options.owner, leaseMs, liveness.name ?? null],
    );
    const row = rows[0];
    return row ? { commitXid: row.commit_xid, seq: row.seq } : undefined;
  };

  const saveCheckpoint = async (executor: SqlExecutor, position: GlobalPosition): Promise<void> => {
    const { rows } = await executor.query(
      `update es_checkpoints set commit_xid = $2::text::xid8, seq = $3::bigint, updated_at = now(),
         lease_until = now() + ($5::int * interval '1 millisecond')
       where consumer = $1 and lease_owner = $4 returning 1`,
      [options.name, position.commitXid, position.seq, options.owner, leaseMs],
    );
    if (rows.length !== 1) throw new LeaseLostError(options.name);
  };

  /**
   * The checkpoint save as the closing part of a batch's one statement (joinWrites). A lost lease
   * divides by zero: the error undoes the whole statement, the batch's writes with it.
   * A consumer of every event also reads the next batch in that statement (readAllContinuation):
   * under load a batch then costs one round trip, not a read and a write, and the events appended
   * meanwhile are answered as soon as that statement is. The read is the one readAll makes, after
   * the position the statement saves, below every transaction running when the statement began
   * (its own has no xid yet then, or holds back only later events); it counts only once the
   * statement has committed.
   */
  const readsNext = options.mode === 'transactional' && !options.types;
  const nextBatch = readAllContinuation('next_batch', 'lease_check', { xid: '$2', seq: '$3', limit: '$6' });
  const checkpointClosing = (position: GlobalPosition): Statement => ({
    sql: `lease as (
       update es_checkpoints set commit_xid = $2::text::xid8, seq = $3::bigint, updated_at = now(),
         lease_until = now() + ($5::int * interval '1 millisecond')
       where consumer = $1 and lease_owner = $4 returning 1
     ),
     lease_check as (select 1 / count(*)::int as lease_held from lease)${
       readsNext
         ? `,
     ${nextBatch.cte}
     ${nextBatch.select}`
         : `
     select lease_held from lease_check`
     }`,
    params: [options.name, position.commitXid, position.seq, options.owner, leaseMs, ...(readsNext ? [batchSize] : [])],
  });
  /** The next batch as the last batch statement read it, valid while the consumer is still `after` there. */
  let readAhead: { after: GlobalPosition; events: RecordedEvent[] } | undefined;

  const reached = (): GlobalPosition => (isBefore(current, observed) ? observed : current);

  const releaseWaiters = () => {
    const position = reached();
    for (const waiter of waiters) {
      if (!isBefore(position, waiter.target)) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  // Until when our lease is certainly ours: every checkpoint save renews it, so under load the
  // separate renewal statement is needed only when a step has not saved for half a lease.
  let leaseHeldUntilMs = 0;
  const step = async (): Promise<number> => {
    if (leaseHeldUntilMs - Date.now() < leaseMs / 2) {
      const from = await acquire(db);
      if (!from) {
        leaseHeldUntilMs = 0;
        return -1;
      }
      current = from;
      leaseHeldUntilMs = Date.now() + leaseMs;
    }
    const from = current;
    const ahead = readAhead && comparePositions(readAhead.after, from) === 0 ? readAhead.events : undefined;
    readAhead = undefined;
    const read = ahead
      ? wholeRead(ahead)
      : options.types
        ? await store.readAllOfTypes(from, batchSize, options.types)
        : wholeRead(await store.readAll(from, batchSize));
    if (!read.last) {
      releaseWaiters();
      return 0;
    }
    const { events, last } = read;
    const savedAtMs = Date.now();
    try {
      if (events.length === 0) {
        // Only events the handler ignores: nothing to make atomic with the checkpoint.
        await saveCheckpoint(db, last);
      } else if (options.mode === 'transactional') {
        const rows = await runTransactionalBatch(db, (tx) => options.handle(events, tx), checkpointClosing(last)).catch(
          (error: unknown) => {
            throw sqlState(error) === DIVISION_BY_ZERO ? new LeaseLostError(options.name) : error;
          },
        );
        const next = readsNext ? nextBatch.events(rows) : [];
        if (next.length > 0) readAhead = { after: last, events: next };
      } else {
        const deferred: Statement[] = [];
        await options.handle(events, {
          query: (sql, params) => db.query(sql, params),
          defer: (sql, params) => void deferred.push({ sql, params: [...params] }),
        });
        for (const write of deferred) await db.query(write.sql, write.params);
        await saveCheckpoint(db, last);
      }
    } catch (error) {
      // Whatever failed, start the next step from the stored checkpoint and a re-checked lease.
      leaseHeldUntilMs = 0;
      throw error;
    }
    leaseHeldUntilMs = savedAtMs + leaseMs;
    const notified = options.afterCommit?.({ from, last });
    if (notified) await notified.catch((error: unknown) => options.onError?.(error));
    current = last;
    releaseWaiters();
    return read.scanned;
  };

  /** While another instance holds the lease: read its stored checkpoint for our waiters. */
  const observeCheckpoint = async (): Promise<void> => {
    const { rows } = await db.query<{ commit_xid: string; seq: string }>(
      `select commit_xid::text, seq::text from es_checkpoints where consumer = $1`,
      [options.name],
    );
    const row = rows[0];
    if (row) observed = { commitXid: row.commit_xid, seq: row.seq };
    releaseWaiters();
  };

  // A new waiter wakes an idle loop, so an instance without the lease reads the checkpoint at once.
  let wakeLoop: (() => void) | undefined;

  let lastReadAtMs = 0;
  // A full batch means a backlog: that is read on at full speed, never paused.
  let lastBatchFull = false;
  /**
   * Until the next read may start: minReadIntervalMs after the last, or unwaitedReadIntervalMs while
   * no waiter is here (a waiter added meanwhile wakes the loop, which then keeps to the first).
   */
  const pauseBeforeRead = async (): Promise<void> => {
    while (!stopped && !lastBatchFull) {
      const unwatched = waiters.size === 0;
      const intervalMs = unwatched ? Math.max(minReadIntervalMs, unwaitedReadIntervalMs) : minReadIntervalMs;
      const remainingMs = intervalMs - (Date.now() - lastReadAtMs);
      if (remainingMs <= 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, remainingMs);
        if (unwatched) {
          wakeLoop = () => {
            clearTimeout(timer);
            resolve();
          };
        }
      });
      wakeLoop = undefined;
    }
  };

  const loop = (async () => {
    while (!stopped) {
      await pauseBeforeRead();
      if (stopped) break;
      lastReadAtMs = Date.now();
      let handled: number;
      const appendsBefore = store.appendCount;
      try {
        handled = await step();
        if (handled < 0 && waiters.size > 0) await observeCheckpoint();
      } catch (error) {
        options.onError?.(error);
        handled = -1;
      }
      if (stopped) break;
      lastBatchFull = handled === batchSize;
      if (lastBatchFull) continue;
      // The batch statement already read the next batch.
      if (readAhead) continue;
      // Something was appended in this process while we read: read again now, not after a poll.
      if (handled >= 0 && store.appendCount !== appendsBefore) continue;
      // A waiter whose position is not reached yet (a writer below the snapshot's xmin still running,
      // or another instance projecting) is polled for, not left to the idle poll.
      const idleMs =
        handled < 0
          ? waiters.size > 0
            ? WAITER_POLL_MS
            : Math.max(idlePollMs, 1_000)
          : waiters.size > 0
            ? Math.min(idlePollMs, HOLDER_WAITER_POLL_MS)
            : idlePollMs;
      await new Promise<void>((resolve) => {
        wakeLoop = resolve;
        void store.waitForAppend(idleMs).then(resolve);
      });
      wakeLoop = undefined;
      if (coalesceMs > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, coalesceMs));
    }
  })();

  return {
    name: options.name,
    position: () => current,
    holdsLease: () => !stopped && leaseHeldUntilMs > Date.now(),
    waitUntil(target, timeoutMs) {
      if (!isBefore(reached(), target)) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          target,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(`consumer ${options.name} did not reach ${target.commitXid}/${target.seq} in ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(waiter);
        wakeLoop?.();
      });
    },
    async stop() {
      stopped = true;
      // A pause or an idle wait ends now rather than at its timer.
      wakeLoop?.();
      await loop;
      await db
        .query(
          `update es_checkpoints set lease_owner = null, lease_until = null, lease_liveness = null
           where consumer = $1 and lease_owner = $2`,
          [options.name, options.owner],
        )
        .catch(() => undefined);
      await liveness.close();
    },
  };
}

/** A plain readAll as a typed read that wanted every event. */
function wholeRead(events: RecordedEvent[]): TypedRead {
  const last = events[events.length - 1];
  return last ? { events, scanned: events.length, last: last.position } : { events, scanned: 0 };
}

function isBefore(a: GlobalPosition, b: GlobalPosition): boolean {
  const xa = BigInt(a.commitXid);
  const xb = BigInt(b.commitXid);
  return xa < xb || (xa === xb && BigInt(a.seq) < BigInt(b.seq));
}

export class LeaseLostError extends Error {
  constructor(consumer: string) {
    super(`consumer ${consumer} lost its lease to another instance`);
    this.name = 'LeaseLostError';
  }
}
