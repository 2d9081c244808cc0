import { ReadThroughCache } from './read-through-cache.js';

const LIMITS = { ttlMs: 5_000, maxEntries: 3, refreshAheadMs: 1_000 };

/** A read per key that counts itself and answers what `stored` holds when it starts. */
function source() {
  const stored = new Map<string, string>();
  const reads: string[] = [];
  const read = (key: string) => {
    reads.push(key);
    return Promise.resolve(stored.get(key) ?? `none:${key}`);
  };
  return { stored, reads, read };
}

/**
 * The cache shared by the gateway's provider records and the webhook directory. Its drop, sharing
 * and refresh-ahead behaviour is also covered through ProviderAuthService
 * (test/gateway/provider-auth-cache.spec.ts); here: keys apart, the bound, failed reads, the limits.
 */
describe('ReadThroughCache', () => {
  it('holds each key apart and reads each once', async () => {
    const { stored, reads, read } = source();
    stored.set('a', 'A').set('b', 'B');
    const cache = new ReadThroughCache(LIMITS, read);
    expect(await cache.get('a')).toBe('A');
    expect(await cache.get('b')).toBe('B');
    expect(await cache.get('a')).toBe('A');
    expect(await cache.get('missing')).toBe('none:missing');
    expect(await cache.get('missing')).toBe('none:missing');
    expect(reads).toEqual(['a', 'b', 'missing']);
  });

  it('never holds more than maxEntries: a full cache is emptied before the next entry', async () => {
    const { reads, read } = source();
    const cache = new ReadThroughCache(LIMITS, read);
    for (const key of ['a', 'b', 'c']) await cache.get(key);
    await cache.get('d'); // the fourth key empties the three
    await cache.get('d');
    await cache.get('a');
    expect(reads).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('keeps no failed read: the callers get its error and the next caller reads again', async () => {
    let fail = true;
    let reads = 0;
    const cache = new ReadThroughCache(LIMITS, (key) => {
      reads++;
      if (fail) throw new Error(`down: ${key}`); // thrown at once, not as a rejected promise
      return Promise.resolve('up');
    });
    await expect(Promise.all([cache.get('a'), cache.get('a')])).rejects.toThrow('down: a');
    fail = false;
    expect(await cache.get('a')).toBe('up');
    expect(reads).toBe(2);
  });

  it('refuses limits that cache nothing or refresh outside the TTL', () => {
    const read = () => Promise.resolve(1);
    expect(() => new ReadThroughCache({ ...LIMITS, ttlMs: 0 }, read)).toThrow();
    expect(() => new ReadThroughCache({ ...LIMITS, maxEntries: 0 }, read)).toThrow();
    expect(() => new ReadThroughCache({ ...LIMITS, refreshAheadMs: 5_000 }, read)).toThrow();
    expect(() => new ReadThroughCache({ ...LIMITS, refreshAheadMs: -1 }, read)).toThrow();
  });
});
