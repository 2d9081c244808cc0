import { randomUUID } from 'node:crypto';
import { ErrorType, NO_STREAM, BACKWARDS, isCommandError, jsonEvent } from '@kurrent/kurrentdb-client';
import { START, comparePositions, type GlobalPosition, type RecordedEvent } from '../store/event-store.js';
import { LeaseLostError, type RunningConsumer } from '../subscriptions/catch-up-subscription.js';
import { BOOKKEEPING_STREAM_PREFIX, type KurrentDbEventStore } from './kurrentdb-event-store.js';

export interface KurrentConsumerOptions {
  /** Unique consumer name: its lease-and-checkpoint stream. */
  name: string;
  /** Instance id holding the lease. */
  owner: string;
  batchSize?: number;
  idlePollMs?: number;
  /** A lease not renewed for this long is taken over by another instance. */
  leaseMs?: number;
  /**
   * Runs before the checkpoint is saved (KurrentDB has no transaction shared with a read-model
   * database): at-least-once, so handlers must be idempotent by event id.
   */
  handle: (events: RecordedEvent[]) => Promise<void>;
  onError?: (error: unknown) => void;
}

export interface LeaseRecord {
  owner: string | null;
  untilMs: number;
  commitXid: string;
  seq: string;
}

const LEASE_EVENT = 'ConsumerLease';
/** The lease stream keeps only its recent records (each save appends one). */
const LEASE_STREAM_MAX_COUNT = 16;

export function consumerStream(name: string): string {
  return `${BOOKKEEPING_STREAM_PREFIX}consumer-${name}`;
}

/**
 * A checkpointed, leased consumer of $all on KurrentDB, with the same guarantees as the PostgreSQL
 * one across instances: one holder at a time, a crashed holder's work taken over after `leaseMs`.
 * Lease and checkpoint are one stream per consumer; each record is appended at the expected
 * revision of the previous one, so two instances can never both extend it: the loser's next
 * save fails with LeaseLostError. Lease expiry compares the instances' clocks (keep them in NTP sync;
 * PostgreSQL's consumer uses the database's clock instead).
 */
export async function startKurrentConsumer(
  store: KurrentDbEventStore,
  options: KurrentConsumerOptions,
): Promise<RunningConsumer> {
  const batchSize = options.batchSize ?? 500;
  const idlePollMs = options.idlePollMs ?? 250;
  const leaseMs = options.leaseMs ?? 15_000;
  const streamName = consumerStream(options.name);

  let stopped = false;
  let current: GlobalPosition = START;
  /** Revision of our last lease record; undefined while we hold no lease. */
  let leaseRevision: bigint | undefined;
  let leaseHeldUntilMs = 0;
  const waiters = new Set<{ target: GlobalPosition; resolve: () => void }>();

  const write = async (record: LeaseRecord, expected: bigint | typeof NO_STREAM): Promise<bigint | undefined> => {
    try {
      const result = await store.client.appendToStream(
        streamName,
        jsonEvent({ id: randomUUID(), type: LEASE_EVENT, data: { ...record } }),
        { streamState: expected },
      );
      if (expected === NO_STREAM) {
        await store.client.setStreamMetadata(streamName, { maxCount: LEASE_STREAM_MAX_COUNT }).catch(() => undefined);
      }
      return result.nextExpectedRevision;
    } catch (error) {
      if (error instanceof Error && isCommandError(error) && error.type === ErrorType.WRONG_EXPECTED_VERSION) {
        return undefined;
      }
      throw error;
    }
  };

  const acquire = async (): Promise<GlobalPosition | undefined> => {
    const last = await readLease(store, streamName);
    const now = Date.now();
    const claim = leaseClaim(last?.record, options.owner, now, leaseMs);
    if (!claim) return undefined;
    const position = { commitXid: claim.commitXid, seq: claim.seq };
    const revision = await write(claim, last ? last.revision : NO_STREAM);
    if (revision === undefined) return undefined;
    leaseRevision = revision;
    return position;
  };

  const saveCheckpoint = async (position: GlobalPosition): Promise<void> => {
    if (leaseRevision === undefined) throw new LeaseLostError(options.name);
    const revision = await write({ owner: options.owner, untilMs: Date.now() + leaseMs, ...position }, leaseRevision);
    if (revision === undefined) {
      leaseRevision = undefined;
      throw new LeaseLostError(options.name);
    }
    leaseRevision = revision;
  };

  const releaseWaiters = () => {
    for (const waiter of waiters) {
      if (comparePositions(current, waiter.target) >= 0) {
        waiters.delete(waiter);
        waiter.resolve();
      }
    }
  };

  const step = async (): Promise<number> => {
    if (leaseHeldUntilMs - Date.now() < leaseMs / 2) {
      const from = await acquire();
      if (!from) {
        leaseHeldUntilMs = 0;
        return -1;
      }
      current = from;
      leaseHeldUntilMs = Date.now() + leaseMs;
    }
    const events = await store.readAll(current, batchSize);
    if (events.length === 0) {
      releaseWaiters();
      return 0;
    }
    const last = events[events.length - 1]!.position;
    const savedAtMs = Date.now();
    try {
      await options.handle(events);
      await saveCheckpoint(last);
    } catch (error) {
      leaseHeldUntilMs = 0;
      throw error;
    }
    leaseHeldUntilMs = savedAtMs + leaseMs;
    current = last;
    releaseWaiters();
    return events.length;
  };

  const loop = (async () => {
    while (!stopped) {
      let handled: number;
      try {
        handled = await step();
      } catch (error) {
        options.onError?.(error);
        handled = -1;
      }
      if (stopped) break;
      if (handled === batchSize) continue;
      await store.waitForAppend(handled < 0 ? Math.min(Math.max(idlePollMs, 100), leaseMs) : idlePollMs);
    }
  })();

  return {
    name: options.name,
    position: () => current,
    // No afterCommit hook here, so no in-memory mirror may rely on this consumer: never claimed.
    holdsLease: () => false,
    waitUntil(target, timeoutMs) {
      if (comparePositions(current, target) >= 0) return Promise.resolve();
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
      });
    },
    async stop() {
      stopped = true;
      await loop;
      if (leaseRevision !== undefined) {
        await write({ owner: null, untilMs: 0, ...current }, leaseRevision).catch(() => undefined);
        leaseRevision = undefined;
      }
    },
  };
}

/**
 * The record that claims (or renews) the lease from the stream's last record, or undefined while
 * another owner holds an unexpired one. The checkpoint is carried over unchanged: whoever takes
 * over resumes exactly where the previous holder last saved.
 */
export function leaseClaim(
  last: LeaseRecord | undefined,
  owner: string,
  nowMs: number,
  leaseMs: number,
): LeaseRecord | undefined {
  if (!owner) throw new RangeError('a lease owner must be named');
  if (!Number.isInteger(leaseMs) || leaseMs < 1) throw new RangeError('leaseMs must be a positive integer');
  if (last && last.owner !== null && last.owner !== owner && last.untilMs > nowMs) return undefined;
  const position = last ? { commitXid: last.commitXid, seq: last.seq } : START;
  return { owner, untilMs: nowMs + leaseMs, ...position };
}

/** Starts a consumer's checkpoint at `position` (e.g. the current head) before it first runs. */
export async function seedKurrentCheckpoint(
  store: KurrentDbEventStore,
  name: string,
  position: GlobalPosition,
): Promise<void> {
  await store.client.appendToStream(
    consumerStream(name),
    jsonEvent({ id: randomUUID(), type: LEASE_EVENT, data: { owner: null, untilMs: 0, ...position } }),
    { streamState: NO_STREAM },
  );
}

async function readLease(
  store: KurrentDbEventStore,
  streamName: string,
): Promise<{ revision: bigint; record: LeaseRecord } | undefined> {
  try {
    for await (const resolved of store.client.readStream(streamName, {
      direction: BACKWARDS,
      fromRevision: 'end',
      maxCount: 1,
    })) {
      if (resolved.event)
        return { revision: resolved.event.revision, record: resolved.event.data as unknown as LeaseRecord };
    }
  } catch (error) {
    if (error instanceof Error && isCommandError(error) && error.type === ErrorType.STREAM_NOT_FOUND) return undefined;
    throw error;
  }
  return undefined;
}
