import type { SqlDatabase } from '@transfergate/event-store';

const POLL_MS = 100;

/**
 * Waits until a consumer's stored checkpoint has reached the newest event appended so far: the
 * out-of-process form of read-your-writes (the projection runs in another process).
 */
export async function waitForCheckpoint(db: SqlDatabase, consumer: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const head = await db.query<{ xid: string; seq: string }>(
    'select xid::text as xid, seq::text as seq from es_events order by xid desc, seq desc limit 1',
  );
  const last = head.rows[0];
  if (!last) return;
  for (;;) {
    const { rows } = await db.query(
      'select 1 from es_checkpoints where consumer = $1 and (commit_xid, seq) >= ($2::xid8, $3::bigint)',
      [consumer, last.xid, last.seq],
    );
    if (rows.length > 0) return;
    if (Date.now() > deadline) throw new Error(`${consumer} did not reach the head within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
