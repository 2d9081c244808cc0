import { Worker } from 'node:worker_threads';
import type { BrokenLink } from '../store/event-chain.js';
import { START, comparePositions, type GlobalPosition } from '../store/event-store.js';
import { postgresConnectionOf } from '../sql/postgres-database.js';
import type { SqlDatabase } from '../sql/sql-database.js';
import { readAuditBatch, settleHeadCheck, streamHeadPages, type AuditRow } from './audit-reader.js';
import { DEFAULT_MAX_STREAM_HEADS } from './bounded-chain-check.js';
import { defaultChainThread, startChainCheck, type PagedChainCheck } from './chain-check.js';
import { spillOpenerFor } from './stream-head-spill.js';
import { rowsOfPage, type FromReader, type ReaderSettings, type ToReader } from './audit-read-protocol.js';

/**
 * One pass over the store for an audit (the replay): every event up to `readUntil` read in global
 * order and its hash chain checked, the events up to `projectUntil` handed to the caller page by
 * page, then the recorded stream heads checked against what the pass saw.
 *
 * Where the work runs:
 * - `reader` (a PostgreSQL server, built code): a worker thread with connections of its own reads
 *   the pages, parses them and checks the chains; this thread only takes the events it projects.
 *   The replay's thread had spent about a third of its time parsing pages and handing them to the
 *   chain check, and it is the one the whole replay waits for.
 * - `worker`: pages are read here and the chains checked on a worker thread (chain-check.ts);
 *   PGlite (one connection, in this thread's memory) and callers without a worker script.
 * - `inline`: everything here (the TypeScript sources, as the test runner loads them).
 */
export interface AuditPass {
  readonly thread: 'reader' | 'worker' | 'inline';
  /** The next page (`read` events checked, `events` those to project), or undefined after the last. */
  next(): Promise<AuditPage | undefined>;
  /**
   * After the last page: every page's links have reached `onBroken`, then (`heads`) the recorded
   * stream heads are checked against what the pass saw (a deleted tail) and their links follow.
   */
  finish(options: { heads: boolean }): Promise<void>;
  readonly eventsChecked: number;
  /** After the last page: whether the chain check held more than maxStreamHeads streams and spilled the rest. */
  readonly spilled: boolean;
  /** Stops reading (idempotent; also after a failure or midway). */
  close(): Promise<void>;
}

export interface AuditPage {
  read: number;
  events: AuditRow[];
}

export interface AuditPassOptions {
  /** Last event read and checked (inclusive). */
  readUntil: GlobalPosition;
  /** Last event handed to the caller (inclusive, at most readUntil). */
  projectUntil: GlobalPosition;
  batchEvents: number;
  /** Every broken link, in global order, page links before head links. */
  onBroken: (link: BrokenLink) => void;
  /** Default: `reader` on a PostgreSQL server when the worker scripts are built, else as chain-check.ts decides. */
  thread?: 'reader' | 'worker' | 'inline';
  /** The reader's script (tests run the built one from the sources). */
  readerUrl?: URL;
  /**
   * Streams the chain check holds in memory (DEFAULT_MAX_STREAM_HEADS, about 225 bytes each); past
   * them it keeps the least recently seen in a temporary table (bounded-chain-check.ts).
   */
  maxStreamHeads?: number;
}

/**
 * Pages the reader may send ahead of the one being projected. Each is a copy of its events (about
 * 2 KB per event, 2,000 events per replay page); past this the reader waits before reading on.
 */
export const READER_PAGES_AHEAD = 3;

const READER_URL = new URL('./audit-read.worker.js', import.meta.url);
/** The TypeScript sources (the test runner) have no compiled worker script beside them. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

export function startAuditPass(db: SqlDatabase, options: AuditPassOptions): AuditPass {
  if (comparePositions(options.projectUntil, options.readUntil) > 0) {
    throw new RangeError('audit pass: projectUntil is past readUntil');
  }
  const maxStreamHeads = options.maxStreamHeads ?? DEFAULT_MAX_STREAM_HEADS;
  if (!Number.isInteger(maxStreamHeads) || maxStreamHeads < 1) {
    throw new RangeError(`audit pass: maxStreamHeads must be a positive integer, got ${maxStreamHeads}`);
  }
  const connection = postgresConnectionOf(db);
  const canRead = connection !== undefined && (!FROM_SOURCES || options.readerUrl !== undefined);
  const thread = options.thread ?? (canRead ? 'reader' : undefined);
  if (thread === 'reader') {
    if (!connection) throw new Error('audit pass: a reader thread needs a PostgreSQL server');
    return new ReaderAuditPass(db, options, {
      connection,
      readUntil: options.readUntil,
      projectUntil: options.projectUntil,
      batchEvents: options.batchEvents,
      pagesAhead: READER_PAGES_AHEAD,
      maxStreamHeads,
    });
  }
  return new LocalAuditPass(db, options, defaultChainThread(thread ? { thread } : {}), maxStreamHeads);
}

/** Pages read on this thread, one read ahead; the chains checked where chain-check.ts runs them. */
class LocalAuditPass implements AuditPass {
  private nextPage: Promise<AuditRow[]>;
  private ended = false;
  private readonly chain: Promise<PagedChainCheck>;
  private started: PagedChainCheck | undefined;

  constructor(
    private readonly db: SqlDatabase,
    private readonly options: AuditPassOptions,
    private chainThread: 'worker' | 'inline',
    maxStreamHeads: number,
  ) {
    this.chain = this.startChain(maxStreamHeads);
    // Awaited by next/finish/close; a failure before then must not become an unhandled rejection.
    this.chain.catch(() => undefined);
    this.nextPage = this.read(START);
  }

  get thread(): 'worker' | 'inline' {
    return this.chainThread;
  }

  get eventsChecked(): number {
    return this.started?.eventsChecked ?? 0;
  }

  get spilled(): boolean {
    return this.started?.spilled ?? false;
  }

  async next(): Promise<AuditPage | undefined> {
    if (this.ended) return undefined;
    const batch = await this.nextPage;
    if (batch.length === 0) {
      this.ended = true;
      return undefined;
    }
    // Read the next page while this one is projected (a pool has connections to spare).
    this.nextPage = this.read(batch[batch.length - 1]!.position);
    await (await this.chain).submit(batch);
    const events: AuditRow[] = [];
    for (const row of batch) if (comparePositions(row.position, this.options.projectUntil) <= 0) events.push(row);
    return { read: batch.length, events };
  }

  async finish({ heads }: { heads: boolean }): Promise<void> {
    const chain = await this.chain;
    await chain.drain();
    if (!heads) return;
    const check = await chain.checkHeads(() => streamHeadPages(this.db));
    for (const link of await settleHeadCheck(this.db, check)) this.options.onBroken(link);
  }

  async close(): Promise<void> {
    await this.nextPage.catch(() => undefined);
    await (await this.chain.catch(() => undefined))?.close();
  }

  /**
   * The worker thread has no database to spill to, so a store with more streams than half the
   * bound (the other half for streams without a record, or written meanwhile) is checked here.
   */
  private async startChain(maxStreamHeads: number): Promise<PagedChainCheck> {
    if (this.chainThread === 'worker') {
      const { rows } = await this.db.query<{ n: string }>(`select count(*)::text as n from es_streams`);
      if (Number(rows[0]!.n) > maxStreamHeads / 2) this.chainThread = 'inline';
    }
    this.started = startChainCheck(this.options.onBroken, {
      thread: this.chainThread,
      maxStreamHeads,
      spill: spillOpenerFor(this.db),
    });
    return this.started;
  }

  private read(after: GlobalPosition): Promise<AuditRow[]> {
    const page = readAuditBatch(this.db, after, this.options.readUntil, this.options.batchEvents);
    // A failure elsewhere leaves the prefetched page unawaited: it must not become an unhandled rejection.
    page.catch(() => undefined);
    return page;
  }
}

/** audit-read.worker.ts reads and checks; its messages arrive in order and are taken one at a time. */
class ReaderAuditPass implements AuditPass {
  readonly thread = 'reader';
  private readonly worker: Worker;
  private readonly arrived: FromReader[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private ended = false;
  private checked = 0;
  private spilledHeads = false;

  constructor(
    private readonly db: SqlDatabase,
    private readonly options: AuditPassOptions,
    settings: ReaderSettings,
  ) {
    this.worker = new Worker(options.readerUrl ?? READER_URL, { workerData: settings });
    this.worker.on('message', (message: FromReader) => {
      this.arrived.push(message);
      this.wakeUp();
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`audit read: the reader exited (code ${code})`)));
  }

  get eventsChecked(): number {
    return this.checked;
  }

  get spilled(): boolean {
    return this.spilledHeads;
  }

  async next(): Promise<AuditPage | undefined> {
    if (this.ended) return undefined;
    const message = await this.take();
    if (message.kind === 'end') {
      this.ended = true;
      this.spilledHeads = message.spilled;
      return undefined;
    }
    if (message.kind !== 'page') throw this.fail(new Error(`audit read: a ${message.kind} message instead of a page`));
    this.send({ kind: 'taken' });
    this.checked += message.read;
    for (const link of message.broken) this.options.onBroken(link);
    return { read: message.read, events: rowsOfPage(message) };
  }

  async finish({ heads }: { heads: boolean }): Promise<void> {
    // Each page came with its links: after the last one there is nothing left to wait for.
    if (!this.ended) throw new Error('audit read: finished before the last page');
    if (!heads) return;
    this.send({ kind: 'heads' });
    const message = await this.take();
    if (message.kind !== 'heads') throw this.fail(new Error(`audit read: a ${message.kind} message instead of heads`));
    for (const link of await settleHeadCheck(this.db, message.result)) this.options.onBroken(link);
  }

  async close(): Promise<void> {
    this.fail(new Error('audit read: closed'));
    await this.worker.terminate();
  }

  private send(message: ToReader): void {
    if (this.failure) throw this.failure;
    this.worker.postMessage(message);
  }

  private async take(): Promise<FromReader> {
    for (;;) {
      // A failure (or close) wins over pages that arrived before it.
      if (this.failure) throw this.failure;
      const message = this.arrived.shift();
      if (message?.kind === 'failed') throw this.fail(new Error(`audit read: ${message.message}`));
      if (message) return message;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private wakeUp(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The first failure wins; whoever waits for a message gets it. */
  private fail(error: Error): Error {
    this.failure ??= error;
    this.wakeUp();
    return this.failure;
  }
}
