import assert from 'node:assert/strict';

export interface ReadThroughCacheLimits {
  /** An entry answers at most this long after its read began (what a lost drop notice can cost). */
  ttlMs: number;
  /** Entries held at most; a full cache is emptied before the next entry goes in. */
  maxEntries: number;
  /** The last part of an entry's life in which it answers and is read again in the background. */
  refreshAheadMs: number;
}

/**
 * A bounded read-through cache of records that change rarely and are needed on every request
 * (provider credentials, webhook infrastructures), dropped as a whole when a notice says they
 * changed (forgetAll). Concurrent misses of one key share one read, and steady traffic never waits
 * for a read: an entry in its last `refreshAheadMs` is read again in the background while it answers.
 *
 * Written here rather than taken from lru-cache: its clear() aborts the fetches in flight, so the
 * requests waiting on them fail, where a read that overlapped a change must still answer its own
 * callers (they were in flight across the change) and only be kept from the callers that follow.
 */
export class ReadThroughCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAtMs: number }>();
  /** Reads in flight per key (bounded by the keys in use: at most maxEntries cached ones plus misses). */
  private readonly reads = new Map<string, Promise<V>>();
  /** Moves on every drop: a read that was in flight across one must not be cached. */
  private generation = 0;

  constructor(
    private readonly limits: ReadThroughCacheLimits,
    private readonly read: (key: string) => Promise<V>,
  ) {
    assert.ok(limits.ttlMs > 0 && limits.maxEntries > 0, 'a cache holds something for some time');
    assert.ok(limits.refreshAheadMs >= 0 && limits.refreshAheadMs < limits.ttlMs, 'refresh ahead within the TTL');
  }

  /** Forgets every entry (the records changed); reads in flight are no longer shared or kept. */
  forgetAll(): void {
    this.generation++;
    this.entries.clear();
    this.reads.clear();
  }

  get(key: string): Promise<V> {
    const nowMs = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAtMs > nowMs) {
      if (entry.expiresAtMs - nowMs < this.limits.refreshAheadMs) void this.readOnce(key).catch(() => undefined);
      return Promise.resolve(entry.value);
    }
    return this.readOnce(key);
  }

  /** One read per key at a time. Caches what it read unless a drop overlapped it. */
  private readOnce(key: string): Promise<V> {
    const pending = this.reads.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const startedAtMs = Date.now();
    const read = this.readSafely(key).then((value) => {
      // Read before a drop that happened meanwhile: good for its own callers (they overlapped the
      // change), not for the next ones.
      if (generation === this.generation) {
        if (this.entries.size >= this.limits.maxEntries) this.entries.clear();
        // Valid from when the read started: never answered longer than ttlMs after it.
        this.entries.set(key, { value, expiresAtMs: startedAtMs + this.limits.ttlMs });
      }
      return value;
    });
    void read
      .finally(() => {
        if (this.reads.get(key) === read) this.reads.delete(key);
      })
      .catch(() => undefined);
    this.reads.set(key, read);
    return read;
  }

  /** The read as a promise even when it throws at once. */
  private readSafely(key: string): Promise<V> {
    try {
      return this.read(key);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
}
