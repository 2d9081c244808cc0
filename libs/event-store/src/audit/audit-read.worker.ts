import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import type { BrokenLink } from '../store/event-chain.js';
import { START, comparePositions, type GlobalPosition } from '../store/event-store.js';
import { postgresPoolConfig } from '../sql/postgres-database.js';
import { PreparedStatementNames } from '../sql/prepared-statement-names.js';
import type { SqlExecutor } from '../sql/sql-database.js';
import { streamHeadPages } from './audit-reader.js';
import { BoundedChainCheck } from './bounded-chain-check.js';
import { openServerSpill } from './stream-head-spill.js';
import { pageMessage, type FromReader, type ReaderSettings, type ToReader } from './audit-read-protocol.js';
import type { CopiedPage } from './copied-page-encoding.js';
import { readCopiedPage } from './copied-page-read.js';

/**
 * An audit pass's reader (audit-pass.ts starts it): reads the store's pages in global order on
 * connections of its own (one read ahead; by binary COPY, copied-page-read.ts), checks each event's
 * hash chain and sends the events to project, at most `pagesAhead` pages before the pass has taken
 * them; then, when asked, checks the recorded stream heads. Past `maxStreamHeads` streams the check
 * spills on a third connection.
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

/** One page, read on a connection of its own (the other may be reading the next). */
async function readPage(after: GlobalPosition): Promise<CopiedPage> {
  const client = await pool.connect();
  try {
    const page = await readCopiedPage(client, after, settings.readUntil, settings.batchEvents);
    client.release();
    return page;
  } catch (error) {
    // A COPY stopped part way leaves the connection mid-protocol: it is closed, not reused.
    client.release(error instanceof Error ? error : true);
    throw error;
  }
}

async function readAll(): Promise<void> {
  let next = readPage(START);
  for (;;) {
    const { events, encoded, facts } = await next;
    if (events.length === 0) break;
    const last = events[events.length - 1]!.position;
    next = readPage(last);
    // Reported by the loop's next turn, or never if this page's send fails first.
    next.catch(() => undefined);
    const broken: BrokenLink[] = [];
    await chain.checkPage(events, (link) => broken.push(link), encoded);
    // Pages come in global order: the events up to projectUntil are a prefix of the page, and only a
    // page across it compares each event's position (two BigInt parses each).
    let projected = events.length;
    if (comparePositions(last, settings.projectUntil) > 0) {
      projected = 0;
      while (projected < events.length && comparePositions(events[projected]!.position, settings.projectUntil) <= 0) {
        projected += 1;
      }
    }
    while (credit === 0) await new Promise<void>((resolve) => (creditReturned = resolve));
    credit -= 1;
    const { message, transfer } = pageMessage(events.length, projected, encoded, facts, broken);
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
