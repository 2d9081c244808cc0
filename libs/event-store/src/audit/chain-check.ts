import { Worker } from 'node:worker_threads';
import type { AuditedEvent, BrokenLink } from '../store/event-chain.js';
import type { GlobalPosition } from '../store/event-store.js';
import {
  BoundedChainCheck,
  DEFAULT_MAX_STREAM_HEADS,
  cannotSpill,
  type OpenedSpill,
  type ReadHeadPages,
} from './bounded-chain-check.js';
import {
  pageFields,
  type FromWorker,
  type HeadCheck,
  type ToWorker,
  type WorkerSettings,
} from './chain-check-protocol.js';

export type { HeadCheck, StreamHead } from './chain-check-protocol.js';

/**
 * Pages handed to the worker and not yet answered. Each holds a copy of its events' hashed fields
 * (about 2 KB per event, 2,000 events per replay page); past this, `submit` waits for the oldest.
 */
export const MAX_PAGES_IN_FLIGHT = 4;

/**
 * The hash-chain check of a whole pass over the store (the replay), page by page in global order:
 * ChainVerifier's results, in its order, whether it runs on this thread or on a worker thread.
 */
export interface PagedChainCheck {
  /** Queues the next page; resolves once another page may be queued. */
  submit(rows: readonly AuditedEvent[]): Promise<void>;
  /** Resolves once every queued page was checked (its broken links reported). */
  drain(): Promise<void>;
  /** ChainVerifier.checkHeads, after drain; `readHeads` gives every recorded head by pages (not called once spilled). */
  checkHeads(readHeads: ReadHeadPages): Promise<HeadCheck>;
  readonly eventsChecked: number;
  /** Whether streams past the bound went to the spill (never on the worker thread, which cannot). */
  readonly spilled: boolean;
  readonly thread: 'worker' | 'inline';
  /** Stops the worker (idempotent; also after a failure). */
  close(): Promise<void>;
}

export interface ChainCheckOptions {
  /**
   * `worker` (default when running the built code): SHA-256 and the encoding on a worker thread,
   * overlapping the caller's work; `inline`: on the calling thread.
   */
  thread?: 'worker' | 'inline';
  /** The worker's script (tests run the built one from the sources). */
  workerUrl?: URL;
  /** Streams held before the check spills (DEFAULT_MAX_STREAM_HEADS). */
  maxStreamHeads?: number;
  /**
   * Where streams past the bound go (bounded-chain-check.ts). Only the calling thread can spill:
   * without a spill, or on the worker thread, a check past the bound fails.
   */
  spill?: () => Promise<OpenedSpill>;
}

const WORKER_URL = new URL('./chain-check.worker.js', import.meta.url);
/** The TypeScript sources (the test runner) have no compiled worker script beside them. */
const FROM_SOURCES = import.meta.url.endsWith('.ts');

/** Starts a check; every broken link reaches `onBroken` in global order (page links before heads). */
export function startChainCheck(
  onBroken: (link: BrokenLink) => void,
  options: ChainCheckOptions = {},
): PagedChainCheck {
  const maxStreamHeads = options.maxStreamHeads ?? DEFAULT_MAX_STREAM_HEADS;
  return defaultChainThread(options) === 'inline'
    ? new InlineChainCheck(
        onBroken,
        new BoundedChainCheck(maxStreamHeads, options.spill ?? cannotSpill(maxStreamHeads)),
      )
    : new WorkerChainCheck(onBroken, options.workerUrl ?? WORKER_URL, { maxStreamHeads });
}

/** The thread startChainCheck runs a check on. */
export function defaultChainThread(options: Pick<ChainCheckOptions, 'thread' | 'workerUrl'>): 'worker' | 'inline' {
  return options.thread ?? (FROM_SOURCES && !options.workerUrl ? 'inline' : 'worker');
}

class InlineChainCheck implements PagedChainCheck {
  readonly thread = 'inline';

  constructor(
    private readonly onBroken: (link: BrokenLink) => void,
    private readonly chain: BoundedChainCheck,
  ) {}

  submit(rows: readonly AuditedEvent[]): Promise<void> {
    return this.chain.checkPage(rows, (link) => this.onBroken(link));
  }

  drain(): Promise<void> {
    return Promise.resolve();
  }

  checkHeads(readHeads: ReadHeadPages): Promise<HeadCheck> {
    return this.chain.checkHeads(readHeads);
  }

  get eventsChecked(): number {
    return this.chain.eventsChecked;
  }

  get spilled(): boolean {
    return this.chain.spilled;
  }

  close(): Promise<void> {
    return this.chain.close();
  }
}

/** One message sent and not yet answered (the worker answers in order). */
interface Outstanding {
  /** A page's positions (links come back with an index into them); null for the heads. */
  positions: GlobalPosition[] | null;
  done: Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

class WorkerChainCheck implements PagedChainCheck {
  readonly thread = 'worker';
  readonly spilled = false;
  private readonly worker: Worker;
  private readonly outstanding: Outstanding[] = [];
  private pagesInFlight = 0;
  private checked = 0;
  private failure: Error | undefined;

  constructor(
    private readonly onBroken: (link: BrokenLink) => void,
    script: URL,
    settings: WorkerSettings,
  ) {
    this.worker = new Worker(script, { workerData: settings });
    this.worker.on('message', (message: FromWorker) => this.answer(message));
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`chain check: the worker exited (code ${code})`)));
  }

  async submit(rows: readonly AuditedEvent[]): Promise<void> {
    for (;;) {
      if (this.failure) throw this.failure;
      if (this.pagesInFlight < MAX_PAGES_IN_FLIGHT) break;
      await this.outstanding[0]!.done;
    }
    this.pagesInFlight += 1;
    // Only the positions stay here: the rows themselves may be dropped while the worker checks them.
    void this.send(
      { kind: 'page', fields: pageFields(rows) },
      rows.map((r) => r.position),
    );
  }

  async drain(): Promise<void> {
    const last = this.outstanding[this.outstanding.length - 1];
    if (last) await last.done;
    if (this.failure) throw this.failure;
  }

  /** One page of heads in flight at a time: the worker's findings per page, gathered here. */
  async checkHeads(readHeads: ReadHeadPages): Promise<HeadCheck> {
    const check: HeadCheck = { broken: [], unseen: [] };
    for await (const page of readHeads()) {
      const part = (await this.send({ kind: 'heads', heads: [...page] }, null)) as HeadCheck;
      check.broken.push(...part.broken);
      check.unseen.push(...part.unseen);
    }
    return check;
  }

  get eventsChecked(): number {
    return this.checked;
  }

  async close(): Promise<void> {
    this.fail(new Error('chain check: closed'));
    await this.worker.terminate();
  }

  private send(message: ToWorker, positions: GlobalPosition[] | null): Promise<unknown> {
    if (this.failure) throw this.failure;
    let resolve!: (value: unknown) => void;
    let reject!: (error: Error) => void;
    const done = new Promise<unknown>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    // Awaited by submit/drain/checkHeads when they need it; a failure meanwhile must not be unhandled.
    done.catch(() => undefined);
    this.outstanding.push({ positions, done, resolve, reject });
    this.worker.postMessage(message);
    return done;
  }

  private answer(message: FromWorker): void {
    const request = this.outstanding.shift();
    if (!request) return this.fail(new Error('chain check: an answer nobody asked for'));
    if (message.kind === 'failed') {
      const error = new Error(`chain check: ${message.message}`);
      request.reject(error);
      return this.fail(error);
    }
    if (message.kind === 'heads') return request.resolve(message.result);
    this.pagesInFlight -= 1;
    this.checked += message.checked;
    for (const { index, ...link } of message.broken) {
      // Keys in ChainVerifier's order, so a report prints the same either way.
      this.onBroken({
        streamId: link.streamId,
        streamVersion: link.streamVersion,
        eventId: link.eventId,
        position: request.positions![index]!,
        reason: link.reason,
        expected: link.expected,
        actual: link.actual,
      });
    }
    request.resolve(undefined);
  }

  /** The first failure wins; everything outstanding and everything after it fails with it. */
  private fail(error: Error): void {
    this.failure ??= error;
    for (const request of this.outstanding.splice(0)) request.reject(this.failure);
  }
}
