import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { encodeEvents } from '../store/chain-encoding.js';
import type { BrokenLink } from '../store/event-chain.js';
import { START, comparePositions } from '../store/event-store.js';
import { postgresPoolConfig } from '../sql/postgres-database.js';
import { PreparedStatementNames } from '../sql/prepared-statement-names.js';
import type { SqlExecutor } from '../sql/sql-database.js';
import { readAuditBatch, streamHeadPages } from './audit-reader.js';
import { BoundedChainCheck } from './bounded-chain-check.js';
import { openServerSpill } from './stream-head-spill.js';
import { pageMessage, trailerOf, type FromReader, type ReaderSettings, type ToReader } from './audit-read-protocol.js';

/**
 * An audit pass's reader (audit-pass.ts starts it): reads the store's pages in global order on
 * connections of its own (one read ahead), checks each event's hash chain and sends the events to
 * project, at most `pagesAhead` pages before the pass has taken them; then, when asked, checks the
 * recorded stream heads. Past `maxStreamHeads` streams the check spills on a third connection.
 */
if (!parentPort) throw new Error('audit-read.worker runs as a worker thread');
const port = parentPort;
const settings = workerData as ReaderSettings;

// Two connections: one reads the next page while the other's rows are checked.
const pool = new pg.Pool(postgresPoolConfig(settings.connection, 2));
// An idle client's error (a server restart) must not end the thread; the next query reports it.
pool.on('error', () => undefined);
// The page query is prepared once per connection, as openPostgres does it (a few texts at most here).
const statements = new PreparedStatementNames(4, 64 * 1024);
const db: SqlExecutor = {
  async query<Row>(sql: string, params?: readonly unknown[]) {
    const values = params as unknown[] | undefined;
    const name = statements.nameOf(sql, params);
    const result = await (name === undefined ? pool.query(sql, values) : pool.query({ name, text: sql, values }));
    return { rows: result.rows as Row[] };
  },
};

const chain = new BoundedChainCheck(settings.maxStreamHeads, () => openServerSpill(settings.connection));
let credit = settings.pagesAhead;
let creditReturned: (() => void) | undefined;

function send(message: FromReader): void {
  port.postMessage(message);
}

function failed(error: unknown): void {
  send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}

port.on('message', (message: ToReader) => {
  if (message.kind === 'taken') {
    credit += 1;
    const wake = creditReturned;
    creditReturned = undefined;
    wake?.();
  } else {
    checkHeads().catch(failed);
  }
});

async function readAll(): Promise<void> {
  let next = readAuditBatch(db, START, settings.readUntil, settings.batchEvents);
  for (;;) {
    const batch = await next;
    if (batch.length === 0) break;
    next = readAuditBatch(db, batch[batch.length - 1]!.position, settings.readUntil, settings.batchEvents);
    // Reported by the loop's next turn, or never if this page's send fails first.
    next.catch(() => undefined);
    const broken: BrokenLink[] = [];
    const encoded = encodeEvents(batch, batch.map(trailerOf));
    await chain.checkPage(batch, (link) => broken.push(link), encoded);
    // Pages come in global order: the events up to projectUntil are a prefix of the page, and only a
    // page across it compares each event's position (two BigInt parses each).
    let projected = batch.length;
    if (comparePositions(batch[batch.length - 1]!.position, settings.projectUntil) > 0) {
      projected = 0;
      while (projected < batch.length && comparePositions(batch[projected]!.position, settings.projectUntil) <= 0) {
        projected += 1;
      }
    }
    while (credit === 0) await new Promise<void>((resolve) => (creditReturned = resolve));
    credit -= 1;
    const { message, transfer } = pageMessage(batch, projected, encoded, broken);
    port.postMessage(message, transfer);
  }
  send({ kind: 'end', spilled: chain.spilled });
}

async function checkHeads(): Promise<void> {
  const result = await chain.checkHeads(() => streamHeadPages(db));
  await chain.close();
  await pool.end();
  send({ kind: 'heads', result });
}

readAll().catch(failed);
