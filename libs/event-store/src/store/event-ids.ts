import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/** Random bytes uuid's v7 takes per id (it uses 10 of them: 4 seed the counter, 6 the tail). */
const RANDOM_BYTES_PER_ID = 16;
/** Ids served from one call to the CSPRNG. */
const IDS_PER_DRAW = 256;
/**
 * RFC 9562's fixed-length counter (method 1) as uuid lays it out: 32 bits after the time, seeded
 * with 31 random bits each millisecond, so at least 2^31 ids fit in one.
 */
const COUNTER_MAX = 0xffffffff;

let pool = new Uint8Array(0);
let poolOffset = 0;
let lastMs = -Infinity;
let counter = 0;

/**
 * Sixteen fresh bytes from a block drawn from the CSPRNG, each byte handed out once. uuid's own
 * v7 asks the CSPRNG for every id (`crypto.getRandomValues`), which the deposit's CPU profile on
 * PostgreSQL put at 3.5% of the main thread; Node's randomUUID draws in blocks the same way.
 */
function freshRandom(): Uint8Array {
  if (poolOffset + RANDOM_BYTES_PER_ID > pool.length) {
    pool = randomFillSync(new Uint8Array(RANDOM_BYTES_PER_ID * IDS_PER_DRAW));
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + RANDOM_BYTES_PER_ID);
  poolOffset += RANDOM_BYTES_PER_ID;
  return bytes;
}

/**
 * A fresh event id for callers that have no natural one: a UUID v7 (RFC 9562), a millisecond
 * timestamp, a counter and random bits. `es_events.event_id` is a unique btree, and random (v4) ids
 * put every insert on a random leaf, so once the index outgrows the buffer pool each append reads
 * and dirties a page of its own (PGlite's 64 MB pool first). Ids in
 * time order land on the index's right edge, which stays in memory.
 *
 * The time and counter are kept here because uuid keeps its own only when it draws the random bytes
 * itself: within a millisecond the counter goes up by one, so each id sorts after the one before;
 * a new millisecond seeds the counter from the random bytes, as uuid does, and a counter that runs
 * out moves the time on by a millisecond.
 */
export function newEventId(): string {
  const random = freshRandom();
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else if (counter === COUNTER_MAX) {
    lastMs += 1;
    counter = 0;
  } else {
    counter += 1;
  }
  return uuidv7({ msecs: lastMs, seq: counter, random });
}
