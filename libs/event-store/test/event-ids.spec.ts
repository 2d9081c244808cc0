import { newEventId } from '../src/index.js';

/**
 * Fresh event ids are UUID v7: es_events.event_id is a unique btree, and ids in time order are
 * inserted at its right edge instead of on a random leaf. A uuid column
 * orders by its bytes, which is the order of the lowercase hex text.
 */
describe('newEventId', () => {
  it('hands out RFC 9562 version 7 ids, each new one after the one before', () => {
    const ids = Array.from({ length: 10_000 }, () => newEventId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const outOfOrder = ids.findIndex((id, i) => i > 0 && id <= ids[i - 1]!);
    expect(outOfOrder).toBe(-1);
  });

  it('gives every id random bits of its own (the block drawn from the CSPRNG is never reused)', () => {
    // The last 48 bits are random in every id; across 10,000 ids (39 blocks) a repeat would mean a
    // block's bytes were handed out twice. The chance of a true collision is about 2e-7.
    const tails = Array.from({ length: 10_000 }, () => newEventId().slice(-12));
    expect(new Set(tails).size).toBe(tails.length);
  });

  it('starts with the current time in milliseconds', () => {
    const before = Date.now();
    const id = newEventId();
    const after = Date.now();
    const ms = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });
});
