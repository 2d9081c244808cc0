import { BoundedKeyCache } from './subject-keys.js';

describe('the bounded data-key cache', () => {
  it('keeps at most maxEntries, dropping the least recently used first', () => {
    const cache = new BoundedKeyCache<number>(2, 60_000);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.size]).toEqual([1, undefined, 3, 2]);
  });

  it('forgets an entry older than its age limit, so an erasure elsewhere is honoured', () => {
    let nowMs = 0;
    const cache = new BoundedKeyCache<string>(10, 1_000, () => nowMs);
    cache.set('k', 'key');
    nowMs = 999;
    expect(cache.get('k')).toBe('key');
    nowMs = 1_000;
    expect(cache.get('k')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('has room and an age limit', () => {
    expect(() => new BoundedKeyCache(0, 1)).toThrow(RangeError);
    expect(() => new BoundedKeyCache(1, 0)).toThrow(RangeError);
  });
});
